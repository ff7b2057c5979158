#!/usr/bin/env node
'use strict';
// The pmix-conformance command: compiles the TypeScript sources on the fly
// (transpile only: the type-check is `npm run typecheck`) and runs tools/cli.ts.
const path = require('node:path');

const root = path.resolve(__dirname, '..');
process.env.TS_NODE_TRANSPILE_ONLY = 'true';
require('ts-node').register({ transpileOnly: true, project: path.join(root, 'tsconfig.json') });
require(path.join(root, 'tools', 'cli.ts'))
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
