// Types of build/worker.mjs, for the TypeScript tests and benchmarks that import it.
export declare const WORKER_DIR: string;
export declare const COMPATIBILITY_DATE: string;
export declare const WRANGLER_CONDITIONS: readonly string[];
export declare function buildWorker(options?: {
  outDir?: string;
  minify?: boolean;
  entries?: Record<string, string>;
  fromSources?: boolean;
}): Promise<{ outDir: string; bytes: number }>;
export declare function workerdConfig(options?: { address?: string; vars?: Record<string, string> }): string;
export declare function workerdConfigFor(
  workers: readonly { name: string; address: string; vars?: Record<string, string>; entry?: string }[],
  options?: { v8Flags?: readonly string[] },
): string;
export declare function writeWorkerdConfig(options?: {
  outDir?: string;
  address?: string;
  vars?: Record<string, string>;
}): string;
