/**
 * The demo page: sample buttons, a pinned-key field and a format choice wired to one
 * `<verify-export>`, plus a plain-words summary of what the last report did and did not check.
 * Builds DOM with textContent only (artifact names are data, not markup).
 * @module
 */
import '../components/verify-export.ts';
import { SAMPLES, SAMPLE_ED25519_KEY } from './samples.ts';
import type { Report } from '../src/report.ts';

const verifier = document.querySelector('verify-export')!;
const pin = document.querySelector<HTMLInputElement>('#pin')!;
const kind = document.querySelector<HTMLSelectElement>('#kind')!;
const summary = document.querySelector<HTMLParagraphElement>('#summary')!;
const list = document.querySelector<HTMLUListElement>('#samples')!;

for (const sample of SAMPLES) {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'sample';
  const format = document.createElement('span');
  format.className = 'format';
  format.textContent = sample.format;
  const what = document.createElement('span');
  what.className = 'what';
  what.textContent = sample.what;
  const expected = document.createElement('span');
  expected.className = `expected ${sample.expected}`;
  expected.textContent = `expected: ${sample.expected}`;
  button.append(format, what, expected);
  button.title = sample.name;
  button.addEventListener('click', () => void loadSample(sample.url, sample.name, button));
  item.append(button);
  list.append(item);
}

/** Samples are fetched here and handed over as a File, so the report names the sample, not its hashed URL. */
async function loadSample(url: string, name: string, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    verifier.file = new File([await response.blob()], name);
  } catch (error) {
    summary.hidden = false;
    summary.textContent = `Could not load the sample ${name}: ${String(error)}`;
  } finally {
    button.disabled = false;
  }
}

pin.addEventListener('change', () => {
  verifier.expectPublicKey = pin.value.trim() === '' ? null : pin.value.trim();
});
document.querySelector('#pin-sample')!.addEventListener('click', () => {
  pin.value = SAMPLE_ED25519_KEY;
  verifier.expectPublicKey = SAMPLE_ED25519_KEY;
});
document.querySelector('#pin-clear')!.addEventListener('click', () => {
  pin.value = '';
  verifier.expectPublicKey = null;
});
kind.addEventListener('change', () => {
  verifier.kind = kind.value as typeof verifier.kind;
});

verifier.addEventListener('verify-export:result', (event) => {
  const report = (event as CustomEvent<Report>).detail;
  summary.hidden = false;
  summary.textContent = explain(report);
});
verifier.addEventListener('verify-export:error', () => {
  summary.hidden = true;
});

/** One paragraph on what this particular report covered. */
function explain(report: Report): string {
  const { structure, integrity, authenticity, trust } = report.verdicts;
  const parts = [`Structure ${words(structure)}, integrity ${words(integrity)}.`];
  if (authenticity === 'not-checked') {
    parts.push(
      report.format === 'zaxy'
        ? 'No signature was checked.'
        : 'This format has no signature, so who made it is not checked.',
    );
  } else {
    parts.push(`Signature ${words(authenticity)}.`);
  }
  parts.push(
    trust === 'not-checked'
      ? 'No key was pinned, so the signer is not compared with anyone you trust.'
      : `Pinned key ${trust === 'pass' ? 'matched' : 'did not match'}.`,
  );
  return parts.join(' ');
}

function words(verdict: string): string {
  return verdict === 'pass' ? 'passed' : verdict === 'fail' ? 'failed' : 'was not checked';
}
