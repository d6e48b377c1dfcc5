// Writes dist/custom-elements.json, the Custom Elements Manifest of `<verify-export>` (the
// `customElements` field of package.json points at it), with @custom-elements-manifest/analyzer
// in its Lit mode. Module paths name the compiled files a user imports, not the TypeScript sources.
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const MANIFEST_PATH = join(PROJECT_ROOT, 'dist/custom-elements.json');

/** Runs the analyzer over components/ and writes the manifest with paths into dist/components. */
export function writeCustomElementsManifest() {
  const require = createRequire(import.meta.url);
  const analyzer = join(dirname(require.resolve('@custom-elements-manifest/analyzer/package.json')), 'cem.js');
  const result = spawnSync(
    process.execPath,
    [
      analyzer,
      'analyze',
      '--litelement',
      '--globs',
      'components/verify-export.ts',
      'components/verify-export.component.ts',
      '--outdir',
      'dist',
      '--quiet',
    ],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) throw new Error(`custom-elements-manifest analyzer failed (exit ${result.status})`);
  const manifest = JSON.parse(
    readFileSync(MANIFEST_PATH, 'utf8').replace(/"components\/([\w.-]+)\.ts"/g, '"dist/components/$1.js"'),
  );
  for (const module of manifest.modules)
    for (const declaration of module.declarations ?? []) keepPublicApi(declaration);
  writeFileSync(MANIFEST_PATH, `${JSON.stringify(manifest, null, 2)}\n`);
  return MANIFEST_PATH;
}

/**
 * The analyzer lists Lit's internal reactive state (`static properties` entries with
 * `state: true`, named `_…`) as attributes, and the variable of the one `dispatchEvent` helper as
 * an event named `type`. The element's API is what its class documents: public members, and the
 * events declared with `@fires`.
 */
function keepPublicApi(declaration) {
  if (!declaration.customElement) return;
  declaration.attributes = declaration.attributes?.filter((attribute) => !attribute.name.startsWith('_'));
  declaration.members = declaration.members?.filter(
    (member) => !member.name.startsWith('_') && member.privacy !== 'private',
  );
  declaration.events = declaration.events?.filter((event) => event.description !== undefined);
}
