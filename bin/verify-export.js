#!/usr/bin/env node
// Entry point of the `verify-export` command. The CLI is bundled into dist/ by `npm run build`
// (run automatically by `npm install`), so startup does not pay for TypeScript.
import '../dist/cli.js';
