/// <reference types="mocha" />
// The Run and Compare views of <verify-export> in Chromium. The views are drawn from the recorded
// outputs of the reference (test/fixtures/agentxchain/report/ and diff/ manifests), so what they
// show is checked against `agentxchain report --format json` and `diff --export --json` as
// recorded; the element tests then run the real core in the worker. Screenshots of both views, in
// light and dark mode, go to test-results/screenshots/.
import { emulateMedia, executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import { html, render } from 'lit';
import '../../components/verify-export.ts';
import type { VerifyExportElement } from '../../components/verify-export.ts';
import { styles as elementStyles } from '../../components/verify-export.styles.ts';
import {
  INITIAL_RUN_TABS,
  renderRunTabs,
  styles as runStyles,
  type Comparison,
  type RunReport,
  type RunTab,
  type RunTabsHost,
  type RunTabsState,
} from '../../components/run-view/index.ts';
import type { ExportDiff, GovernanceReport } from '../../components/run-view/types.ts';
import { STAGE_ROWS } from '../../components/run-view/shared.ts';
import { fixtureBytes, fixtureManifest } from './fixtures.ts';
import type { Report } from '../../src/report.ts';

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

interface ReportCase {
  readonly id: string;
  readonly file: string;
  readonly now: string;
  readonly json: GovernanceReport | null;
  readonly markdown_file: string;
}
interface DiffCase {
  readonly id: string;
  readonly left: string;
  readonly right: string;
  readonly json: ExportDiff | null;
  readonly stderr?: string;
  readonly text_file: string;
}

let reportCases: Map<string, ReportCase>;
let diffCases: Map<string, DiffCase>;

before(async () => {
  const reports = await fixtureManifest<{ cases: ReportCase[] }>('agentxchain/report');
  const diffs = await fixtureManifest<{ cases: DiffCase[] }>('agentxchain/diff');
  reportCases = new Map(reports.cases.map((entry) => [entry.id, entry]));
  diffCases = new Map(diffs.cases.map((entry) => [entry.id, entry]));
  assert(reportCases.size > 0 && diffCases.size > 0, 'the manifests list cases');
});

function reportCase(id: string): ReportCase {
  const found = reportCases.get(id);
  assert(found, `report case ${id}`);
  return found;
}

function diffCase(id: string): DiffCase {
  const found = diffCases.get(id);
  assert(found, `diff case ${id}`);
  return found;
}

async function fixtureText(path: string): Promise<string> {
  return new TextDecoder().decode(await fixtureBytes(path));
}

/** `../real-full.json` (relative to a manifest's folder) → `agentxchain/real-full.json`. */
function fromManifest(folder: string, relative: string): string {
  return new URL(relative, `http://x/agentxchain/${folder}/`).pathname.slice(1);
}

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const element of mounted.splice(0)) element.remove();
});

/**
 * A host for the views alone: a shadow root with the element's and the views' styles, and a
 * state that re-renders on update, as the element keeps it.
 */
function mountViews(
  initial: Partial<RunTabsState>,
  jobs: Partial<Pick<RunTabsHost, 'runReport' | 'compare'>> = {},
): { root: ShadowRoot; host: RunTabsHost } {
  const container = document.createElement('div');
  document.body.append(container);
  mounted.push(container);
  const root = container.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = [elementStyles.styleSheet!, runStyles.styleSheet!];
  let state: RunTabsState = { ...INITIAL_RUN_TABS, ...initial };
  const host: RunTabsHost = {
    inputName: 'export.json',
    get state() {
      return state;
    },
    update(patch) {
      state = { ...state, ...patch };
      draw();
    },
    runReport: jobs.runReport ?? (() => Promise.reject(new Error('not expected'))),
    compare: jobs.compare ?? (() => Promise.reject(new Error('not expected'))),
  };
  const draw = () => render(renderRunTabs(host, html`<p class="verification">verification report</p>`), root);
  draw();
  return { root, host };
}

function readyRun(report: GovernanceReport, markdown = ''): RunTabsState['run'] {
  return { status: 'ready', value: { report, markdown }, links: { markdown: 'blob:unused' } };
}

function readyCompare(value: Comparison): RunTabsState['compare'] {
  return { status: 'ready', value, links: {} };
}

function textOf(node: ParentNode | null | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function sectionOf(root: ShadowRoot, name: string): HTMLElement | null {
  return root.querySelector<HTMLElement>(`[data-section="${name}"]`);
}

/** Any bidi control or separator left in the drawn text. */
const RAW_CONTROLS = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('Run view (recorded reports)', () => {
  it('a governed run: header, turns, decisions with lineage, delegations, gates, hooks', async () => {
    const recorded = reportCase('real-full');
    assert(recorded.json?.overall === 'pass' && recorded.json.subject.kind === 'governed_run', 'real-full passes');
    const run = recorded.json.subject.run;
    const { root } = mountViews({ tab: 'run', run: readyRun(recorded.json) });
    const header = textOf(root.querySelector('[part="run-header"]'));
    for (const expected of [
      'Corpus Full 🚀',
      'corpus-full',
      'run_644e3fe20d6e72f4',
      'completed',
      'qa',
      '$0.05',
      '$49.95',
    ])
      assert(header.includes(expected), `header shows ${expected}: ${header}`);
    const turnRows = root.querySelectorAll('[part="turn-table"] tbody tr');
    assert(turnRows.length === run.turns.length, `one row per turn: ${turnRows.length}`);
    assert(textOf(turnRows[2]).includes('planning → implementation'), 'a phase transition is shown');
    const decisions = textOf(sectionOf(root, 'decisions'));
    for (const decision of run.decisions) assert(decisions.includes(decision.id), `decision ${decision.id} is listed`);
    assert(/DEC-201 active .*supersedes DEC-001/.test(decisions), `lineage: DEC-201 supersedes DEC-001: ${decisions}`);
    assert(/DEC-001 overridden .*superseded by DEC-201/.test(decisions), 'lineage: DEC-001 superseded by DEC-201');
    const delegations = textOf(sectionOf(root, 'delegations'));
    assert(delegations.includes('del-001') && delegations.includes('eng_director'), `delegations: ${delegations}`);
    const gates = textOf(sectionOf(root, 'gates'));
    for (const gate of run.gate_summary)
      assert(gates.includes(`${gate.gate_id}: ${gate.status}`), `gate ${gate.gate_id}`);
    assert(textOf(sectionOf(root, 'hooks')).includes('10 hook execution(s), 0 blocked'), 'hook activity');
    assert(header.includes('run_completed'), 'the latest event is shown');
  });

  it('a blocked run shows its next actions as commands', async () => {
    const recorded = reportCase('ra-nonprogress-blocked');
    assert(recorded.json?.overall === 'pass' && recorded.json.subject.kind === 'governed_run', 'case passes');
    const { root } = mountViews({ tab: 'run', run: readyRun(recorded.json) });
    const actions = sectionOf(root, 'next-actions');
    assert(actions, 'next actions are shown');
    assert(actions.querySelector('code.command')?.textContent === 'agentxchain resume', 'the command is code');
    assert(textOf(root.querySelector('[part="run-header"]')).includes('blocked'), 'the status is blocked');
  });

  it('a coordinator: one row per repo, drift, next actions, timeline and barriers', async () => {
    const recorded = reportCase('rp-coord-rich-a');
    assert(recorded.json?.overall === 'pass' && recorded.json.subject.kind === 'coordinator_workspace', 'coordinator');
    const subject = recorded.json.subject;
    const { root } = mountViews({ tab: 'run', run: readyRun(recorded.json) });
    const rows = [...root.querySelectorAll('[part="repo-run-table"] tbody tr')];
    assert(rows.length === subject.repos.length, `one row per repo: ${rows.length}`);
    for (const [i, repo] of subject.repos.entries())
      assert(textOf(rows[i]).startsWith(repo.repo_id), `row ${repo.repo_id}`);
    const drift = textOf(sectionOf(root, 'drift'));
    assert(drift.includes('run_expected_by_coordinator') && drift.includes('run_5e1b939a8b570236'), 'run id drift');
    assert(sectionOf(root, 'next-actions')?.querySelectorAll('li').length === 3, 'three next actions');
    assert(
      sectionOf(root, 'coordinator-timeline')?.querySelectorAll('li').length === subject.coordinator_timeline.length,
      'the coordinator timeline',
    );
    assert(sectionOf(root, 'barriers') !== null, 'barriers');
    assert(textOf(root.querySelector('[part="run-header"]')).includes('Report corpus coordinator'), 'the workspace');
  });

  it('a refused report shows the message and the verification errors', async () => {
    const recorded = reportCase('real-badstate-manyfiles');
    assert(recorded.json?.overall === 'fail', 'the case is a refusal');
    const { root } = mountViews({ tab: 'run', run: readyRun(recorded.json) });
    const shown = textOf(root.querySelector('[part="run-view"]'));
    assert(shown.includes('Cannot build governance report from invalid export artifact.'), shown);
    assert(shown.includes('state: must be an object'), 'the verification error');
  });

  it('a 503-turn run draws a page of turns at a time', async () => {
    const recorded = reportCase('rp-run-many-a');
    assert(recorded.json?.overall === 'pass' && recorded.json.subject.kind === 'governed_run', 'case passes');
    const { root } = mountViews({ tab: 'run', run: readyRun(recorded.json) });
    const rows = () => root.querySelectorAll('[part="turn-table"] tbody tr').length;
    assert(rows() === 100, `100 turns at first: ${rows()}`);
    const more = sectionOf(root, 'turns')?.querySelector<HTMLButtonElement>('.more button');
    assert(more, 'a "show more" button');
    more.click();
    assert(rows() === 200, `200 after one click: ${rows()}`);
    assert(
      textOf(sectionOf(root, 'turns')?.querySelector('.more')).includes('Showing 200 of 503'),
      'the rest is counted',
    );
  });

  it('drawn in stages: the header and the first rows at once, the rest a frame at a time', async () => {
    const recorded = reportCase('rp-run-many-a');
    assert(recorded.json?.overall === 'pass' && recorded.json.subject.kind === 'governed_run', 'case passes');
    const { root, host } = mountViews({ tab: 'run', run: readyRun(recorded.json), stage: 0 });
    const rows = () => root.querySelectorAll('[part="turn-table"] tbody tr').length;
    const sections = () => root.querySelectorAll('[data-section]').length;
    assert(root.querySelector('[part="run-header"]') && sectionOf(root, 'turns'), 'the header and the first section');
    assert(rows() > 0 && rows() <= STAGE_ROWS, `the first stage draws at most ${STAGE_ROWS} rows: ${rows()} turns`);
    assert(sectionOf(root, 'turns')?.querySelector('.more') === null, 'no "show more" while the rows are coming');
    const firstSections = sections();
    await until('all stages', () => host.state.stage !== undefined && rows() === 100 && sectionOf(root, 'cost'));
    assert(sections() > firstSections, `later sections follow: ${firstSections} then ${sections()}`);
    const stage = host.state.stage;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert(host.state.stage === stage, 'no stage is drawn once everything is');
    assert(
      textOf(sectionOf(root, 'turns')?.querySelector('.more')).includes('Showing 100 of 503'),
      'then the page is as without stages',
    );
  });

  it('hostile strings stay text, links are not made, and bidi controls are drawn visibly', async () => {
    const recorded = reportCase('real-full');
    assert(recorded.json?.overall === 'pass' && recorded.json.subject.kind === 'governed_run', 'real-full passes');
    const hostile = structuredClone(recorded.json) as typeof recorded.json & {
      subject: { run: Record<string, unknown> };
    };
    const run = hostile.subject.run as unknown as {
      turns: { summary: unknown; role: unknown }[];
      decisions: { statement: unknown; id: string }[];
      next_actions: { command: unknown; reason: unknown }[];
    };
    run.turns[0]!.summary = '<img src=x onerror="window.__xss=11">';
    run.turns[1]!.summary = '</script><script>window.__xss=12</script>';
    run.turns[2]!.role = 'x\u202Eexe.txt';
    run.decisions[0]!.statement = 'a\u2067b\u2069 c\u2028d \u0007';
    run.next_actions = [
      { command: 'javascript:window.__xss=13', reason: '<a href="javascript:window.__xss=14">go</a>' },
    ];
    const { root } = mountViews({ tab: 'run', run: readyRun(hostile) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert(
      root.querySelector('img, script, a:not([part="report-download"])') === null,
      'no element was made from data',
    );
    assert(window.__xss === undefined, 'nothing ran');
    const shown = root.textContent ?? '';
    assert(shown.includes('<img src=x onerror="window.__xss=11">'), 'markup is shown as text');
    assert(shown.includes('</script><script>window.__xss=12</script>'), 'a script end tag is shown as text');
    assert(shown.includes('javascript:window.__xss=13'), 'a javascript: command is text');
    assert(!RAW_CONTROLS.test(shown), 'no bidi control reaches the page');
    const role = root.querySelectorAll('[part="turn-table"] tbody tr')[2]?.children[1];
    assert(textOf(role) === 'xRLOexe.txt', `the override is a visible mark in logical order: ${textOf(role)}`);
    assert(role?.querySelector('bdi[dir="auto"] .control[title="U+202E"]'), 'inside an isolated bdi');
    const statement = textOf(sectionOf(root, 'decisions')?.querySelector('li'));
    assert(statement.includes('aRLIbPDI cLSd ␇'), `isolates, separators and C0 are marked: ${statement}`);
  });
});

describe('Compare view (recorded diffs)', () => {
  it('regressions come first, errors before warnings', async () => {
    const recorded = diffCase('policy-vs-prog');
    assert(recorded.json, 'the diff was recorded');
    const text = await fixtureText(fromManifest('diff', recorded.text_file));
    const { root } = mountViews({ tab: 'compare', compare: readyCompare({ ok: true, diff: recorded.json, text }) });
    const panel = root.querySelector('[part="compare-view"]');
    const sections = [...(panel?.querySelectorAll('[data-section]') ?? [])].map((node) =>
      node.getAttribute('data-section'),
    );
    assert(sections[0] === 'regressions', `regressions first: ${sections.join()}`);
    const ids = [...root.querySelectorAll('.regression > code')].map((node) => node.textContent);
    assert(ids.join() === 'REG-DELEGATION-MISSING-002,REG-DECISION-OVERRIDE-001', `error first: ${ids.join()}`);
    assert(recorded.json.regressions[0]!.severity === 'warning', 'the diff itself lists the warning first');
    assert(textOf(sectionOf(root, 'changes')).includes('Active repo decisions'), 'the changed fields follow');
  });

  it('a regression the reference summary calls "unchanged" is still shown', async () => {
    const recorded = diffCase('gate-regressed-only');
    assert(recorded.json && !recorded.json.changed, 'the recorded diff says unchanged');
    const { root } = mountViews({ tab: 'compare', compare: readyCompare({ ok: true, diff: recorded.json, text: '' }) });
    assert(textOf(sectionOf(root, 'regressions')).includes('REG-GATE-001'), 'the gate regression is listed');
    assert(sectionOf(root, 'regressions')?.querySelector('.note'), 'with a note on the summary');
  });

  it('a coordinator diff shows repo export changes; a refusal shows its message', async () => {
    const recorded = diffCase('coord-child-export-failed');
    assert(recorded.json, 'recorded');
    const { root } = mountViews({ tab: 'compare', compare: readyCompare({ ok: true, diff: recorded.json, text: '' }) });
    assert(
      textOf(sectionOf(root, 'changes')).includes('Repo export ok docs yes no'),
      textOf(sectionOf(root, 'changes')),
    );
    const refused = diffCase('run-vs-coordinator');
    const second = mountViews({
      tab: 'compare',
      compare: readyCompare({ ok: false, message: refused.stderr!.trimEnd() }),
    });
    assert(
      textOf(second.root.querySelector('[part="compare-refusal"]')).includes('Export kinds do not match'),
      'the refusal',
    );
  });
});

describe('Run and Compare tabs: keyboard and ARIA', () => {
  it('tabs are a tablist with one tab stop; arrows, Home and End move between them', async () => {
    const recorded = reportCase('real-full');
    assert(recorded.json, 'recorded');
    let asked = 0;
    const { root, host } = mountViews(
      {},
      {
        runReport: () => {
          asked++;
          return Promise.resolve({ report: recorded.json!, markdown: '# md\n' } satisfies RunReport);
        },
      },
    );
    const tabOf = (): RunTab => host.state.tab;
    const tabs = [...root.querySelectorAll<HTMLElement>('[role="tab"]')];
    assert(tabs.length === 3, 'three tabs');
    assert(tabs.filter((tab) => tab.tabIndex === 0).length === 1, 'one tab stop');
    assert(tabs[0]!.getAttribute('aria-selected') === 'true', 'Verification is selected first');
    tabs[0]!.focus();
    await sendKeys({ press: 'ArrowRight' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert(tabOf() === 'run' && asked === 1, 'ArrowRight opens Run, which asks for the report once');
    assert(root.activeElement?.id === 'tab-run', 'focus follows');
    const panel = root.querySelector('#panel-run');
    assert(
      panel?.getAttribute('aria-labelledby') === 'tab-run' && !panel.hasAttribute('hidden'),
      'the Run panel shows',
    );
    await sendKeys({ press: 'End' });
    assert(tabOf() === 'compare', 'End selects Compare');
    await sendKeys({ press: 'Home' });
    await sendKeys({ press: 'ArrowLeft' });
    assert(tabOf() === 'compare', 'ArrowLeft from the first wraps to the last');
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'ArrowRight' });
    assert(tabOf() === 'run' && asked === 1, 'the report is not asked for again');
    assert(root.querySelector('[part="report-download"]')?.textContent?.includes('Download report'), 'download link');
  });
});

describe('Screenshots', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`Run and Compare views in ${scheme} mode`, async () => {
      await emulateMedia({ colorScheme: scheme });
      // Tall enough that no section is skipped by content-visibility in a full-page shot.
      await setViewport({ width: 1040, height: 2600 });
      try {
        const recorded = reportCase('real-full');
        assert(recorded.json, 'recorded');
        const run = mountViews({ tab: 'run', run: readyRun(recorded.json) });
        (run.root.host as HTMLElement).style.cssText = 'display:block;max-width:1000px;padding:16px';
        await executeServerCommand('save-screenshot', { name: `run-view-${scheme}.png` });
        for (const element of mounted.splice(0)) element.remove();
        const diff = diffCase('policy-vs-prog');
        const compare = mountViews({ tab: 'compare', compare: readyCompare({ ok: true, diff: diff.json!, text: '' }) });
        (compare.root.host as HTMLElement).style.cssText = 'display:block;max-width:1000px;padding:16px';
        await executeServerCommand('save-screenshot', { name: `compare-view-${scheme}.png` });
      } finally {
        await emulateMedia({ colorScheme: 'light' });
        await setViewport({ width: 800, height: 600 });
      }
    });
  }
});

// --- The element with the real core in its worker ------------------------------------------------

function mountElement(): VerifyExportElement {
  const element = document.createElement('verify-export');
  document.body.append(element);
  mounted.push(element);
  return element;
}

async function verified(element: VerifyExportElement, file: File): Promise<Report> {
  const done = new Promise<Report>((resolve, reject) => {
    element.addEventListener('verify-export:result', (event) => resolve((event as CustomEvent<Report>).detail), {
      once: true,
    });
    element.addEventListener('verify-export:error', () => reject(new Error('verify-export:error')), { once: true });
  });
  element.file = file;
  const report = await done;
  await element.updateComplete;
  return report;
}

async function until<T>(what: string, probe: () => T | null | undefined | false, ms = 60_000): Promise<T> {
  const started = performance.now();
  for (;;) {
    const found = probe();
    if (found) return found;
    if (performance.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function fixtureFile(folder: string, relative: string): Promise<File> {
  const path = fromManifest(folder, relative);
  return new File([(await fixtureBytes(path)) as BlobPart], path.split('/').pop()!);
}

describe('<verify-export> report view: bidi controls', () => {
  it('a file path with U+202E is drawn with a visible mark, not reordered', async () => {
    const artifact = JSON.parse(await fixtureText('agentxchain/real-fresh.json')) as { files: Record<string, unknown> };
    const path = 'x\u202Eexe.txt';
    artifact.files[path] = { format: 'text', bytes: 3, sha256: '0'.repeat(64), content_base64: 'YWJj', data: 'abc' };
    const element = mountElement();
    await verified(element, new File([JSON.stringify(artifact)], 'bidi.json'));
    const root = element.shadowRoot!;
    const cell = [...root.querySelectorAll('[part="file-table"] tbody td:first-child')].find((td) =>
      td.textContent?.includes('exe.txt'),
    );
    assert(cell, 'the file is listed');
    assert(textOf(cell) === 'xRLOexe.txt', `drawn in logical order with a mark: ${textOf(cell)}`);
    assert(cell.querySelector('bdi[dir="auto"]'), 'isolated');
    assert(!RAW_CONTROLS.test(root.textContent ?? ''), 'no raw bidi control in the view');
    const findings = textOf(root.querySelector('[part="findings"]'));
    assert(findings.includes('RLO') && !RAW_CONTROLS.test(findings), 'finding paths mark it too');
    // Drawn left to right: "exe" follows "x" on screen (an obeyed override would put it before).
    const range = document.createRange();
    const textNodes = [...cell.querySelectorAll('bdi')]
      .flatMap((bdi) => [...bdi.childNodes])
      .filter((n) => n.nodeType === 3);
    const first = textNodes.find((n) => n.textContent === 'x');
    const last = textNodes.find((n) => n.textContent === 'exe.txt');
    assert(first && last, 'text nodes around the mark');
    range.selectNodeContents(first);
    const xRight = range.getBoundingClientRect().right;
    range.selectNodeContents(last);
    assert(range.getBoundingClientRect().left >= xRight, '"exe.txt" is drawn after "x"');
  });
});

describe('<verify-export> Run and Compare tabs, with the core in the worker', () => {
  it('Run: the governance report of a verified run; the download is the reference markdown', async () => {
    const recorded = reportCase('real-full');
    const element = mountElement();
    element.now = Date.parse(recorded.now);
    await verified(element, await fixtureFile('report', recorded.file));
    const root = element.shadowRoot!;
    const runTab = await until('the Run tab', () => root.querySelector<HTMLElement>('#tab-run'));
    runTab.click();
    const download = await until('the report', () => root.querySelector<HTMLAnchorElement>('[part="report-download"]'));
    assert(download.download === 'real-full.governance-report.md', `file name: ${download.download}`);
    const markdown = await (await fetch(download.href)).text();
    const expected = await fixtureText(fromManifest('report', recorded.markdown_file));
    assert(
      markdown === expected,
      `the markdown equals the recorded one (${markdown.length} vs ${expected.length} chars)`,
    );
    const header = textOf(root.querySelector('[part="run-header"]'));
    assert(header.includes('run_644e3fe20d6e72f4'), 'the header shows the run');
    assert(root.querySelectorAll('[part="turn-table"] tbody tr').length === 5, 'five turns');
  });

  it('Run: a coordinator export gets one row per repo', async () => {
    const recorded = reportCase('rp-coord-rich-a');
    assert(recorded.json?.overall === 'pass' && recorded.json.subject.kind === 'coordinator_workspace', 'coordinator');
    const element = mountElement();
    element.now = Date.parse(recorded.now);
    await verified(element, await fixtureFile('report', recorded.file));
    const root = element.shadowRoot!;
    (await until('the Run tab', () => root.querySelector<HTMLElement>('#tab-run'))).click();
    const rows = await until('repo rows', () => {
      const found = root.querySelectorAll('[part="repo-run-table"] tbody tr');
      return found.length > 0 && found;
    });
    assert(rows.length === recorded.json.subject.repos.length, `rows: ${rows.length}`);
    const download = root.querySelector<HTMLAnchorElement>('[part="report-download"]')!;
    const expected = await fixtureText(fromManifest('report', recorded.markdown_file));
    assert(
      (await (await fetch(download.href)).text()) === expected,
      'the coordinator markdown equals the recorded one',
    );
  });

  it('Compare: two dropped files are verified and compared, regressions first; downloads are json and text', async () => {
    const recorded = diffCase('policy-vs-prog');
    const element = mountElement();
    const left = await fixtureFile('diff', recorded.left);
    const right = await fixtureFile('diff', recorded.right);
    const transfer = new DataTransfer();
    transfer.items.add(left);
    transfer.items.add(right);
    const done = new Promise((resolve) => element.addEventListener('verify-export:result', resolve, { once: true }));
    await element.updateComplete;
    const root = element.shadowRoot!;
    root
      .querySelector('[part="dropzone"]')!
      .dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true }));
    await done;
    const regressions = await until('the regressions', () => root.querySelector('[part="regressions"]'));
    assert(root.querySelector('#tab-compare')?.getAttribute('aria-selected') === 'true', 'the Compare tab is shown');
    const ids = [...regressions.querySelectorAll('.regression > code')].map((node) => node.textContent);
    assert(ids.join() === 'REG-DELEGATION-MISSING-002,REG-DECISION-OVERRIDE-001', `errors first: ${ids.join()}`);
    const [json, text] = [...root.querySelectorAll<HTMLAnchorElement>('[part="diff-download"]')];
    assert(json && text, 'two downloads');
    const diff = (await (await fetch(json.href)).json()) as ExportDiff;
    assert(JSON.stringify(diff) === JSON.stringify(recorded.json), 'the json download equals the recorded diff');
    const expectedText = await fixtureText(fromManifest('diff', recorded.text_file));
    assert((await (await fetch(text.href)).text()) === expectedText, 'the text download equals the recorded text');
  });

  it('Compare: a second export picked after the first; a refusal is shown in words', async () => {
    const recorded = diffCase('run-vs-coordinator');
    const element = mountElement();
    await verified(element, await fixtureFile('diff', recorded.left));
    const root = element.shadowRoot!;
    (await until('the Compare tab', () => root.querySelector<HTMLElement>('#tab-compare'))).click();
    await element.updateComplete;
    const input = root.querySelector<HTMLInputElement>('[part="compare-button"] input[type="file"]');
    assert(input, 'a file input to pick the second export');
    const transfer = new DataTransfer();
    transfer.items.add(await fixtureFile('diff', recorded.right));
    input.files = transfer.files;
    input.dispatchEvent(new Event('change'));
    const refusal = await until('the refusal', () => root.querySelector('[part="compare-refusal"]'));
    assert(textOf(refusal).includes(recorded.stderr!.trimEnd()), `the reference's message: ${textOf(refusal)}`);
  });

  it('no Run or Compare tab for an export that fails (its Files tab only)', async () => {
    const element = mountElement();
    const report = await verified(element, await fixtureFile('report', '../file-sha-flip.json'));
    assert(report.overall === 'fail', 'the export fails');
    const root = element.shadowRoot!;
    assert(
      root.querySelector('#tab-run') === null && root.querySelector('#tab-compare') === null,
      'no Run, no Compare',
    );
    const tabs = [...root.querySelectorAll('[role="tab"]')].map((tab) => textOf(tab));
    assert(tabs.join() === 'Verification,Files', `tabs: ${tabs.join()}`);
  });

  it('Compare: the file picker takes .json and .json.gz exports', async () => {
    const element = mountElement();
    await verified(element, await fixtureFile('report', reportCase('real-full').file));
    const root = element.shadowRoot!;
    (await until('the Compare tab', () => root.querySelector<HTMLElement>('#tab-compare'))).click();
    await element.updateComplete;
    const input = root.querySelector<HTMLInputElement>('[part="compare-button"] input[type="file"]');
    const accepted = (input?.accept ?? '').split(',');
    for (const type of ['.json', '.gz', 'application/json', 'application/gzip'])
      assert(accepted.includes(type), `accepts ${type}: ${input?.accept}`);
  });
});
