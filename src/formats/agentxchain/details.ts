/**
 * What `verifyAgentxchain` puts in `report.details` (README, 'The report'). Which keys are there
 * depends on how far verification got: none when the document could not be read as JSON, the
 * header alone when verification was interrupted (aborted, or a kit error), everything once the
 * export was verified.
 * @module
 */
import type { RepoRow } from './coordinator-export.ts';
import type { FileRow } from './files.ts';
import type { RunnerSection } from './runner/verify-runner.ts';

export type { RepoRow } from './coordinator-export.ts';
export type { FileRow, FileStatus } from './files.ts';
export type { RunnerSection } from './runner/verify-runner.ts';

/**
 * A header value echoed as the reference echoes it: the artifact's value as `JSON.stringify`
 * would print it, `null` when it is falsy, or a note in its place when it is nested deeper than
 * `limits.maxJsonDepth`.
 */
export type EchoedValue =
  string | number | boolean | null | readonly EchoedValue[] | { readonly [key: string]: EchoedValue };

export interface AgentxchainDetails {
  /** The artifact's `schema_version`, echoed (`"0.3"`); `null` when it is not an object. */
  readonly schema_version?: EchoedValue;
  /** The artifact's `export_kind`, echoed; `null` when it is not an object. */
  readonly export_kind?: EchoedValue;
  /** Own keys of `files` (0 when it is not an object). */
  readonly file_count?: number;
  /** Own keys of `repos` (0 when it is not an object); absent when the top level is not an object. */
  readonly repo_count?: number;
  /** One row per entry of `files`, in the artifact's key order. */
  readonly files?: readonly FileRow[];
  /** One row per repo of a coordinator export (present when it has any). */
  readonly repos?: readonly RepoRow[];
  /** What a run export says is in flight (present when anything is; docs/agentxchain.md §12). */
  readonly runner?: RunnerSection;
  /** What `agentxchain verify export` concludes; present once the document was read and verified. */
  readonly agentxchain?: AgentxchainVerdict;
}

/** The reference's verdict beyond its error strings (which are the findings' `compat` texts). */
export interface AgentxchainVerdict {
  /**
   * How many errors the reference reports, nested exports included, counted even past
   * `limits.maxFindings`: `toAgentxchainJson` passes the artifact only when it is 0.
   */
  readonly error_count: number;
}
