// Runtime-neutral (Node, workerd probe, Deno runner): runs Zaxy's raw signature vectors
// (`test/fixtures/zaxy/sigver-*.json`) through the kit's default signature verifier. Every runtime
// must give the verdicts the signing library behind Zaxy gave (OpenSSL for the edge cases).
import { verifySignature } from '../../src/crypto/signature.ts';

interface SigverFile {
  readonly algorithm: string;
  readonly tests: readonly { tcId: number; pk: string; message: string; signature: string; testPassed: boolean }[];
}

/** Hex to bytes for test vectors (trusted input: the shared fixtures). */
function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The tcIds whose verdict differs from the vector's `testPassed`, and how many ran. */
export async function sigverMismatches(file: SigverFile): Promise<{ ran: number; wrong: number[] }> {
  const wrong: number[] = [];
  for (const test of file.tests) {
    const verdict = await verifySignature(
      file.algorithm,
      fromHex(test.pk),
      fromHex(test.message),
      fromHex(test.signature),
    );
    if (verdict !== test.testPassed) wrong.push(test.tcId);
  }
  return { ran: file.tests.length, wrong };
}
