/**
 * tools/register.js compiles each TypeScript file once and keeps the result:
 * a second start reads it from the cache, a changed file is compiled again
 * (never served stale), and a cache folder that cannot be made costs speed,
 * not correctness.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const register = path.resolve(__dirname, '..', '..', 'tools', 'register.js');

/** A test in a fresh temporary folder, removed afterwards. */
function inTempDir(body: (dir: string) => void): () => void {
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-register-'));
    try {
      body(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}

function run(file: string, cache: string): string {
  return execFileSync(process.execPath, ['-r', register, file], { env: { ...process.env, PMIX_CONFORMANCE_CACHE: cache }, encoding: 'utf8' }).trim();
}

test('a file is compiled once, and again when it changes', inTempDir((dir) => {
  const cache = path.join(dir, 'cache');
  const file = path.join(dir, 'hello.ts');
  fs.writeFileSync(file, "const greeting: string = 'one';\nconsole.log(greeting);\n");
  assert.equal(run(file, cache), 'one');
  assert.equal(fs.readdirSync(cache).length, 1);
  assert.equal(run(file, cache), 'one');
  assert.equal(fs.readdirSync(cache).length, 1, 'the second start compiled again');
  fs.writeFileSync(file, "const greeting: string = 'two';\nconsole.log(greeting);\n");
  assert.equal(run(file, cache), 'two', 'a changed file was served from the cache');
  assert.equal(fs.readdirSync(cache).length, 2);
}));

test('a stack trace points at the TypeScript line', inTempDir((dir) => {
  const file = path.join(dir, 'throws.ts');
  fs.writeFileSync(file, "import type { Stats } from 'node:fs';\n\ntype T = Stats;\nconst x: T | undefined = undefined;\nconsole.log(new Error(String(x)).stack!.split('\\n')[1]);\n");
  run(file, path.join(dir, 'cache')); // fill the cache: the line must be right from it too
  assert.match(run(file, path.join(dir, 'cache')), /throws\.ts:5:/);
}));

test('a cache folder that cannot be made costs speed, not correctness', inTempDir((dir) => {
  const file = path.join(dir, 'hello.ts');
  fs.writeFileSync(file, "console.log('ok' as string);\n");
  fs.writeFileSync(path.join(dir, 'not-a-folder'), '');
  assert.equal(run(file, path.join(dir, 'not-a-folder', 'cache')), 'ok');
}));
