/**
 * Styles shared by the content views (Entries, Files, Transcript, Replay; each a Lit element with
 * its own shadow root). Colours come from `<verify-export>`'s `--_*` properties when the view sits
 * inside it, else from the public `--verify-export-*` properties, else from light and dark
 * defaults (`prefers-color-scheme`). Cards use `content-visibility: auto`, so long lists cost
 * layout only for what is on screen.
 * @module
 */
import { css } from 'lit';

export const viewStyles = css`
  :host {
    --v-fg: var(--_fg, var(--verify-export-fg, #1f2328));
    --v-bg: var(--_bg, var(--verify-export-bg, #ffffff));
    --v-muted: var(--_muted, var(--verify-export-muted, #59636e));
    --v-border: var(--_border, var(--verify-export-border, #d1d9e0));
    --v-surface: var(--_surface, var(--verify-export-surface, #f6f8fa));
    --v-accent: var(--_accent, var(--verify-export-accent, #0969da));
    --v-pass: var(--_pass, var(--verify-export-pass, #1a7f37));
    --v-fail: var(--_fail, var(--verify-export-fail, #cf222e));
    --v-warn: var(--_error, var(--verify-export-error, #9a6700));
    --v-mark: #fff8c5;
    --v-mono: var(--_mono, var(--verify-export-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace));
    display: block;
    color: var(--v-fg);
    background: var(--v-bg);
    font: var(--verify-export-font, 15px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif);
    color-scheme: light dark;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --v-fg: var(--_fg, var(--verify-export-fg, #e6edf3));
      --v-bg: var(--_bg, var(--verify-export-bg, #0d1117));
      --v-muted: var(--_muted, var(--verify-export-muted, #9198a1));
      --v-border: var(--_border, var(--verify-export-border, #3d444d));
      --v-surface: var(--_surface, var(--verify-export-surface, #151b23));
      --v-accent: var(--_accent, var(--verify-export-accent, #4493f8));
      --v-pass: var(--_pass, var(--verify-export-pass, #3fb950));
      --v-fail: var(--_fail, var(--verify-export-fail, #f85149));
      --v-warn: var(--_error, var(--verify-export-error, #d29922));
      --v-mark: #4d3f00;
    }
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  button,
  input,
  select {
    font: inherit;
    color: inherit;
  }
  button {
    border: 1px solid var(--v-border);
    background: var(--v-surface);
    border-radius: 6px;
    padding: 0.2em 0.7em;
    cursor: pointer;
  }
  button.link {
    border: none;
    background: none;
    color: var(--v-accent);
    padding: 0;
    text-decoration: underline;
    text-align: start;
  }
  input,
  select {
    border: 1px solid var(--v-border);
    background: var(--v-bg);
    border-radius: 6px;
    padding: 0.15em 0.4em;
    max-width: 100%;
  }
  :focus-visible {
    outline: 2px solid var(--v-accent);
    outline-offset: 2px;
  }
  code,
  pre,
  .mono {
    font-family: var(--v-mono);
    font-size: 0.9em;
  }
  pre {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    margin: 0;
  }
  pre.prose {
    font: inherit;
  }
  /* A control character of the artifact, drawn as its name (components/visible-text.ts). */
  .control {
    border: 1px solid currentColor;
    border-radius: 3px;
    padding: 0 0.15em;
    font: 0.7em var(--v-mono);
    color: var(--v-warn);
  }
  .vt {
    overflow-wrap: anywhere;
  }
  .failed-bar {
    background: var(--v-fail);
    color: #fff;
    padding: 0.4em 0.8em;
    border-radius: 6px;
    font-weight: 600;
    margin-bottom: 0.5em;
  }
  .note {
    color: var(--v-muted);
    margin: 0 0 0.5em;
  }
  .note strong {
    color: var(--v-fg);
  }
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4em 0.8em;
    align-items: center;
    margin: 0.5em 0;
  }
  .toolbar label {
    display: inline-flex;
    gap: 0.3em;
    align-items: center;
  }
  .count {
    color: var(--v-muted);
    font-variant-numeric: tabular-nums;
  }
  .findings {
    margin: 0.5em 0;
    padding: 0 0 0 1.2em;
  }
  .findings li {
    margin: 0.15em 0;
  }
  .findings .error {
    color: var(--v-fail);
  }
  .scroller {
    max-height: var(--verify-export-view-height, 70vh);
    overflow: auto;
    border: 1px solid var(--v-border);
    border-radius: 8px;
    padding: 0.4em;
  }
  .card {
    content-visibility: auto;
    contain-intrinsic-size: auto 10em;
    border: 1px solid var(--v-border);
    border-radius: 8px;
    padding: 0.5em 0.7em;
    margin: 0.35em 0;
    background: var(--v-bg);
  }
  .card.hit {
    border-color: var(--v-accent);
    box-shadow: 0 0 0 1px var(--v-accent);
  }
  .card.bad {
    border-left: 4px solid var(--v-fail);
  }
  .card:focus {
    outline: 2px solid var(--v-accent);
  }
  .card header {
    display: flex;
    flex-wrap: wrap;
    gap: 0.2em 0.8em;
    color: var(--v-muted);
    font-size: 0.9em;
  }
  .card h4 {
    margin: 0.2em 0;
    font-size: 1em;
  }
  .badge {
    display: inline-block;
    border: 1px solid currentColor;
    border-radius: 999px;
    padding: 0 0.5em;
    font-size: 0.85em;
    white-space: nowrap;
  }
  .badge.match {
    color: var(--v-pass);
  }
  .badge.mismatch {
    color: var(--v-fail);
  }
  .badge.not-verified,
  .badge.no-content {
    color: var(--v-warn);
  }
  dl.fields {
    display: grid;
    grid-template-columns: minmax(6em, max-content) 1fr;
    gap: 0.15em 0.8em;
    margin: 0.3em 0 0;
  }
  dl.fields dt {
    color: var(--v-muted);
  }
  dl.fields dd {
    margin: 0;
    min-width: 0;
  }
  dl.fields ul {
    margin: 0;
    padding-left: 1.1em;
  }
  .group {
    margin: 0.8em 0 0.2em;
    font-size: 0.9em;
    color: var(--v-muted);
    border-bottom: 1px solid var(--v-border);
  }
  .sentence {
    margin: 0.2em 0;
  }
  .rel {
    color: var(--v-accent);
    font-weight: 600;
  }
  .spacer {
    content-visibility: hidden;
  }
  .more {
    margin: 0.5em 0;
  }
  .status {
    color: var(--v-muted);
  }
`;
