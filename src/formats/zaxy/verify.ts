/**
 * The `zaxy` format: Zaxy memory exports (docs/zaxy.md). One entry point, `verifyZaxy`, for the
 * three shapes, told apart as docs/zaxy.md, 'Telling the shapes apart' says: a disclosed subset
 * (`disclosed`, or no `entries` and no `anchor`), a signed bundle (`zaxy.portable.v1`), or an
 * unsigned envelope (`zaxy.export.unsigned.v1`). Verdicts and reasons equal Zaxy's `verify_export`
 * / `verify_subset` (see `toZaxyJson`); the report adds every other problem found, separated into
 * structure, integrity (ids, root, proofs), authenticity (signature) and trust (pinned key).
 *
 * The document is attacker-controlled and read once, as Python's `json.loads` would read it
 * (`src/json/`); what Python could not read (invalid UTF-8, BOM, syntax, integers over 4300
 * digits, nesting past ~990) is reported as unreadable, with Python's message.
 * @module
 */
import { verifySignature } from '../../crypto/signature.ts';
import type { Sha256 } from '../../crypto/sha256.ts';
import { defaultSha256Many } from '../../crypto/sha256-many.ts';
import { advancePosition, formatPosition, TEXT_START, type JsonReadError } from '../../json/errors.ts';
import { createDocumentReader } from '../../json/reader.ts';
import { pythonTypeName, type JsonValue } from '../../json/value.ts';
import type { CheckedDimensions } from '../../report/collector.ts';
import type { FindingCode } from '../../codes.ts';
import { readAll, type VerifyInput } from '../../stream/input.ts';
import { StreamProblem } from '../../stream/problem.ts';
import { nextTurn, now } from '../../stream/turn.ts';
import { openInput, type OpenedInput } from '../../stream/open.ts';
import {
  beginVerification,
  finishVerification,
  recordThrown,
  resolveSha256,
  type VerificationContext,
} from '../../verifier-lifecycle.ts';
import { checkBundle, type CheckOutcome } from './bundle.ts';
import type { ZaxyResult, ZaxyUnreadDetails } from './details.ts';
import { PYTHON_NESTING_LIMIT, type ZaxyOptions } from './options.ts';
import { createSignedScanner, type DisclosedScan, type Scanner, scanSignedDocument } from './scan.ts';
import { UNSIGNED_VERSION } from './schema.ts';
import { checkSubset } from './subset.ts';
import { checkUnsigned, createUnsignedScanner, scanUnsignedDocument } from './unsigned.ts';
import type { ReportOf } from '../../report.ts';
import { ZAXY_CODES } from './codes.ts';

/** Report kinds of the three shapes. */
export type ZaxyKind = 'zaxy.portable.v1' | 'zaxy.subset' | 'zaxy.export.unsigned.v1';

/** Entries (and disclosed elements) described one by one in `details`, at most. */
const MAX_DETAIL_ENTRIES = 10_000;

/**
 * Verifies a Zaxy signed bundle, disclosed subset or unsigned envelope.
 * @throws TypeError on API misuse (bad limits, unsupported input type, a non-string pin).
 * @example
 * const report = await verifyZaxy(await (await fetch('bundle.json')).arrayBuffer(), { expectPublicKey: 'ab12…' });
 * report.verdicts; // { structure, integrity, authenticity, trust }
 * toZaxyJson(report); // { ok: true, reason: null }, exactly as Zaxy's verify_export answers
 */
export async function verifyZaxy(
  input: VerifyInput | OpenedInput,
  options: ZaxyOptions = {},
): Promise<ReportOf<'zaxy'>> {
  if (options.expectPublicKey !== undefined && typeof options.expectPublicKey !== 'string') {
    throw new TypeError('options.expectPublicKey must be a hex string');
  }
  if (options.signatureVerifier !== undefined && typeof options.signatureVerifier !== 'function') {
    throw new TypeError('options.signatureVerifier must be a function');
  }
  const context = await beginVerification(input, options, ZAXY_CODES);
  const { collector, opened } = context;
  if (opened.gzNameWithoutMagic)
    collector.add('gzip.not_gzip', '$', 'gzip: bad magic bytes (the name ends in .gz but the file is not gzip)');
  let outcome: ZaxyOutcome;
  try {
    const sha256: Sha256 = await resolveSha256(options);
    outcome = await verifyDocument(context, sha256, options);
  } catch (error) {
    recordThrown(collector, error);
    const reason = collector.findings[collector.findings.length - 1]?.message ?? String(error);
    outcome = notVerified({ ok: false, reason }, {});
  }
  return finishVerification<ReportOf<'zaxy'>>(context, {
    format: 'zaxy',
    kind: outcome.kind,
    checked: outcome.checked,
    // Every shape's details end with `zaxy`, Zaxy's own answer (see details.ts).
    details: outcome.details,
  });
}

/** What one reading decided: the shape checked (`kind`, with its details) or none (`kind: null`). */
type ZaxyOutcome =
  ({ readonly kind: ZaxyKind } & CheckOutcome) | ({ readonly kind: null } & CheckOutcome<ZaxyUnreadDetails>);

/** An outcome where no shape was checked: Zaxy's answer, and no facts beyond it. */
function notVerified(zaxy: ZaxyResult, checked: CheckedDimensions): ZaxyOutcome {
  return { kind: null, zaxy, checked, details: { zaxy } };
}

async function verifyDocument(
  context: VerificationContext,
  sha256: Sha256,
  options: ZaxyOptions,
): Promise<ZaxyOutcome> {
  const { collector, limits } = context;
  const maxDepth = Math.min(limits.maxJsonDepth, PYTHON_NESTING_LIMIT);
  const maxProblems = limits.maxFindings + 1;
  const verifier = options.signatureVerifier ?? verifySignature;
  const pin = options.expectPublicKey;
  const scanOptions = {
    sha256,
    maxDepth,
    maxProblems,
    maxFacts: MAX_DETAIL_ENTRIES,
    maxDisclosedDetails: MAX_DETAIL_ENTRIES,
    entryHasher: options.entryHasher,
    // The default only: an injected options.sha256 is how the caller chose to hash.
    sha256Many: options.sha256 === undefined ? defaultSha256Many : undefined,
  };

  // A cheap guess from the head picks the scanner; a wrong guess costs a second pass, not a wrong answer.
  const guessUnsigned = /"version"\s*:\s*"zaxy\.export\.unsigned\.v1"/.test(
    new TextDecoder().decode(context.opened.head.subarray(0, 4096)),
  );
  // Where the input can be read again, the document is not kept for a second reading (bundles,
  // the common case, never need one): that reading reads it again from the input instead.
  const maxRetainedBytes = options.readInputAgain
    ? Math.min(limits.maxRetainedBytes, RETAINED_WHEN_READ_AGAIN_BYTES)
    : limits.maxRetainedBytes;
  // Where the input can be read again, the position of an error past the bytes dropped is found
  // by reading it again (`placeError`), not counted over every byte the first reading drops.
  const reading = { maxDepth, maxRetainedBytes, countDroppedPositions: !options.readInputAgain };
  const read = guessUnsigned
    ? await readScanned(context, createUnsignedScanner(scanOptions), reading, options.signal)
    : await readScanned(context, createSignedScanner(scanOptions), reading, options.signal);
  let unsigned = guessUnsigned ? (read.result as Awaited<ReturnType<typeof scanUnsignedDocument>>) : undefined;
  let signed = guessUnsigned ? undefined : (read.result as Awaited<ReturnType<typeof scanSignedDocument>>);
  /** The document read again from the input, when it was not kept (see `readDocumentAgain`). */
  let readAgain: Uint8Array | undefined;
  /** The whole document, for a second reading: kept while `maxRetainedBytes` allowed it, or read again. */
  const document = (): Uint8Array => {
    if (read.bytes !== undefined) return read.bytes();
    if (readAgain !== undefined) return readAgain;
    throw new StreamProblem(
      'limit.retained_bytes',
      `the document must be read a second time (it is a subset, or keys after its entries change its shape), but it is larger than limits.maxRetainedBytes (${context.limits.maxRetainedBytes} bytes), so its start was not kept`,
    );
  };
  /**
   * Makes `document()` answer: reads the document again where it was not kept and can be, else
   * throws its limit. A kept document is not made one buffer here (only if it is read again).
   */
  const needDocument = async (): Promise<void> => {
    if (read.bytes !== undefined || readAgain !== undefined) return;
    if (!options.readInputAgain) document(); // throws limit.retained_bytes
    readAgain = await readDocumentAgain(context, options, read.length);
  };
  const scanUnsigned = () => scanUnsignedDocument(document(), scanOptions);
  const scanSigned = () => scanSignedDocument(document(), scanOptions);
  const first = (unsigned ?? signed)!;
  if (!first.ok) return unreadable(context, await placeError(context, options, first.error), read.length);
  const root = first.scan.root;
  if (!(root instanceof Map)) {
    const type = pythonTypeName(root as JsonValue);
    const reason = `not a Zaxy bundle: the top level is a JSON ${type === 'list' ? 'array' : 'value'} (${type}), not an object; Zaxy's verifier would crash with AttributeError: '${type}' object has no attribute 'get'`;
    collector.add('zaxy.not_object', '$', reason, { compat: reason });
    return notVerified({ ok: false, reason }, { structure: true });
  }

  const shape = shapeOf(root);
  if (shape === 'zaxy.export.unsigned.v1') {
    if (unsigned === undefined) await needDocument();
    unsigned ??= await scanUnsigned();
    if (!unsigned.ok) return unreadable(context, unsigned.error, read.length);
    return { kind: shape, ...checkUnsigned({ scan: unsigned.scan, pin, collector }) };
  }
  if (signed === undefined) await needDocument();
  signed ??= await scanSigned();
  if (!signed.ok) return unreadable(context, signed.error, read.length);
  const scanned = signed.scan;
  const signedRoot = scanned.root as Map<string, never>;
  if (shape === 'zaxy.subset') {
    // A subset may be read a second time: the document must be there (kept, or read again from
    // the input; else this throws the limit), but a kept one is made one buffer only if it is.
    await needDocument();
    const rescan = async (merkleRoot: JsonValue): Promise<DisclosedScan> => {
      const again = await scanSignedDocument(document(), { ...scanOptions, disclosedRoot: merkleRoot });
      if (!again.ok) throw new Error('internal: a document read once could not be read again');
      return again.scan.disclosed;
    };
    return {
      kind: shape,
      ...(await checkSubset({
        document,
        root: signedRoot,
        disclosed: scanned.disclosed,
        pin,
        verifier,
        sha256,
        collector,
        maxDepth,
        maxProblems,
        rescan,
      })),
    };
  }
  return {
    kind: shape,
    ...(await checkBundle({
      root: signedRoot,
      entries: scanned.entries,
      pin,
      verifier,
      sha256,
      collector,
      maxFacts: MAX_DETAIL_ENTRIES,
    })),
  };
}

/**
 * What is kept of a document for a second reading when the input can be read again instead
 * (`options.readInputAgain`, as the CLI gives for a large file): the 100k-entry bundle .gz then
 * verifies in ~110 MiB instead of ~155 (bench/zaxy.bench.ts), at the same speed. It is at least 16
 * times the scanner's read-ahead (`createDocumentReader`), so the scan goes as when all is kept.
 */
const RETAINED_WHEN_READ_AGAIN_BYTES = 1 << 20;

/**
 * The document again, from the input's bytes read again (`options.readInputAgain`), decompressed
 * again if it is a .gz, under the same limits. It is read once, here, and no other call can
 * overwrite it meanwhile. It is then held whole, and so are a .gz's compressed bytes: either
 * larger than `limits.maxBufferedBytes` gets that limit before anything is read (the first reading
 * held little of a document it did not keep). A document of another length than the first
 * reading's is refused.
 */
async function readDocumentAgain(
  context: VerificationContext,
  options: ZaxyOptions,
  length: number,
): Promise<Uint8Array> {
  const { opened, limits } = context;
  if (Math.max(length, opened.counters.bytesIn) > limits.maxBufferedBytes)
    throw new StreamProblem(
      'limit.buffered_bytes',
      `document is larger than limits.maxBufferedBytes (${limits.maxBufferedBytes} bytes)`,
    );
  const input = options.readInputAgain!(0, opened.counters.bytesIn);
  const bytes = opened.gzip
    ? await readAll(
        (await openInput(input, { limits, ...(options.gunzip ? { gunzip: options.gunzip } : {}) })).stream,
        { maxBytes: limits.maxBufferedBytes, ...(options.signal ? { signal: options.signal } : {}) },
      )
    : input;
  if (bytes.byteLength !== length)
    throw new Error(`the input read again is not the one verified: ${bytes.byteLength} bytes, not ${length}`);
  return bytes;
}

/** Bytes of the input asked for at a time when it is read again to place an error. */
const PLACE_PIECE_BYTES = 1 << 20;

/**
 * `error` with Python's position added to its message when the first reading left that to the
 * caller (`positionPending`: it dropped the bytes before the error without counting them). The
 * position is counted over the document read again (`options.readInputAgain`, decompressed again
 * if it is a .gz), a piece at a time up to the error, so no more is held than in the first reading.
 * A document that ends before the error is refused.
 */
async function placeError(
  context: VerificationContext,
  options: ZaxyOptions,
  error: JsonReadError,
): Promise<JsonReadError> {
  if (!error.positionPending) return error;
  const { opened, limits } = context;
  const readAgain = options.readInputAgain!;
  const size = opened.counters.bytesIn;
  let at = 0;
  const input = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= size) return controller.close();
      const end = Math.min(size, at + PLACE_PIECE_BYTES);
      controller.enqueue(readAgain(at, end).slice()); // the next answer may overwrite this one
      at = end;
    },
  });
  const document = (await openInput(input, { limits, ...(options.gunzip ? { gunzip: options.gunzip } : {}) })).stream;
  const reader = document.getReader();
  let position = TEXT_START;
  let counted = 0;
  try {
    while (counted < error.offset) {
      if (options.signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
      const { done, value } = await reader.read();
      if (done) throw new Error(`the input read again is not the one verified: it ends before byte ${error.offset}`);
      position = advancePosition(position, value, 0, Math.min(value.length, error.offset - counted));
      counted += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { kind: error.kind, message: `${error.message}: ${formatPosition(position)}`, offset: error.offset };
}

/** Parsing time after which the event loop is let turn (a turn costs some tens of microseconds). */
const TURN_EVERY_MS = 2;

/**
 * Reads the input through `scanner` while it arrives (the scan overlaps decompression), holding at
 * most `limits.maxBufferedBytes` and keeping the document for a second reading only up to
 * `maxRetainedBytes`, checking the AbortSignal between chunks. Rejects with a
 * StreamProblem (limit, abort, gzip damage) like `readAll`.
 */
async function readScanned<T>(
  context: VerificationContext,
  scanner: Scanner<T>,
  reading: { maxDepth: number; maxRetainedBytes: number; countDroppedPositions: boolean },
  signal: AbortSignal | undefined,
): Promise<{
  /** The whole document, made one buffer on call; undefined when it was not kept (`maxRetainedBytes`). */
  bytes: (() => Uint8Array) | undefined;
  length: number;
  result: { ok: true; scan: T } | { ok: false; error: JsonReadError };
}> {
  const { opened, limits } = context;
  const document = createDocumentReader(scanner.visitor, reading);
  const reader = opened.stream.getReader();
  let lastTurn = now();
  try {
    for (;;) {
      if (signal?.aborted) throw new StreamProblem('input.aborted', 'verification was aborted');
      const { done, value } = await reader.read();
      if (done) break;
      document.push(value);
      if (document.heldBytes() > limits.maxBufferedBytes) {
        throw new StreamProblem(
          'limit.buffered_bytes',
          `document is larger than limits.maxBufferedBytes (${limits.maxBufferedBytes} bytes)`,
        );
      }
      // Let the event loop turn between chunks that took a while (see stream/turn.ts).
      if (now() - lastTurn >= TURN_EVERY_MS) {
        await nextTurn();
        lastTurn = now();
      }
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  const result = document.finish();
  return {
    bytes: document.keptAll() ? () => document.bytes()! : undefined,
    length: document.pushedBytes(),
    result: result.ok ? { ok: true, scan: await scanner.result(result.root) } : result,
  };
}

/**
 * docs/zaxy.md, 'Telling the shapes apart': `disclosed` → subset; else `entries` → signed bundle
 * (unsigned envelope when the version says so); else no `anchor` (bundles always have one) →
 * subset; else signed bundle.
 */
function shapeOf(root: Map<string, unknown>): ZaxyKind {
  if (root.has('disclosed')) return 'zaxy.subset';
  if (root.has('entries'))
    return root.get('version') === UNSIGNED_VERSION ? 'zaxy.export.unsigned.v1' : 'zaxy.portable.v1';
  return root.has('anchor') ? 'zaxy.portable.v1' : 'zaxy.subset';
}

/** A document Zaxy's Python could not read: no verdict from Zaxy, a clear failure from the kit. */
function unreadable(context: VerificationContext, error: JsonReadError, length: number): ZaxyOutcome {
  const { collector, limits } = context;
  let code: FindingCode;
  let message: string;
  switch (error.kind) {
    case 'utf8':
      code = 'input.unreadable';
      message = `not UTF-8 text (Python: UnicodeDecodeError: ${error.message})`;
      break;
    case 'depth':
      code = limits.maxJsonDepth <= PYTHON_NESTING_LIMIT ? 'limit.json_depth' : 'zaxy.nesting_too_deep';
      message =
        code === 'limit.json_depth'
          ? `JSON nesting is deeper than limits.maxJsonDepth (${limits.maxJsonDepth}) at byte ${error.offset}`
          : `JSON nesting is deeper than Python's json reader allows (about ${PYTHON_NESTING_LIMIT} levels) at byte ${error.offset} (Python: RecursionError: ${error.message})`;
      break;
    case 'integer_digits':
      code = 'input.not_json';
      message = `an integer literal at byte ${error.offset} is too long for Python (ValueError: ${error.message})`;
      break;
    default:
      code = length === 0 ? 'input.empty' : 'input.not_json';
      message = `not a JSON document Python can read (json.JSONDecodeError: ${error.message})`;
  }
  const reason = `cannot read the bundle: ${message}`;
  collector.add(code, '$', message, { compat: reason });
  return notVerified({ ok: false, reason }, {});
}
