import { generateCase } from './case.ts';
import { callApi } from './execute.ts';
const c = generateCase(100, Number(process.argv[2]));
console.log(c.steps, c.call);
const r = await callApi(c.bytes, c.call);
console.log(r.overall, r.findings.map((f) => `${f.severity} ${f.code} ${f.path}`));
