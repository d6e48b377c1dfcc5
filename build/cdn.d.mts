// Types of build/cdn.mjs, for the TypeScript benchmarks and tests that import it.
export declare const CDN_DIR: string;
export declare function buildCdn(options?: {
  outDir?: string;
}): Promise<
  { file: string; bytes: number; gzipBytes: number; imports: { file: string; dynamic: boolean }[]; inputs: string[] }[]
>;
