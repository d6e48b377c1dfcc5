/**
 * Signed bundle (`zaxy.portable.v1`, docs/zaxy.md, 'Signed bundle') with Zaxy's `verify_export`
 * order and reasons (docs/zaxy.md, 'verify_export order'): version → pin → every
 * `entries[i]["content"]` → each entry's id in order → Merkle root → signature. The kit checks
 * every step regardless and reports each problem; the first one in Zaxy's order carries Zaxy's
 * reason.
 * @module
 */
import type { Sha256 } from '../../crypto/sha256.ts';
import type { SignatureVerifier } from '../../crypto/signature.ts';
import { toHex } from '../../encoding/hex.ts';
import { pythonRepr } from '../../json/python.ts';
import { pythonTypeName } from '../../json/value.ts';
import type { CheckedDimensions } from '../../report/collector.ts';
import { jsonPath } from '../../report/path.ts';
import { type Candidate, clip, record } from './candidate-findings.ts';
import type { ZaxyBundleDetails, ZaxyDetails, ZaxyResult } from './details.ts';
import {
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
import { subscriptTypeError } from './python-ops.ts';
import type { EntriesScan, IdProblem } from './scan.ts';
import type { FindingCollector } from '../../report.ts';

export interface BundleCheckInput {
  readonly root: Root;
  readonly entries: EntriesScan;
  readonly pin: string | undefined;
  readonly verifier: SignatureVerifier;
  readonly sha256: Sha256;
  readonly collector: FindingCollector;
  /** Entries described in details at most. */
  readonly maxFacts: number;
}

export interface CheckOutcome<Details extends ZaxyDetails = ZaxyDetails> {
  readonly zaxy: ZaxyResult;
  readonly checked: CheckedDimensions;
  readonly details: Details;
}

const MALFORMED = 'malformed bundle: ';

/**
 * Runs every check of a signed bundle and records the findings.
 * @example
 * const outcome = await checkBundle({ root, entries, pin, verifier, sha256, collector, maxFacts: 10000 });
 * outcome.zaxy; // { ok: false, reason: 'entry id does not match its content (tampered)' }
 */
export async function checkBundle(input: BundleCheckInput): Promise<CheckOutcome<ZaxyBundleDetails>> {
  const { root, entries, pin, sha256 } = input;
  const version = versionCandidate(root);
  const pinned = pinCandidate(root, pin);

  // Step 3: [e["content"] for e in bundle["entries"]], Python's iteration of whatever entries is.
  const shape: Candidate[] = [];
  const raw = root.get('entries');
  let entryCount = 0;
  if (raw === undefined) {
    shape.push({
      code: 'zaxy.malformed',
      path: '$',
      message: 'the bundle has no entries field',
      compat: `${MALFORMED}'entries'`,
    });
  } else if (isStreamed(raw)) {
    entryCount = raw.length;
    for (const { index, text } of entries.gatherErrors) {
      const missing = text === "'content'";
      shape.push({
        code: 'zaxy.malformed',
        path: jsonPath(['entries', index]),
        message: missing ? `entries[${index}] has no content` : `entries[${index}] is not an object (${clip(text)})`,
        compat: MALFORMED + text,
      });
    }
  } else {
    const iterable = raw instanceof Map || typeof raw === 'string';
    const empty = (raw instanceof Map && raw.size === 0) || raw === '';
    if (!empty) {
      const text = iterable ? subscriptTypeError('') : `'${pythonTypeName(raw)}' object is not iterable`;
      shape.push({
        code: 'zaxy.malformed',
        path: jsonPath(['entries']),
        message: `entries is a ${pythonTypeName(raw)}, not a list of entries (${text})`,
        compat: MALFORMED + text,
      });
    }
  }

  // Step 4: each entry's id, in order (only reached when step 3 raised nothing).
  const ids = entries.idProblems.map((problem) => idCandidate(problem));

  // Step 5: the Merkle root (only computable when every content was canonicalised).
  let empty: Candidate | undefined;
  let rootKey: Candidate | undefined;
  let rootMismatch: Candidate | undefined;
  let computedRoot: string | null = null;
  const leavesComplete = isStreamed(raw) && entries.leaflessCount === 0;
  if (shape.length === 0 && entryCount === 0) {
    empty = {
      code: 'zaxy.empty_tree',
      path: jsonPath(['entries']),
      message: 'the bundle has no entries, so it has no Merkle root',
      compat: `${MALFORMED}merkle_root requires at least one leaf`,
    };
  } else if (leavesComplete && entries.root !== undefined) {
    computedRoot = toHex(entries.root);
    const claimed = rootValue(root, 'merkle_root');
    if (claimed === undefined) {
      rootKey = {
        code: 'zaxy.malformed',
        path: '$',
        message: 'the bundle has no merkle_root field',
        compat: `${MALFORMED}'merkle_root'`,
      };
    } else if (claimed !== computedRoot) {
      rootMismatch = {
        code: 'zaxy.merkle_root_mismatch',
        path: jsonPath(['merkle_root']),
        message: 'the Merkle root over the entries differs from merkle_root',
        compat: 'merkle root mismatch (entries added/removed/altered)',
        expected: clip(typeof claimed === 'string' ? claimed : pythonRepr(claimed), 8192),
        actual: computedRoot,
      };
    }
  }

  // Step 6: the signature over the header.
  const step = await signatureStep(root, input.verifier);
  const signature = signatureCandidate(step, 'bundle');
  const hexWarning = signatureHexWarning(root);

  const deciding = version ?? pinned ?? shape[0] ?? ids[0] ?? empty ?? rootKey ?? rootMismatch ?? signature;
  const zaxy = record(input.collector, deciding, [
    version,
    pinned,
    ...shape,
    ...ids,
    empty,
    rootKey,
    rootMismatch,
    signature,
    hexWarning,
  ]);
  return {
    zaxy,
    checked: {
      structure: true,
      integrity: computedRoot !== null,
      authenticity: step.kind === 'checked' && step.algorithmKnown,
      trust: pin !== undefined,
    },
    details: {
      ...signerDetails(root, step, sha256),
      computed_merkle_root: computedRoot,
      entry_count: entryCount,
      entries: entries.facts.slice(0, input.maxFacts),
      entries_truncated: entries.facts.length < entryCount,
      pinned: pin === undefined ? null : pinned === undefined,
      zaxy,
    },
  };
}

function idCandidate(problem: IdProblem): Candidate {
  switch (problem.kind) {
    case 'missing':
      return {
        code: 'zaxy.malformed',
        path: jsonPath(['entries', problem.index]),
        message: `entries[${problem.index}] has no id`,
        compat: `${MALFORMED}'id'`,
      };
    case 'unencodable':
      return {
        code: 'zaxy.unencodable_string',
        path: jsonPath(['entries', problem.index, 'content']),
        message: `entries[${problem.index}].content holds a lone surrogate, so it has no canonical UTF-8 bytes (${problem.text})`,
        compat: MALFORMED + problem.text,
      };
    case 'mismatch':
      return {
        code: 'zaxy.entry_id_mismatch',
        path: jsonPath(['entries', problem.index, 'id']),
        message: `entries[${problem.index}].id is not the SHA-256 of its content's canonical bytes`,
        compat: 'entry id does not match its content (tampered)',
        expected: problem.expected,
        actual: clip(problem.actual, 8192),
      };
  }
}
