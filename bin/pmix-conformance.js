#!/usr/bin/env node
'use strict';
// The pmix-conformance command: runs tools/cli.ts, its TypeScript compiled
// once per file and cached (tools/register.js; transpile only: the
// type-check is `npm run typecheck`).
const path = require('node:path');

const root = path.resolve(__dirname, '..');
try {
  require.resolve('ts-node');
} catch {
  // A fresh clone before its first install: say the one command that fixes it.
  console.error(`pmix-conformance: its dependencies are not installed; run \`npm ci\` in ${root} (or install the package with npm)`);
  process.exit(2);
}
require(path.join(root, 'tools', 'register.js'));
require(path.join(root, 'tools', 'cli.ts'))
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
