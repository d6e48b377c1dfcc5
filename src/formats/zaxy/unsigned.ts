/**
 * The unsigned envelope (`zaxy.export.unsigned.v1`, docs/zaxy.md, 'Unsigned envelope'). Zaxy has no
 * verifier for it: `verify_export` answers `unsupported bundle version 'zaxy.export.unsigned.v1'`,
 * which stays the compat reason. The kit checks what can be checked without integrity data: the
 * envelope's fields, each entry against `zaxy.export.v1` (valibot), the citation format and its
 * agreement with `seq`, the grain/kind/content pairing, and ascending `seq`. It also computes each
 * entry's id as a signed export would assign it (docs/zaxy.md, 'Unsigned envelope'), for comparing
 * with a later signed export. Nothing here authenticates anything: authenticity always fails
 * (`kit.unsigned_format`).
 * @module
 */
import * as v from 'valibot';
import type { Sha256 } from '../../crypto/sha256.ts';
import { toHex } from '../../encoding/hex.ts';
import { surrogateErrorMessage } from '../../json/canonical.ts';
import { createByteSink, createCanonicalScratch, writeCanonicalFromTape } from '../../json/canonical-tape.ts';
import type { JsonReadError } from '../../json/errors.ts';
import { pythonRepr } from '../../json/python.ts';
import { type DocumentRoot, materialize, readJsonDocument } from '../../json/reader.ts';
import type { JsonValue } from '../../json/value.ts';
import { jsonPath, type PathSegment } from '../../report/path.ts';
import type { CheckOutcome } from './bundle.ts';
import { type Candidate, clip, record } from './candidate-findings.ts';
import type { ZaxyUnsignedDetails } from './details.ts';
import { isStreamed, type Root } from './signed-document.ts';
import { CITATION, entrySchema, envelopeSchema, toPlain, UNSIGNED_VERSION } from './schema.ts';
import type { EntryFacts, Scanner } from './scan.ts';
import type { FindingCollector } from '../../report.ts';

export interface UnsignedScan {
  readonly root: DocumentRoot;
  count: number;
  /** Entry ids as a signed export would assign them (bounded); null where not encodable. */
  readonly ids: (string | null)[];
  readonly facts: EntryFacts[];
  /** Schema and order problems, in entry order (bounded). */
  readonly problems: Candidate[];
}

export interface UnsignedScanOptions {
  readonly sha256: Sha256;
  readonly maxDepth: number;
  readonly maxProblems: number;
  readonly maxFacts: number;
}

/**
 * Scans an unsigned envelope, checking each entry as it streams.
 * @example
 * const result = await scanUnsignedDocument(bytes, { sha256, maxDepth: 990, maxProblems: 1000, maxFacts: 10000 });
 */
export async function scanUnsignedDocument(
  bytes: Uint8Array,
  options: UnsignedScanOptions,
): Promise<{ ok: true; scan: UnsignedScan } | { ok: false; error: JsonReadError }> {
  const scanner = createUnsignedScanner(options);
  const result = readJsonDocument(bytes, scanner.visitor, { maxDepth: options.maxDepth });
  return result.ok ? { ok: true, scan: await scanner.result(result.root) } : result;
}

/**
 * The visitor behind `scanUnsignedDocument`, for readers that feed the document in chunks.
 * @example
 * const scanner = createUnsignedScanner(options);
 */
export function createUnsignedScanner(options: UnsignedScanOptions): Scanner<UnsignedScan> {
  const sink = createByteSink(1 << 14);
  const scratch = createCanonicalScratch();
  let state = fresh();
  let previousSeq: bigint | undefined;
  return {
    visitor: {
      streamKeys: ['entries'],
      startArray() {
        state = fresh();
        previousSeq = undefined;
      },
      element(_key, index, element) {
        state.count = index + 1;
        const value = materialize(element.bytes, element.tape, 0);
        sink.length = 0;
        const fault = writeCanonicalFromTape(element.bytes, element.tape, 0, sink, scratch);
        if (index < options.maxFacts) {
          state.ids.push(
            fault === undefined ? toHex(options.sha256.digest(sink.bytes.subarray(0, sink.length))) : null,
          );
          state.facts.push(factsOf(value));
        }
        const problems = entryProblems(value, index);
        if (fault !== undefined) {
          problems.push({
            code: 'zaxy.unencodable_string',
            path: jsonPath(['entries', index]),
            message: `entries[${index}] holds a lone surrogate: ${surrogateErrorMessage(fault)}`,
          });
        }
        const seq = value instanceof Map ? value.get('seq') : undefined;
        if (typeof seq === 'bigint') {
          if (previousSeq !== undefined && seq < previousSeq) {
            problems.push({
              code: 'zaxy.entry_schema',
              path: jsonPath(['entries', index, 'seq']),
              message: `seq ${seq} comes after seq ${previousSeq}: entries must be in ascending seq order`,
            });
          }
          previousSeq = seq;
        }
        for (const problem of problems) if (state.problems.length < options.maxProblems) state.problems.push(problem);
      },
    },
    result: async (root) => ({ ...state, root }),
  };
}

function fresh(): Omit<UnsignedScan, 'root'> & { count: number } {
  return { count: 0, ids: [], facts: [], problems: [] };
}

function factsOf(value: JsonValue): EntryFacts {
  const get = (key: string): JsonValue | undefined => (value instanceof Map ? value.get(key) : undefined);
  const text = (key: string): string | null => {
    const item = get(key);
    return typeof item === 'string' ? item : null;
  };
  const seq = get('seq');
  return {
    kind: text('kind'),
    grain: text('grain'),
    seq: typeof seq === 'bigint' ? (Number.isSafeInteger(Number(seq)) ? Number(seq) : seq.toString()) : null,
    valid_from: text('valid_from'),
  };
}

/** Schema issues, then the cross-field rules of docs/zaxy.md, 'Entry schema', when the shape is right. */
function entryProblems(value: JsonValue, index: number): Candidate[] {
  const parsed = v.safeParse(entrySchema, toPlain(value));
  if (!parsed.success) {
    return parsed.issues.map((issue) => {
      const segments: PathSegment[] = [
        'entries',
        index,
        ...(issue.path ?? []).map((item) => item.key as string | number),
      ];
      return {
        code: 'zaxy.entry_schema',
        path: jsonPath(segments),
        message: `${jsonPath(segments).slice(2)} ${issue.message}`,
      };
    });
  }
  const entry = value as Map<string, JsonValue>;
  const content = entry.get('content') as Map<string, JsonValue>;
  const problems: Candidate[] = [];
  const at = (...segments: PathSegment[]): string => jsonPath(['entries', index, ...segments]);
  const citation = CITATION.exec(entry.get('citation') as string)!;
  if (BigInt(citation[2]!) !== entry.get('seq')) {
    problems.push({
      code: 'zaxy.entry_schema',
      path: at('citation'),
      message: `the citation names event ${citation[2]} but seq is ${String(entry.get('seq'))}`,
    });
  }
  const kind = entry.get('kind') as string;
  if (entry.get('grain') === 'event') {
    if (content.get('type') !== kind)
      problems.push({
        code: 'zaxy.entry_schema',
        path: at('content', 'type'),
        message: `an event entry's kind (${clip(kind, 80)}) must be its content.type`,
      });
    if (content.get('thread') !== citation[1])
      problems.push({
        code: 'zaxy.entry_schema',
        path: at('content', 'thread'),
        message: `content.thread differs from the citation's thread (${clip(citation[1]!, 80)})`,
      });
  } else if (kind.startsWith('entity:')) {
    if (!content.has('entity_type') || content.get('entity_type') !== kind.slice(7))
      problems.push({
        code: 'zaxy.entry_schema',
        path: at('content', 'entity_type'),
        message: `an entity entry's kind must be entity:<content.entity_type>`,
      });
    if (entry.get('valid_to') !== null)
      problems.push({
        code: 'zaxy.entry_schema',
        path: at('valid_to'),
        message: 'valid_to must be null for an entity entry',
      });
  } else {
    if (!content.has('relation_type') || content.get('relation_type') !== kind.slice(5))
      problems.push({
        code: 'zaxy.entry_schema',
        path: at('content', 'relation_type'),
        message: `an edge entry's kind must be edge:<content.relation_type>`,
      });
    if (content.get('inferred') === false && content.get('inference_method') !== null)
      problems.push({
        code: 'zaxy.entry_schema',
        path: at('content', 'inference_method'),
        message: 'inference_method must be null unless inferred',
      });
  }
  return problems;
}

export interface UnsignedCheckInput {
  readonly scan: UnsignedScan;
  readonly pin: string | undefined;
  readonly collector: FindingCollector;
}

/**
 * Records the unsigned envelope's findings. Zaxy's answer is always the version reason.
 * @example
 * checkUnsigned({ scan, pin: undefined, collector }).zaxy.reason; // "unsupported bundle version
 * 'zaxy.export.unsigned.v1'"
 */
export function checkUnsigned(input: UnsignedCheckInput): CheckOutcome<ZaxyUnsignedDetails> {
  const { scan, pin } = input;
  const root = scan.root as Root;
  const envelope: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of root) if (key !== 'entries' && !isStreamed(value)) envelope[key] = toPlain(value);
  const envelopeProblems: Candidate[] = [];
  const parsed = v.safeParse(envelopeSchema, envelope);
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const segments = (issue.path ?? []).map((item) => item.key as string);
      envelopeProblems.push({
        code: 'zaxy.entry_schema',
        path: jsonPath(segments),
        message: `${segments.join('.') || 'envelope'} ${issue.message}`,
      });
    }
  }
  if (!isStreamed(root.get('entries'))) {
    envelopeProblems.push({
      code: 'zaxy.entry_schema',
      path: jsonPath(['entries']),
      message: 'entries must be a list of entries',
    });
  }
  const version = root.get('version') as JsonValue;
  const unsigned: Candidate = {
    code: 'kit.unsigned_format',
    path: '$',
    message:
      'an unsigned envelope carries no ids, no Merkle root and no signature: its entries cannot be authenticated',
    compat: `unsupported bundle version ${pythonRepr(version ?? null)}`,
  };
  const pinned: Candidate | undefined =
    pin === undefined
      ? undefined
      : {
          code: 'zaxy.key_not_pinned',
          path: '$',
          message: 'a public key is pinned, but an unsigned envelope has no signer',
          expected: pin,
        };
  const zaxy = record(input.collector, unsigned, [unsigned, pinned, ...envelopeProblems, ...scan.problems]);
  const sessionId = root.get('session_id');
  return {
    zaxy,
    checked: { structure: true, integrity: false, authenticity: false, trust: pin !== undefined },
    details: {
      version: UNSIGNED_VERSION,
      session_id: typeof sessionId === 'string' ? sessionId : null,
      entry_count: scan.count,
      entries: scan.facts.map((facts, index) => ({ ...facts, id: scan.ids[index] ?? null })),
      entries_truncated: scan.facts.length < scan.count,
      zaxy,
    },
  };
}
