/**
 * The worker's side of the Run view: the core's governance report (spec `agentxchain-report.md`,
 * `src/formats/agentxchain/report/`) with the reference's markdown. The worker imports this module
 * only when a person opens the Run tab, so none of it is on the verification path.
 * @module
 */
import { reportAgentxchain } from '../../src/formats/agentxchain/report/report.ts';
import { agentxchainReportMarkdown } from '../../src/formats/agentxchain/report/render.ts';
import type { VerifyInput } from '../../src/stream/input.ts';
import type { GovernanceReport, RunReport } from './types.ts';

/**
 * The governance report of `input` and its markdown (the reference's `report --format markdown`).
 * @example
 * const { report, markdown } = await makeRunReport(file, file.name, Date.now());
 */
export async function makeRunReport(input: VerifyInput, name?: string, now?: number): Promise<RunReport> {
  const report = await reportAgentxchain(input, {
    ...(name === undefined ? {} : { name }),
    ...(now === undefined ? {} : { now }),
  });
  // The views read the report through their own structural types (components/run-view/types.ts).
  // The download is the file `report --format markdown > file` writes: console.log adds a newline.
  return { report: report as unknown as GovernanceReport, markdown: `${agentxchainReportMarkdown(report)}\n` };
}
