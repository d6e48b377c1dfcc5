// A host that refuses the kit's WebAssembly (a page whose CSP lacks 'wasm-unsafe-eval', a Workers
// bundle made without the `.wasm` module), simulated for one test process: the default SHA-256
// makes its one load attempt while WebAssembly is refused, as workerd words it, and keeps that
// outcome, as on a real host. WebAssembly is given back afterwards (Node's own fetch compiles it
// later). Call it at the top of a test file, before anything loads the default SHA-256 (each test
// file is its own process).
import assert from 'node:assert/strict';
import { loadSha256 } from '#sha256';

/** Makes the default SHA-256 unavailable for the rest of this process. */
export async function refuseDefaultSha256(): Promise<void> {
  const { compile, instantiate } = WebAssembly;
  const refusal = (): Promise<never> =>
    Promise.reject(new WebAssembly.CompileError('WebAssembly.compile(): Wasm code generation disallowed by embedder'));
  WebAssembly.compile = refusal;
  WebAssembly.instantiate = refusal;
  try {
    await assert.rejects(loadSha256(), /disallowed by embedder/);
  } finally {
    WebAssembly.compile = compile;
    WebAssembly.instantiate = instantiate;
  }
}
