/**
 * The package's version, from its package.json.
 * @module
 */
import { createRequire } from 'node:module';

/** The version in package.json: one folder up from bin/package-version.ts and from dist/cli.js alike. */
export function packageVersion(): string {
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
}
