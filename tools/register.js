'use strict';
/**
 * Runs the TypeScript sources directly, compiling each file once: a require
 * hook for `.ts` that keeps the JavaScript ts-node emits for a file (in its
 * transpile-only mode, with tsconfig.json) in the on-disk cache of
 * protocol/compile-cache.js, keyed by the file's path and content, the
 * versions of ts-node and TypeScript, and tsconfig.json. A start whose
 * sources have not changed loads no compiler at all; a changed file is a new
 * key, so stale code is never served.
 *
 *   node -r ./tools/register.js tools/cli.ts ...
 *   cucumber.cjs: requireModule: [<absolute path of this file>]
 *
 * Why not ts-node alone: it transpiles every file on every start (about a second of
 * CPU per process here, more than all the suite's steps take), and the test
 * command starts dozens of processes; ts-node still compiles, once. Like its
 * transpile-only mode this does not type-check (`npm run typecheck` does). Each file keeps its own path,
 * so `__dirname` is the source folder, and the inline source map points stack
 * traces and c8's coverage at the `.ts` lines.
 */
const fs = require('node:fs');
const path = require('node:path');
const { cachedText } = require('../protocol/compile-cache');

const ROOT = path.resolve(__dirname, '..');
const TSCONFIG = path.join(ROOT, 'tsconfig.json');

let service; // ts-node, created on the first cache miss only
let salt;

/** The versions and configuration the emitted code depends on. */
function compilerSalt() {
  const version = (pkg) => JSON.parse(fs.readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')).version;
  return `ts-node ${version('ts-node')} typescript ${version('typescript')} ${fs.readFileSync(TSCONFIG, 'utf8')}`;
}

function compile(source, filename) {
  salt ??= compilerSalt();
  return cachedText([salt, filename, source], () => {
    service ??= require('ts-node').create({ transpileOnly: true, project: TSCONFIG });
    return service.compile(source, filename);
  });
}

if (!require.extensions['.ts']) {
  // Stack traces at the .ts lines (c8 reads the same inline maps on its own).
  if (typeof process.setSourceMapsEnabled === 'function') process.setSourceMapsEnabled(true);
  require.extensions['.ts'] = function loadTypeScript(module, filename) {
    module._compile(compile(fs.readFileSync(filename, 'utf8'), filename), filename);
  };
}

/** Compile every .ts file under these folders into the cache (one compiler start for all). */
function warm(folders) {
  let files = 0;
  const visit = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) visit(p);
      else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) {
        compile(fs.readFileSync(p, 'utf8'), p);
        files++;
      }
    }
  };
  for (const folder of folders) if (fs.existsSync(folder)) visit(path.resolve(ROOT, folder));
  return files;
}

// `node tools/register.js --warm [folders]`: fill the cache before many
// processes start at once (the test command), so none of them compiles.
if (require.main === module && process.argv[2] === '--warm') {
  const folders = process.argv.slice(3);
  // By default, the folders tsconfig.json compiles.
  const n = warm(folders.length > 0 ? folders : JSON.parse(fs.readFileSync(TSCONFIG, 'utf8')).include);
  console.log(`TypeScript cache: ${n} files ready`);
}

module.exports = { compile, warm };
