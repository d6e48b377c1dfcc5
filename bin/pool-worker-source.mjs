// The pool's verifying thread when the CLI runs from source (tests, benches under `node --import
// tsx`): worker threads do not inherit the tsx loader, so register it here, then load the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./pool-worker.ts');
