// How an NDJSON fixture's `expected` (its manifest in test/fixtures/) is compared with a report,
// for the agent-history and codex-exec suites, in Node and in the browser (no Node imports here).

export interface NdjsonCase {
  readonly file: string;
  readonly description: string;
  readonly expected: {
    readonly valid: boolean;
    readonly errors: readonly string[];
    readonly warnings?: readonly string[];
  };
  readonly schema?: string;
}

/** `line N: …` → N, else undefined. */
export function lineOf(expectation: string): number | undefined {
  const match = /^line (\d+):/.exec(expectation);
  return match ? Number(match[1]) : undefined;
}

/** True when a finding's path names line `n` (`line 17` or `line 17 $.payload.bytes`). */
export function namesLine(path: string, n: number): boolean {
  return path === `line ${n}` || path.startsWith(`line ${n} `);
}

/** Throws with a readable message when the report does not meet the fixture's expectation. */
export function assertMatchesExpectation(report: Report, testCase: NdjsonCase): void {
  const summary = (): string =>
    JSON.stringify(
      report.findings.map((f) => `${f.severity} ${f.code} @ ${f.path}: ${f.message}`),
      null,
      1,
    );
  const valid = report.overall === 'pass';
  if (valid !== testCase.expected.valid) {
    throw new Error(
      `${testCase.file}: expected valid=${testCase.expected.valid}, got overall=${report.overall}\n${summary()}`,
    );
  }
  for (const error of testCase.expected.errors) {
    const n = lineOf(error);
    if (n === undefined) continue;
    if (!report.findings.some((f) => f.severity === 'error' && namesLine(f.path, n))) {
      throw new Error(`${testCase.file}: no error finding on line ${n} (expected "${error}")\n${summary()}`);
    }
  }
  for (const warning of testCase.expected.warnings ?? []) {
    const n = lineOf(warning);
    if (n === undefined) continue;
    if (!report.findings.some((f) => f.severity === 'warning' && namesLine(f.path, n))) {
      throw new Error(`${testCase.file}: no warning finding on line ${n} (expected "${warning}")\n${summary()}`);
    }
  }
}
import type { Report } from '../../src/report.ts';
