/**
 * A small SVG drawing of one disclosed entry's Merkle inclusion proof: the leaf at the bottom,
 * one level per proof step with the sibling drawn on the side the step names, the root on top
 * (docs/zaxy.md, 'Merkle tree': `L` puts the sibling on the left, any other value on the right).
 * @module
 */
import { html, svg, type SVGTemplateResult, type TemplateResult } from 'lit';
import type { DisclosedStep } from '../src/formats/zaxy/details.ts';
import { text } from './details.ts';

/** Proofs are attacker-sized; a real one has ~log2(n) steps, so drawing more says nothing. */
const MAX_DRAWN_STEPS = 24;
const GAP = 46;
const PAD = 22;
const WIDTH = 380;
const CENTER = WIDTH / 2;

function short(hex: string | undefined, chars = 10): string {
  if (hex === undefined || hex === '') return '?';
  return hex.length > chars ? `${hex.slice(0, chars)}…` : hex;
}

/**
 * Draws the proof path of the entry at `index` up to `root`.
 * @example
 * html`${proofPath({ index: 2, proof: [{ side: 'L', sibling: 'ab…' }], root: '23…' })}`
 */
export function proofPath(input: {
  index: string | undefined;
  proof: readonly DisclosedStep[];
  root: string | undefined;
  included?: boolean | undefined;
}): TemplateResult {
  const drawn = input.proof.slice(0, MAX_DRAWN_STEPS);
  const hidden = input.proof.length - drawn.length;
  // A one-entry tree has an empty proof: the leaf is the root, drawn one level apart anyway.
  const levels = Math.max(1, drawn.length + (hidden > 0 ? 1 : 0));
  const height = PAD * 2 + levels * GAP;
  const yOf = (level: number): number => height - PAD - level * GAP;
  const outcome =
    input.included === undefined ? '' : input.included ? ', which it reaches' : ', which it does not reach';
  const label = `Inclusion proof of entry ${input.index ?? '?'}: ${input.proof.length} step${input.proof.length === 1 ? '' : 's'} up to the signed Merkle root${outcome}`;

  const steps: SVGTemplateResult[] = drawn.map((step, level) => {
    const y = yOf(level);
    const left = step.side === 'L';
    const x = left ? CENTER - 120 : CENTER + 120;
    return svg`
      <line class="edge" x1=${CENTER} y1=${y} x2=${CENTER} y2=${y - GAP}></line>
      <line class="edge sibling-edge" x1=${x} y1=${y} x2=${CENTER} y2=${y - GAP}></line>
      <rect class="sibling" x=${x - 52} y=${y - 11} width="104" height="22" rx="4"></rect>
      <text class="hash" x=${x} y=${y + 4} text-anchor="middle">${short(step.sibling)}</text>
      <text class="side" x=${left ? x - 60 : x + 60} y=${y + 4} text-anchor=${left ? 'end' : 'start'}>${left ? 'L' : step.side === 'R' ? 'R' : `R (${text(step.side, 16)})`}</text>
      ${level > 0 ? svg`<circle class="node" cx=${CENTER} cy=${y} r="6"></circle>` : ''}`;
  });
  const topY = yOf(levels);
  return html`<svg part="proof" class="proof" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label=${label}>
    <title>${label}</title>
    ${steps}
    ${drawn.length === 0 ? svg`<line class="edge" x1=${CENTER} y1=${yOf(0)} x2=${CENTER} y2=${topY}></line>` : ''}
    ${
      hidden > 0
        ? svg`<line class="edge" x1=${CENTER} y1=${yOf(drawn.length)} x2=${CENTER} y2=${topY}></line>
          <text class="note" x=${CENTER + 12} y=${yOf(drawn.length) + 4}>… ${hidden} more steps</text>`
        : ''
    }
    <rect class="leaf" x=${CENTER - 70} y=${yOf(0) - 12} width="140" height="24" rx="12"></rect>
    <text class="label" x=${CENTER} y=${yOf(0) + 4} text-anchor="middle">entry ${input.index ?? '?'} (leaf)</text>
    <rect
      class="root"
      data-included=${input.included === undefined ? '' : String(input.included)}
      x=${CENTER - 90}
      y=${topY - 13}
      width="180"
      height="26"
      rx="4"
    ></rect>
    <text class="label" x=${CENTER} y=${topY + 4} text-anchor="middle">
      ${input.included === false ? '✗ ' : ''}root ${short(input.root, 12)}
    </text>
  </svg>`;
}
