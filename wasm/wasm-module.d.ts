// A `.wasm` file imported as a module (workerd, wrangler, esbuild with the file kept external):
// the platform hands over the compiled WebAssembly.Module.
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
