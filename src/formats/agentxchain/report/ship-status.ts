/**
 * Whether the run looks shippable from its export (docs/agentxchain-report.md §4.19): five
 * dimensions (run completion, QA ship verdict, gate clearance, release alignment, test
 * verification), of which only the verdict and the blocking reasons reach the report.
 * @module
 */
import { fileText } from './file-text.ts';
import { HISTORY } from './turns.ts';
import { isObjectLike, keysOf, prop, text, type ParsedValue } from './values.ts';

type DimensionStatus = 'pass' | 'fail' | 'pending';

interface Dimension {
  readonly status: DimensionStatus;
  readonly blocking_reason: string | null;
}

export interface ShipStatus {
  overall: DimensionStatus;
  dimensions_passed: number;
  dimensions_total: number;
  blocking_reasons: string[];
}

const pass: Dimension = { status: 'pass', blocking_reason: null };
const fail = (reason: string): Dimension => ({ status: 'fail', blocking_reason: reason });
const pending = (reason: string): Dimension => ({ status: 'pending', blocking_reason: reason });

function runCompletion(state: ParsedValue): Dimension {
  const status = prop(state, 'status') || null;
  if (status === 'completed') return pass;
  if (status === 'failed' || status === 'blocked' || status === 'idle')
    return fail(`Run is not shippable: status "${text(status)}".`);
  return pending(`Run has not reached completion (status "${text(status || 'unknown')}").`);
}

/** A `phase_gate_status` value: a string itself, an object's `outcome || status || "pending"`, else pending. */
function gateStatus(value: ParsedValue): ParsedValue {
  if (typeof value === 'string') return value;
  if (isObjectLike(value)) return prop(value, 'outcome') || prop(value, 'status') || 'pending';
  return 'pending';
}

const AFFIRMATIVE = new Set(['yes', 'ship', 'ship it']);
const VERDICT = /^##\s+Verdict\s*:\s*(.+)$/im;

function shipVerdict(state: ParsedValue, config: ParsedValue, verdict: string | null): Dimension {
  const gate = gateStatus(prop(prop(state, 'phase_gate_status'), 'qa_ship_verdict'));
  if (gate === 'passed') return pass;
  if (gate === 'failed') return fail('QA did not approve shipping.');
  if (verdict !== null && verdict.trim()) {
    const match = VERDICT.exec(verdict);
    if (match) {
      const said = match[1]!.trim();
      const token = said.toLowerCase().replace(/[.!]+$/, '');
      return AFFIRMATIVE.has(token) ? pass : fail(`QA did not approve shipping: verdict "${said}".`);
    }
  }
  const phases = keysOf(prop(config, 'routing') || {});
  const finalPhase = phases.length > 0 ? phases[phases.length - 1]! : 'qa';
  const current = prop(state, 'phase') || null;
  let reached = prop(state, 'status') === 'completed';
  if (!reached && current != null) {
    const index = phases.indexOf(current as string);
    reached = index >= 0 && index >= phases.indexOf(finalPhase);
  }
  return reached
    ? fail(`QA ship verdict missing after reaching the "${finalPhase}" phase.`)
    : pending(`QA phase ("${finalPhase}") not yet reached; ship verdict pending.`);
}

function gateClearance(state: ParsedValue, config: ParsedValue): Dimension {
  const ids = keysOf(prop(config, 'gates') || {});
  if (ids.length === 0) return pending('No governance gates defined to evaluate.');
  const statuses = prop(state, 'phase_gate_status') || {};
  const perGate = ids.map((id) => ({ id, status: gateStatus(prop(statuses, id)) }));
  const failed = perGate.filter((g) => g.status === 'failed');
  if (failed.length > 0) return fail(`Gate(s) failed: ${failed.map((g) => g.id).join(', ')}.`);
  const open = perGate.filter((g) => g.status !== 'passed' && g.status !== 'failed');
  if (open.length > 0) return pending(`Gate(s) not yet satisfied: ${open.map((g) => g.id).join(', ')}.`);
  return pass;
}

/** The history as its raw file text gives it: `JSON.parse` per non-empty line, failures and falsy values dropped. */
function historyLines(content: string | null): ParsedValue[] {
  if (content === null || !content.trim()) return [];
  const entries: ParsedValue[] = [];
  for (const line of content.split('\n')) {
    if (line === '') continue;
    try {
      const value: ParsedValue = JSON.parse(line);
      if (value) entries.push(value);
    } catch {
      // The reference drops a line that does not parse.
    }
  }
  return entries;
}

function verificationStatus(entry: ParsedValue): string | null {
  const status = prop(prop(entry, 'verification'), 'status');
  return typeof status === 'string' ? status.toLowerCase() : null;
}

function testVerification(history: readonly ParsedValue[]): Dimension {
  if (history.length === 0) return pending('No accepted turns with verification evidence yet.');
  const failed = history.filter((h) => verificationStatus(h) === 'fail');
  if (failed.length > 0) {
    const ids = failed
      .map((h) => prop(h, 'turn_id'))
      .filter(Boolean)
      .slice(0, 3)
      .map(text)
      .join(', ');
    return fail(`Verification failed on turn(s): ${ids || '(unknown)'}.`);
  }
  const evidence = history.filter((h) => verificationStatus(h) !== 'skipped');
  if (evidence.length === 0) return pending('No accepted turns have produced passing verification evidence yet.');
  const notPassing = evidence.filter((h) => {
    const status = verificationStatus(h);
    return status !== 'pass' && status !== 'attested_pass';
  });
  if (notPassing.length > 0) return pending(`Verification not yet passing on ${notPassing.length} accepted turn(s).`);
  return pass;
}

/** §4.19. */
export function shipStatus(artifact: ParsedValue): ShipStatus {
  const state = prop(artifact, 'state') || null;
  const config = prop(artifact, 'config') || null;
  const dimensions = [
    runCompletion(state),
    shipVerdict(state, config, fileText(artifact, '.planning/ship-verdict.md')),
    gateClearance(state, config),
    pending('Release alignment not evaluated (run `agentxchain ship-status` for live evaluation).'),
    testVerification(historyLines(fileText(artifact, HISTORY))),
  ];
  const overall = dimensions.some((d) => d.status === 'fail')
    ? 'fail'
    : dimensions.some((d) => d.status === 'pending')
      ? 'pending'
      : 'pass';
  return {
    overall,
    dimensions_passed: dimensions.filter((d) => d.status === 'pass').length,
    dimensions_total: dimensions.length,
    blocking_reasons: dimensions.flatMap((d) => (d.status !== 'pass' && d.blocking_reason ? [d.blocking_reason] : [])),
  };
}
