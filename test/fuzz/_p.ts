import { writeSync } from 'node:fs';
import { generateCase } from './case.ts';
import { checkCase } from './execute.ts';
const from = Number(process.argv[2]);
for (let i = from; i < 100000; i++) {
  const c = generateCase(100, i);
  writeSync(1, `${i} `);
  const t = performance.now();
  const r = await checkCase(c);
  if (performance.now() - t > 3000 || r.failures.length) writeSync(1, `\n${i} took ${Math.round(performance.now() - t)} ${JSON.stringify(r.failures)}\n`);
}
