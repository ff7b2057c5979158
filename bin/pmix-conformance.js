#!/usr/bin/env node
'use strict';
// The pmix-conformance command: compiles the TypeScript sources on the fly
// (transpile only: the type-check is `npm run typecheck`) and runs tools/cli.ts.
const path = require('node:path');

const root = path.resolve(__dirname, '..');
process.env.TS_NODE_TRANSPILE_ONLY = 'true';
try {
  require.resolve('ts-node');
} catch {
  // A fresh clone before its first install: say the one command that fixes it.
  console.error(`pmix-conformance: its dependencies are not installed; run \`npm ci\` in ${root} (or install the package with npm)`);
  process.exit(2);
}
require('ts-node').register({ transpileOnly: true, project: path.join(root, 'tsconfig.json') });
require(path.join(root, 'tools', 'cli.ts'))
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
