// Types of `verify-export/wasm/sha256.wasm` (copied beside the module by build/build.mjs): a host
// that imports `.wasm` files as modules (workerd, wrangler, Deno, some bundlers) hands over the
// compiled module, to pass to `initSha256`.
declare const sha256Module: WebAssembly.Module;
export default sha256Module;
