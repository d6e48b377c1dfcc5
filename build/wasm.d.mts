// Types of build/wasm.mjs, for the TypeScript tests that import it.
export declare const SHA256_WASM_PATH: string;
export declare function extractSha256Wasm(outFile?: string): string;
