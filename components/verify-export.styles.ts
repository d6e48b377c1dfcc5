/**
 * Styles of `<verify-export>`: everything themable goes through `--verify-export-*` custom
 * properties (light and dark defaults from `prefers-color-scheme`) and `::part()`s. Adopted as a
 * constructed stylesheet, so a strict CSP without `'unsafe-inline'` styles is fine. The Zaxy and
 * stream details bring their own (`other-format-views.ts`), adopted with them. `.control` draws a
 * control character from the artifact as its name (`visible-text.ts`). Comments stay out of the
 * CSS itself: every page that shows the element would download them.
 * @module
 */
import { css } from 'lit';

export const styles = css`
  :host {
    --_fg: var(--verify-export-fg, #1f2328);
    --_bg: var(--verify-export-bg, #ffffff);
    --_muted: var(--verify-export-muted, #59636e);
    --_border: var(--verify-export-border, #d1d9e0);
    --_surface: var(--verify-export-surface, #f6f8fa);
    --_accent: var(--verify-export-accent, #0969da);
    --_pass: var(--verify-export-pass, #1a7f37);
    --_fail: var(--verify-export-fail, #cf222e);
    --_error: var(--verify-export-error, #9a6700);
    --_radius: var(--verify-export-radius, 8px);
    --_mono: var(--verify-export-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
    display: block;
    color: var(--_fg);
    background: var(--_bg);
    font: var(--verify-export-font, 15px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif);
    container-type: inline-size;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_fg: var(--verify-export-fg, #e6edf3);
      --_bg: var(--verify-export-bg, #0d1117);
      --_muted: var(--verify-export-muted, #9198a1);
      --_border: var(--verify-export-border, #3d444d);
      --_surface: var(--verify-export-surface, #151b23);
      --_accent: var(--verify-export-accent, #4493f8);
      --_pass: var(--verify-export-pass, #3fb950);
      --_fail: var(--verify-export-fail, #f85149);
      --_error: var(--verify-export-error, #d29922);
    }
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  code {
    font-family: var(--_mono);
    font-size: 0.9em;
    overflow-wrap: anywhere;
  }
  .control {
    border: 1px solid currentColor;
    border-radius: 3px;
    padding: 0 0.15em;
    font: 0.7em var(--_mono);
    color: var(--_error);
  }
  button,
  input,
  select {
    font: inherit;
    color: inherit;
  }
  button {
    border: 1px solid var(--_border);
    background: var(--_surface);
    border-radius: 6px;
    padding: 0.3em 0.9em;
    cursor: pointer;
  }
  .choose {
    display: inline-block;
    border-radius: 6px;
    padding: 0.3em 0.9em;
  }
  button.primary,
  .choose {
    background: var(--_accent);
    border-color: var(--_accent);
    color: #fff;
  }
  button.link {
    border: none;
    background: none;
    color: var(--_accent);
    padding: 0;
    text-decoration: underline;
  }
  button[aria-pressed='true'] {
    font-weight: 600;
  }
  button:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  .drop {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: center;
    gap: 0.4em 1em;
    padding: 1.4em 1em;
    border: 2px dashed var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    text-align: center;
    cursor: pointer;
    transition:
      border-color 120ms ease,
      background-color 120ms ease;
  }
  .drop.dragging {
    border-color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 10%, var(--_surface));
  }
  .drop .or {
    color: var(--_muted);
  }
  .drop.compact {
    padding: 0.6em 1em;
  }

  .verdict {
    margin: 0.9em 0 0.4em;
    font-size: 1.15em;
    font-weight: 600;
    min-height: 1.45em;
    overflow-wrap: anywhere;
  }
  .verdict[data-overall='pass'] {
    color: var(--_pass);
  }
  .verdict[data-overall='fail'] {
    color: var(--_fail);
  }
  .verdict[data-overall='error'],
  .verdict[data-overall='cancelled'] {
    color: var(--_error);
  }
  .verdict .badge {
    display: inline-block;
    min-width: 1.4em;
    margin-right: 0.3em;
    padding: 0 0.35em;
    border-radius: 4px;
    background: currentColor;
    text-align: center;
  }
  .verdict .badge span {
    color: var(--_bg);
  }
  .meta {
    color: var(--_muted);
    font-size: 0.9em;
    margin: 0 0 0.8em;
    overflow-wrap: anywhere;
  }

  .progress {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5em 1em;
    margin: 0.8em 0;
  }
  .progress progress {
    flex: 1 1 14em;
    height: 0.8em;
    accent-color: var(--_accent);
  }
  .progress .numbers {
    font-variant-numeric: tabular-nums;
    color: var(--_muted);
  }

  .dimensions {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(13em, 1fr));
    gap: 0.5em;
    margin: 0.6em 0 1em;
  }
  .dimension {
    border: 1px solid var(--_border);
    border-left: 4px solid var(--_muted);
    border-radius: 6px;
    padding: 0.4em 0.7em;
  }
  .dimension[data-verdict='pass'] {
    border-left-color: var(--_pass);
  }
  .dimension[data-verdict='fail'] {
    border-left-color: var(--_fail);
  }
  .dimension dt {
    text-transform: capitalize;
    font-size: 0.85em;
    color: var(--_muted);
  }
  .dimension dd {
    margin: 0;
  }
  .dimension[data-verdict='pass'] .mark {
    color: var(--_pass);
  }
  .dimension[data-verdict='fail'] .mark {
    color: var(--_fail);
  }
  .not-checked {
    color: var(--_muted);
    font-size: 0.9em;
    padding-left: 1.2em;
  }

  h3 {
    font-size: 1em;
    margin: 1.2em 0 0.4em;
  }
  .findings ul {
    list-style: none;
    padding: 0;
    margin: 0;
  }
  .findings .group {
    border-top: 1px solid var(--_border);
    padding: 0.45em 0;
  }
  .findings .group > ul {
    padding-left: 1em;
  }
  .findings .path {
    font-weight: 600;
  }
  .finding {
    margin: 0.15em 0;
    overflow-wrap: anywhere;
  }
  .finding .severity {
    display: inline-block;
    font-size: 0.78em;
    text-transform: uppercase;
    letter-spacing: 0.03em;
    border: 1px solid currentColor;
    border-radius: 4px;
    padding: 0 0.3em;
    margin-right: 0.3em;
  }
  .finding[data-severity='error'] .severity {
    color: var(--_fail);
  }
  .finding[data-severity='warning'] .severity {
    color: var(--_error);
  }
  .finding .code {
    color: var(--_muted);
    margin-right: 0.3em;
  }
  .evidence {
    font-size: 0.88em;
    color: var(--_muted);
    display: flex;
    flex-wrap: wrap;
    gap: 0 1em;
  }

  .facts {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(11em, 1fr));
    gap: 0.3em 1em;
    margin: 1em 0;
  }
  .facts dt {
    font-size: 0.85em;
    color: var(--_muted);
  }
  .facts dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .scroll {
    overflow-x: auto;
    max-height: var(--verify-export-table-height, 28em);
    overflow-y: auto;
    border: 1px solid var(--_border);
    border-radius: 6px;
    margin: 0.5em 0;
  }
  table {
    border-collapse: collapse;
    width: 100%;
    font-size: 0.9em;
  }
  caption {
    text-align: left;
    font-weight: 600;
    padding: 0.4em 0.6em;
    caption-side: top;
  }
  th,
  td {
    text-align: left;
    padding: 0.25em 0.6em;
    border-top: 1px solid var(--_border);
    vertical-align: top;
  }
  thead th {
    position: sticky;
    top: 0;
    background: var(--_surface);
    font-weight: 600;
  }
  code.hash {
    white-space: nowrap;
    overflow-wrap: normal;
  }
  .num {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
  tr[data-status='mismatch'] td:last-child,
  tr[data-status='invalid'] td:last-child {
    color: var(--_fail);
    font-weight: 600;
  }
  .more {
    color: var(--_muted);
    font-size: 0.9em;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.5em 0.8em;
  }
  .actions {
    margin-top: 0.7em;
    align-items: center;
  }
  .actions a {
    color: var(--_accent);
  }

  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      transition: none !important;
      animation: none !important;
    }
  }
`;
