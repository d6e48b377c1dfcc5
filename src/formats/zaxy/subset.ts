/**
 * Disclosed subset (docs/zaxy.md, 'Disclosed subset') with Zaxy's `verify_subset` order and reasons
 * (docs/zaxy.md, 'verify_subset order'):
 * version → pin → signature over the header → `bytes.fromhex(merkle_root)` → each disclosed
 * element in the given order (content hashed, proof decoded, proof folded and compared with the
 * root; `index` read only to word a failure). Note the order differs from bundles: the signature
 * comes before any content.
 *
 * Beyond Zaxy, warnings (docs/zaxy.md, 'What the signature does not bind'): proof sides
 * other than "L"/"R", sibling hex that is not lowercase, and an `index` that is missing, not an
 * integer, or inconsistent with the proof's path.
 * @module
 */
import type { Sha256 } from '../../crypto/sha256.ts';
import type { SignatureVerifier } from '../../crypto/signature.ts';
import { toHex } from '../../encoding/hex.ts';
import { pythonRepr, pythonStr } from '../../json/python.ts';
import { readJsonAt } from '../../json/reader.ts';
import { type JsonValue, pythonTypeName } from '../../json/value.ts';
import { jsonPath } from '../../report/path.ts';
import type { CheckOutcome } from './bundle.ts';
import { type Candidate, clip, record } from './candidate-findings.ts';
import type { ZaxyDisclosedDetails, ZaxySubsetDetails } from './details.ts';
import {
  describePath,
  isStreamed,
  pinCandidate,
  type Root,
  rootValue,
  signatureCandidate,
  signatureHexWarning,
  signerDetails,
  versionCandidate,
} from './signed-document.ts';
import { signatureStep } from './header.ts';
import { isPyError, pythonFromHex, subscriptTypeError } from './python-ops.ts';
import type { DisclosedDetail, DisclosedScan } from './scan.ts';
import type { FindingCollector } from '../../report.ts';

export interface SubsetCheckInput {
  /** The whole document (made one buffer when called: only to read an element's index again). */
  readonly document: () => Uint8Array;
  readonly root: Root;
  readonly disclosed: DisclosedScan;
  readonly pin: string | undefined;
  readonly verifier: SignatureVerifier;
  readonly sha256: Sha256;
  readonly collector: FindingCollector;
  readonly maxDepth: number;
  /** Problems turned into candidates at most (findings are bounded anyway). */
  readonly maxProblems: number;
  /** Scans `disclosed` again, comparing proofs with this merkle_root value. */
  readonly rescan: (merkleRoot: JsonValue) => Promise<DisclosedScan>;
}

const MALFORMED = 'malformed subset: ';

/**
 * Runs every check of a disclosed subset and records the findings.
 * @example
 * const outcome = await checkSubset({ document, root, disclosed, pin, verifier, sha256, collector, maxDepth: 990,
 * maxProblems: 1000, rescan });
 * outcome.zaxy; // { ok: false, reason: 'inclusion proof failed for index 2' }
 */
export async function checkSubset(input: SubsetCheckInput): Promise<CheckOutcome<ZaxySubsetDetails>> {
  const { root, pin, sha256 } = input;
  const version = versionCandidate(root);
  const pinned = pinCandidate(root, pin);
  const step = await signatureStep(root, input.verifier);
  const signature = signatureCandidate(step, 'subset');

  // Step 4: root = bytes.fromhex(subset["merkle_root"]) (a missing one already failed the header).
  let signedRoot: Uint8Array | undefined;
  let rootProblem: Candidate | undefined;
  const claimed = rootValue(root, 'merkle_root');
  if (claimed !== undefined) {
    const decoded = pythonFromHex(claimed);
    if (isPyError(decoded)) {
      rootProblem = {
        code: 'zaxy.malformed',
        path: jsonPath(['merkle_root']),
        message: `merkle_root: ${clip(decoded.text)}`,
        compat: MALFORMED + decoded.text,
      };
    } else signedRoot = decoded;
  }

  // Step 5: for d in subset["disclosed"] (Python's iteration of whatever disclosed is).
  const elements: Candidate[] = [];
  const raw = root.get('disclosed');
  let count = 0;
  let scan = input.disclosed;
  if (raw === undefined) {
    elements.push({
      code: 'zaxy.malformed',
      path: '$',
      message: 'the subset has no disclosed field',
      compat: `${MALFORMED}'disclosed'`,
    });
  } else if (isStreamed(raw)) {
    count = raw.length;
    // The scan compared proofs with the merkle_root it met before `disclosed`; if that is not the
    // document's final merkle_root (placed after, or given twice), compare again with the right one.
    if (signedRoot !== undefined && scan.comparedWith !== claimed) scan = await input.rescan(claimed!);
    for (const problem of scan.problems) {
      if (elements.length >= input.maxProblems) break;
      if (problem.kind === 'error') {
        const path = ['disclosed', problem.position, ...problem.path];
        const unencodable = problem.error.pyError === 'ValueError' && problem.error.text.includes("codec can't encode");
        elements.push({
          code: unencodable ? 'zaxy.unencodable_string' : 'zaxy.malformed',
          path: jsonPath(path),
          message: `${describePath(path)}: ${clip(problem.error.text)}`,
          compat: MALFORMED + problem.error.text,
        });
      } else if (signedRoot !== undefined) {
        const index = readIndex(input, problem.indexOffset);
        elements.push({
          code: 'zaxy.inclusion_failed',
          path: jsonPath(['disclosed', problem.position, 'proof']),
          message: `disclosed[${problem.position}]: the proof does not lead to merkle_root`,
          compat: index === undefined ? `${MALFORMED}'index'` : `inclusion proof failed for index ${pythonStr(index)}`,
          expected: toHex(signedRoot),
          actual: toHex(problem.computed),
        });
      }
    }
  } else {
    const iterable = raw instanceof Map || typeof raw === 'string';
    const empty = (raw instanceof Map && raw.size === 0) || raw === '';
    if (!empty) {
      const text = iterable ? subscriptTypeError('') : `'${pythonTypeName(raw)}' object is not iterable`;
      elements.push({
        code: 'zaxy.malformed',
        path: jsonPath(['disclosed']),
        message: `disclosed is a ${pythonTypeName(raw)}, not a list (${text})`,
        compat: MALFORMED + text,
      });
    }
  }

  const warnings = [signatureHexWarning(root), ...proofWarnings(scan.details)];
  const deciding = version ?? pinned ?? signature ?? rootProblem ?? elements[0];
  const zaxy = record(input.collector, deciding, [version, pinned, signature, rootProblem, ...elements, ...warnings]);
  const proofsChecked =
    isStreamed(raw) && signedRoot !== undefined && !scan.problems.some((problem) => problem.kind === 'error');
  return {
    zaxy,
    checked: {
      structure: true,
      integrity: proofsChecked,
      authenticity: step.kind === 'checked' && step.algorithmKnown,
      trust: pin !== undefined,
    },
    details: {
      ...signerDetails(root, step, sha256),
      disclosed_count: count,
      disclosed: scan.details.map((detail) =>
        disclosedDetail(detail, signedRoot === undefined ? null : detail.included),
      ),
      disclosed_truncated: scan.details.length < count,
      included_count: proofsChecked ? scan.included : null,
      pinned: pin === undefined ? null : pinned === undefined,
      zaxy,
    },
  };
}

/** An element's `index` value, read again from the document at the offset the scan kept. */
function readIndex(input: SubsetCheckInput, offset: number): JsonValue | undefined {
  if (offset < 0) return undefined;
  const read = readJsonAt(input.document(), offset, { maxDepth: input.maxDepth });
  return read.ok ? read.value : undefined;
}

function disclosedDetail(detail: DisclosedDetail, included: boolean | null): ZaxyDisclosedDetails {
  const index = detail.index;
  return {
    index:
      typeof index === 'bigint' && Number.isSafeInteger(Number(index))
        ? Number(index)
        : index === undefined
          ? null
          : pythonRepr(index),
    kind: detail.facts?.kind ?? null,
    grain: detail.facts?.grain ?? null,
    seq: detail.facts?.seq ?? null,
    valid_from: detail.facts?.valid_from ?? null,
    proof_depth: detail.proofDepth,
    proof: detail.steps.map((step) => ({ side: step.side, sibling: step.sibling })),
    included,
  };
}

/** Kit-only warnings over the disclosed elements whose details were kept. */
function proofWarnings(details: readonly DisclosedDetail[]): Candidate[] {
  const warnings: Candidate[] = [];
  details.forEach((detail, position) => {
    for (const k of detail.oddSides) {
      warnings.push({
        code: 'zaxy.proof_side_nonstandard',
        path: jsonPath(['disclosed', position, 'proof', k, 1]),
        message: `proof step ${k} has side ${clip(detail.steps[k]?.side ?? '?', 40)}; Zaxy reads every side but "L" as "R"`,
        severity: 'warning',
      });
    }
    for (const k of detail.oddSiblings) {
      warnings.push({
        code: 'zaxy.hex_noncanonical',
        path: jsonPath(['disclosed', position, 'proof', k, 0]),
        message: `proof step ${k}: the sibling is not 64 lowercase hex digits (Zaxy decodes it leniently)`,
        severity: 'warning',
      });
    }
    // A proof that raised was never read whole: nothing to compare the index with.
    const problem = detail.failed ? undefined : indexProblem(detail);
    if (problem !== undefined) {
      warnings.push({
        code: 'zaxy.index_unbound',
        path: jsonPath(['disclosed', position, 'index']),
        message: problem,
        severity: 'warning',
      });
    }
  });
  return warnings;
}

/**
 * Why `index` is not what the proof proves, if it is not. The index is not signed, and without
 * the tree size a proof only constrains it: at each layer an odd position must have its sibling
 * on the left; an even one has it on the right or is the promoted last node (docs/zaxy.md,
 * 'Merkle tree'). Exported for its tests.
 */
export function indexProblem(detail: Pick<DisclosedDetail, 'index' | 'sides'>): string | undefined {
  const index = detail.index;
  if (index === undefined) return 'the element has no index; the entry position is not stated (and is never signed)';
  if (typeof index !== 'bigint' || index < 0n)
    return `index ${clip(pythonRepr(index), 60)} is not a non-negative integer; Zaxy ignores it unless a proof fails`;
  let position = index;
  for (const side of detail.sides) {
    for (;;) {
      if (position % 2n === 1n) {
        if (side !== 'L')
          return `index ${index} does not match the proof: step sides say another position (the index is not signed)`;
        position >>= 1n;
        break;
      }
      if (side === 'R') {
        position >>= 1n;
        break;
      }
      if (position === 0n)
        return `index ${index} does not match the proof: step sides say another position (the index is not signed)`;
      position >>= 1n; // promoted at this layer; the step belongs to a higher one
    }
  }
  while (position > 0n) {
    if (position % 2n === 1n)
      return `index ${index} does not match the proof: it is too short for this position (the index is not signed)`;
    position >>= 1n;
  }
  return undefined;
}
