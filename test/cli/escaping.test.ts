// What the CLI prints of artifact text: bidi controls and separators shown as escapes in every
// text output (issue 15, item 5); GitHub workflow commands and JUnit XML escaped by their own
// rules, whatever the artifact holds (issue 18).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeData, escapeProperty, githubAnnotations } from '../../bin/github-annotations.ts';
import { renderJunit, xmlAttribute, xmlText } from '../../bin/junit.ts';
import { safeText } from '../../bin/safe-text.ts';
import { renderOutcomeLine, renderText } from '../../bin/text-report.ts';
import type { Outcome } from '../../bin/verify-file.ts';
import type { Report } from '../../src/report.ts';

/** Every character that reorders or breaks what is shown, and the C0/C1 controls. */
const INVISIBLE = [
  ...'\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029',
  '\u0000',
  '\u001b',
  '\u0085',
  '\u009b',
];

function report(text: string, overall: Report['overall'] = 'fail'): Report {
  return {
    overall,
    verdicts: { structure: 'fail', integrity: 'pass', authenticity: 'not-checked', trust: 'not-checked' },
    format: 'agentxchain',
    kind: `run${text}`,
    input: `/data/x${text}exe.json`,
    findings: [
      { code: 'agentxchain.field_invalid', path: `$.a${text}`, message: `bad${text}value`, severity: 'error' },
    ],
    details: { note: `n${text}` },
    stats: { bytes_read: 1, duration_ms: 1 },
  } as unknown as Report;
}

describe('text output', () => {
  for (const c of INVISIBLE) {
    const code = c.charCodeAt(0).toString(16).padStart(4, '0');
    it(`U+${code.toUpperCase()} is printed as \\u${code}`, () => {
      for (const text of [
        renderText(report(c), false),
        renderOutcomeLine({ label: `/x${c}.json`, report: report(c) }, false),
        renderOutcomeLine({ label: `/x${c}.json`, unreadable: `ENOENT ${c}` }, false),
      ]) {
        assert.ok(!text.includes(c), JSON.stringify(text));
        assert.ok(text.includes(`\\u${code}`));
      }
    });
  }

  it('the file name that hides its extension shows it', () => {
    assert.equal(safeText('x\u202Eexe.txt'), 'x\\u202eexe.txt');
  });

  it("GitHub's older command syntax cannot be spelled by artifact text", () => {
    const text = renderText(report('##[error]pwned'), false);
    assert.doesNotMatch(text, /##\[/);
  });
});

describe('GitHub workflow commands', () => {
  it("escape data and properties as GitHub's toolkit does", () => {
    assert.equal(escapeData('100% done\r\nnext'), '100%25 done%0D%0Anext');
    assert.equal(escapeProperty('a:b,c%d\ne'), 'a%3Ab%2Cc%25d%0Ae');
  });

  it('hostile strings cannot end the command, add a property or another command', () => {
    const hostile = 'x,title=owned::pwn\n::warning file=evil::injected\r%0A\u202e';
    const outcome: Outcome = {
      label: `/work/${hostile}.json`,
      report: {
        ...report(''),
        findings: [
          { code: 'agentxchain.field_invalid', path: `$.${hostile}`, message: hostile, severity: 'error' },
          { code: 'agentxchain.extra_field', path: '$', message: 'a warning', severity: 'warning' },
        ],
      } as unknown as Report,
    };
    const out = githubAnnotations(outcome, '/work');
    const lines = out.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, 'one command for the one error finding');
    const match = /^::error file=([^:,]*),title=([^:,]*)::(.*)$/.exec(lines[0]!);
    assert.ok(match, lines[0]);
    assert.equal(match[1], 'x%2Ctitle=owned%3A%3Apwn%0A%3A%3Awarning file=evil%3A%3Ainjected%0D%250A\\u202e.json');
    assert.equal(match[2], 'agentxchain.field_invalid');
    assert.ok(!match[3]!.includes('\n') && !match[3]!.includes('\r') && !match[3]!.includes('\u202e'));
    assert.match(match[3]!, /%250A/);
  });

  it('an input that cannot be read is one annotation', () => {
    const out = githubAnnotations({ label: '/elsewhere/a.json', unreadable: 'ENOENT: no such file' }, '/work');
    assert.equal(
      out,
      '::error file=/elsewhere/a.json,title=input.unreadable::cannot read /elsewhere/a.json: ENOENT: no such file\n',
    );
  });
});

describe('JUnit XML', () => {
  it('escapes markup and the characters XML 1.0 forbids', () => {
    assert.equal(xmlText('<a & b>'), '&lt;a &amp; b&gt;');
    assert.equal(xmlText('\u0000\u0008\u000b\u001f\ufffe\uffff'), '\\u0000\\u0008\\u000b\\u001f\\ufffe\\uffff');
    assert.equal(xmlText('a\ud800b\udc00c\ud83d\ude00'), 'a\\ud800b\\udc00c\ud83d\ude00');
    assert.equal(xmlText('tab\tnl\ncr\r'), 'tab\tnl\ncr\r');
    assert.equal(xmlAttribute(`"'\t\n\r<`), '&quot;&apos;&#9;&#10;&#13;&lt;');
  });

  it('hostile artifact strings stay text', () => {
    const hostile = '"/><failure message="x"/>]]><!--\u0001\ud800&amp;';
    const outcomes: Outcome[] = [
      {
        label: `/a/${hostile}.json`,
        report: {
          ...report(''),
          findings: [{ code: 'agentxchain.field_invalid', path: `$.${hostile}`, message: hostile, severity: 'error' }],
        } as unknown as Report,
      },
      { label: `/b/${hostile}.json`, unreadable: hostile },
      { label: '/c/ok.json', report: report('', 'pass') },
    ];
    const xml = renderJunit(outcomes, 1500);
    // Nothing XML 1.0 forbids, and no markup but ours: every '<' opens one of the elements we write.
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/);
    const tags = [...xml.matchAll(/<([!?/]?[a-z]*)/g)].map((m) => m[1]);
    assert.deepEqual(
      [...new Set(tags)].sort(),
      [
        '/error',
        '/failure',
        '/testcase',
        '/testsuite',
        '/testsuites',
        '?xml',
        'error',
        'failure',
        'testcase',
        'testsuite',
        'testsuites',
      ].sort(),
    );
    assert.match(xml, /<testsuites name="verify-export" tests="3" failures="1" errors="1" time="1.500">/);
    assert.equal((xml.match(/<testcase /g) ?? []).length, 3);
    assert.ok(xml.includes('&amp;amp;'));
  });
});
