// Fuzz throughput (run by `npm run bench`, or alone: node --import tsx bench/fuzz.bench.ts [count]):
// mutated inputs per second through the public API with every oracle on, per format, one worker,
// fixed seed; wall time, CPU time and peak RSS of the whole process (workers are threads).
import { runFuzz } from '../test/fuzz/session.ts';

const count = Number(process.argv[2] ?? 2000);
const seed = 424242;
const startedCpu = process.cpuUsage();
const summary = await runFuzz({ seed, start: 0, count, jobs: 1, caseOptions: {}, differentials: true });
const cpu = process.cpuUsage(startedCpu);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;

console.log(`fuzz: ${summary.completed} inputs, seed ${seed}, 1 worker`);
console.log(`  wall ${summary.seconds} s, ${summary.inputsPerSecond} inputs/s`);
console.log(
  `  CPU ${cpuSeconds.toFixed(1)} s (main thread + worker), ${(summary.completed / cpuSeconds).toFixed(1)} inputs per CPU-second`,
);
for (const [format, stats] of Object.entries(summary.byFormat)) {
  console.log(
    `  ${format.padEnd(13)} ${String(stats.cases).padStart(6)} cases: pass ${stats.pass}, fail ${stats.fail}, error ${stats.error}; must-fail claims ${stats.mustFail}; oracle failures ${stats.failures}`,
  );
}
console.log(
  `  failures ${summary.failures} ${JSON.stringify(summary.byOracle)}, harness errors ${summary.harnessErrors}`,
);
console.log(`  slowest: ${summary.slowest.map((s) => `${s.ms} ms ${s.case}`).join('; ')}`);
console.log(
  `  largest heap growth in one run ${summary.maxHeapDeltaMiB} MiB; heap after GC ${summary.heapAfterGcMiB.join(', ')} MiB`,
);
console.log(`  peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
process.exitCode = summary.failures === 0 && summary.harnessErrors === 0 ? 0 : 1;
