/**
 * Styles of the Run and Compare views, adopted by the element next to its own when this module
 * loads (so they cost the element shell nothing). They reuse the element's `--_*` colours, so
 * themes and dark mode apply unchanged.
 * @module
 */
import { css } from 'lit';

export const runViewStyles = css`
  .tabs {
    display: flex;
    gap: 0.25em;
    border-bottom: 1px solid var(--_border);
    margin: 1em 0 0.5em;
  }
  [role='tab'] {
    border: 1px solid transparent;
    border-bottom: none;
    border-radius: 6px 6px 0 0;
    background: none;
    margin-bottom: -1px;
    color: var(--_muted);
  }
  [role='tab'][aria-selected='true'] {
    border-color: var(--_border);
    background: var(--_bg);
    color: var(--_fg);
    font-weight: 600;
  }
  [role='tab']:focus-visible,
  [role='tabpanel']:focus-visible,
  .button:focus-within {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .run-view .facts {
    grid-template-columns: repeat(auto-fill, minmax(14em, 1fr));
  }
  .run-section {
    content-visibility: auto;
    contain-intrinsic-size: auto 20em;
    margin: 1.25em 0;
  }
  .run-section h3 {
    font-size: 1.05em;
    margin: 0 0 0.4em;
  }
  .run-section h4 {
    font-size: 0.95em;
    margin: 0.8em 0 0.3em;
  }
  .run-view tbody tr {
    content-visibility: auto;
    contain-intrinsic-size: auto 2.5em;
  }
  .toolbar,
  .compare-pick {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5em;
    align-items: center;
    margin: 0.75em 0;
  }
  .button {
    display: inline-block;
    border: 1px solid var(--_border);
    background: var(--_surface);
    border-radius: 6px;
    padding: 0.3em 0.9em;
    color: var(--_fg);
    text-decoration: none;
    cursor: pointer;
  }
  .hint,
  .sub,
  .busy {
    color: var(--_muted);
  }
  .sub {
    font-size: 0.85em;
  }
  .status {
    font-weight: 600;
  }
  .status[data-tone='good'] {
    color: var(--_pass);
  }
  .status[data-tone='bad'] {
    color: var(--_fail);
  }
  .status[data-tone='warn'] {
    color: var(--_error);
  }
  .refusal {
    color: var(--_fail);
  }
  .note {
    border-left: 3px solid var(--_error);
    padding-left: 0.6em;
  }
  .actions code.command {
    background: var(--_surface);
    padding: 0 0.3em;
    border-radius: 4px;
  }
  .regressions {
    list-style: none;
    padding: 0;
  }
  .regression {
    border-left: 3px solid var(--_muted);
    padding: 0.3em 0.6em;
    margin: 0.4em 0;
  }
  .regression[data-severity='error'] {
    border-color: var(--_fail);
  }
  .regression[data-severity='warning'] {
    border-color: var(--_error);
  }
  .regression .severity {
    font-weight: 600;
    text-transform: uppercase;
    font-size: 0.8em;
  }
  pre.tail {
    white-space: pre-wrap;
    font: 0.85em var(--_mono);
    max-height: 12em;
    overflow: auto;
    background: var(--_surface);
    padding: 0.4em;
    border-radius: 4px;
  }
  bdi.missing {
    color: var(--_muted);
  }
`;
