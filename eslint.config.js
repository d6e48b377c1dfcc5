// Lint rules for the project (docs/architecture.md). The rule that matters most: the isomorphic code in
// src/, components/ and wasm/ imports nothing from Node (docs/architecture.md, "Runtimes"); only bin/, tests,
// benchmarks and build scripts may.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import jsdoc from 'eslint-plugin-jsdoc';

const NODE_BUILTINS = [
  'fs',
  'path',
  'crypto',
  'zlib',
  'buffer',
  'util',
  'stream',
  'os',
  'child_process',
  'worker_threads',
  'url',
  'v8',
  'http',
  'https',
  'net',
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'demo/dist/**', 'test-results/**', 'wasm/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // One line width, the formatter's (.prettierrc.json); the formatter cannot break strings,
      // which may run longer.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'components/**/*.ts', 'wasm/**/*.ts'],
    plugins: { jsdoc },
    languageOptions: { globals: { TextEncoder: 'readonly', TextDecoder: 'readonly' } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*'],
              message: 'The isomorphic core must not import Node built-ins (docs/architecture.md, "Runtimes").',
            },
          ],
          paths: NODE_BUILTINS.map((name) => ({
            name,
            message: 'The isomorphic core must not import Node built-ins (docs/architecture.md, "Runtimes").',
          })),
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Buffer', message: 'Use Uint8Array: Buffer is Node-only.' },
        { name: 'process', message: 'process is Node-only.' },
        { name: 'require', message: 'ESM only.' },
      ],
      'jsdoc/require-jsdoc': ['warn', { publicOnly: true, require: { FunctionDeclaration: true } }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
