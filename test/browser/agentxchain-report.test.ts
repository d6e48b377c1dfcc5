/// <reference types="mocha" />
// The AgentXchain governance report in Chromium: every case of the report manifest through the
// core API (default SHA-256: hash-wasm), its JSON compared with the reference's, and the markdown of
// a sample of cases byte for byte (docs/agentxchain-report.md). Error reports quote a V8 JSON.parse
// message, which Chromium's V8 may word differently from Node 20's: those are compared on overall
// and exit code only. `json: null` is a reference crash, where we print the fail report.
import {
  agentxchainReportExitCode,
  agentxchainReportMarkdown,
  reportAgentxchain,
} from '../../src/formats/agentxchain/index.ts';
import { fixtureBytes, fixtureManifest, fixtureUrl } from './fixtures.ts';

interface Case {
  readonly id: string;
  readonly file: string;
  readonly now: string;
  readonly exit_code: number;
  readonly json: Record<string, unknown> | null;
  readonly markdown_file: string;
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const FOLDER = 'agentxchain/report';
/** Markdown is compared on every MARKDOWN_STRIDE-th case (and on every coordinator). */
const MARKDOWN_STRIDE = 4;

describe('AgentXchain governance report in Chromium (shared fixtures)', () => {
  it('gives the reference report for every manifest case', async () => {
    const manifest = await fixtureManifest<{ cases: Case[] }>(FOLDER);
    assert(manifest.cases.length === 179, `expected 179 cases, found ${manifest.cases.length}`);
    const mismatches: string[] = [];
    let exact = 0;
    let markdown = 0;
    for (const [index, c] of manifest.cases.entries()) {
      const name = c.file.split('/').pop()!;
      const report = await reportAgentxchain(await fixtureBytes(`${FOLDER}/${c.file}`), { name, now: c.now });
      const exit = agentxchainReportExitCode(report);
      if (exit !== c.exit_code) mismatches.push(`${c.id}: exit code ${exit} != ${c.exit_code}`);
      if (c.json === null) {
        if (report.overall !== 'fail') mismatches.push(`${c.id}: expected the fail report, got ${report.overall}`);
        continue;
      }
      if (c.json['overall'] === 'error') {
        if (report.overall !== 'error') mismatches.push(`${c.id}: overall ${report.overall} != error`);
        continue;
      }
      const printed = JSON.stringify(report, null, 2);
      if (printed !== JSON.stringify(c.json, null, 2)) {
        mismatches.push(`${c.id}: json differs`);
        continue;
      }
      exact++;
      if (index % MARKDOWN_STRIDE === 0 || printed.includes('"coordinator_workspace"')) {
        const response = await fetch(fixtureUrl(`${FOLDER}/${c.markdown_file}`));
        assert(response.ok, `${c.markdown_file}: HTTP ${response.status}`);
        if (`${agentxchainReportMarkdown(report)}\n` !== (await response.text()))
          mismatches.push(`${c.id}: markdown differs`);
        markdown++;
      }
    }
    assert(mismatches.length === 0, `mismatches:\n${mismatches.join('\n')}`);
    assert(exact >= 160, `only ${exact} cases compared exactly`);
    assert(markdown >= 40, `only ${markdown} markdown files compared`);
  });
});
