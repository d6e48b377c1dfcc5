// Worker threads do not inherit the tsx loader from `node --import tsx`: register it here, then
// load the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
