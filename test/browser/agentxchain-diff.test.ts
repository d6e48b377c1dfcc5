/// <reference types="mocha" />
// AgentXchain export diff in Chromium: every pair of the shared diff manifest through the core
// API (`diffAgentxchain` on the fetched bytes, named by basename as the fixtures are), with the
// reference's `diff --export --json` object and text as expected. The refusal whose message quotes
// V8's JSON.parse wording (`left-not-json`) is compared on the refusal alone: Chromium's V8 may
// word it differently from Node 20's (docs/agentxchain-diff.md §6).
import { agentxchainDiffText, diffAgentxchain } from '../../src/formats/agentxchain/diff/index.ts';
import { fixtureBytes, fixtureManifest, fixtureUrl } from './fixtures.ts';

interface DiffCase {
  readonly id: string;
  readonly left: string;
  readonly right: string;
  readonly json: Record<string, unknown> | null;
  readonly stderr?: string;
  readonly text_file: string;
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

describe('AgentXchain export diff in Chromium (shared fixtures)', () => {
  it('gives the reference diff and text for every pair', async () => {
    const manifest = await fixtureManifest<{ cases: DiffCase[] }>('agentxchain/diff');
    assert(manifest.cases.length === 34, `expected 34 cases, found ${manifest.cases.length}`);
    const mismatches: string[] = [];
    let compared = 0;
    for (const c of manifest.cases) {
      if (c.right === 'no-such-export.json') continue; // a missing file: the CLI's refusal, not the core's
      const result = await diffAgentxchain(
        await fixtureBytes(`agentxchain/diff/${c.left}`),
        await fixtureBytes(`agentxchain/diff/${c.right}`),
        { leftName: basename(c.left), rightName: basename(c.right) },
      );
      compared++;
      if (c.json === null) {
        if (result.ok) {
          mismatches.push(`${c.id}: expected a refusal, got a diff`);
        } else if (c.id === 'left-not-json') {
          if (result.refusal.code !== 'not_json') mismatches.push(`${c.id}: refusal ${result.refusal.code}`);
        } else if (`${result.refusal.message}\n` !== c.stderr) {
          mismatches.push(`${c.id}: refusal ${JSON.stringify(result.refusal.message)}`);
        }
        continue;
      }
      if (!result.ok) {
        mismatches.push(`${c.id}: refused: ${result.refusal.message}`);
        continue;
      }
      if (JSON.stringify(result.diff, null, 2) !== JSON.stringify(c.json, null, 2)) {
        mismatches.push(`${c.id}: json differs`);
      }
      const text = await (await fetch(fixtureUrl(`agentxchain/diff/${c.text_file}`))).text();
      if (agentxchainDiffText(result.diff) !== text) mismatches.push(`${c.id}: text differs`);
    }
    assert(compared === 33, `compared ${compared} pairs`);
    assert(mismatches.length === 0, mismatches.join('\n'));
  });
});
