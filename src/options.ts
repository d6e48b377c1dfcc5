/**
 * Options every entry point takes (docs/architecture.md, 'Options').
 * @module
 */
import type { Sha256 } from './crypto/sha256.ts';
import type { Base64Decoder } from './encoding/base64.ts';
import type { StringSkipper } from './json/_grammar.ts';
import type { Limits } from './limits.ts';
import type { GunzipFactory } from './stream/gunzip/index.ts';

export interface VerifyOptions {
  /** Overrides of `DEFAULT_LIMITS`. */
  readonly limits?: Partial<Limits>;
  /** Cancels verification; the report then carries an `input.aborted` finding. */
  readonly signal?: AbortSignal;
  /** Called as source bytes are read (`totalBytes` when the size is known up front). */
  readonly onProgress?: (bytesRead: number, totalBytes?: number) => void;
  /** File name, URL or label shown as `report.input` (default `bytes`); `.gz` names must be gzip. */
  readonly name?: string;
  /** SHA-256 implementation; defaults to hash-wasm loaded through `wasm/`. */
  readonly sha256?: Sha256;
  /** Report the kit's own extra checks (warnings) as errors. Never changes compat output. */
  readonly strict?: boolean;
  /**
   * Decompressor for gzip input (default: `DecompressionStream` where it behaves as the kit
   * needs, as in browsers, else the kit's fflate-based `gunzipStream`). A replacement
   * must keep its error contract: multi-member, CRC/ISIZE, truncation, trailing garbage and the
   * size/ratio limits, as `StreamProblem`s after the data before them (docs/architecture.md,
   * 'Streams and gzip').
   * The CLI passes one built on `node:zlib`.
   */
  readonly gunzip?: GunzipFactory;
  /**
   * A faster decoder of canonical base64 (AgentXchain's `content_base64`), where the host has one;
   * anything it leaves (`undefined`) the kit decodes itself (`Base64Decoder`). The CLI passes
   * Node's.
   */
  readonly decodeBase64?: Base64Decoder;
  /**
   * A faster skip over the plain bytes of long strings (an AgentXchain export's file contents, the
   * strings agent-history lines drop unread).
   * The CLI passes the kit's WebAssembly SIMD skip (wasm/string-skip.ts); without one the kit skips
   * in JavaScript, with the same results. The element leaves it out, which keeps its AgentXchain
   * path within its byte budget.
   */
  readonly stringSkipper?: StringSkipper;
  /**
   * Reads the input's bytes [start, end) again, synchronously, exactly as they were first read
   * (where they cannot be, it must throw); what it returns may be overwritten by its next call.
   * Given it, an uncompressed AgentXchain export is not kept in memory while it is verified: the
   * strings of its file entries are read again from the input when a check asks for them; and a
   * Zaxy document, plain or .gz, keeps at most 1 MiB for a second reading, which reads the whole
   * input again instead. The CLI passes positional reads of the file it verifies.
   */
  readonly readInputAgain?: (start: number, end: number) => Uint8Array;
}
