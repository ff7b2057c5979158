/**
 * The wire code keeps the one-way imports: the protocol library and the
 * subprocess adapter know the seam, never an engine; only a composition
 * root of one implementation may import one: a server, or
 * adapters/reference.ts (the reference engine in process, behind the wire's
 * schemas).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

function importsOf(dir: string): [string, string][] {
  const out: [string, string][] = [];
  for (const name of fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.ts'))) {
    const file = path.join(dir, name);
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/(?:from\s+|require\()\s*['"](\.[^'"]+)['"]/g)) {
      out.push([file, path.relative(root, path.resolve(root, dir, m[1]))]);
    }
  }
  return out;
}

test('protocol/ imports only the seam and itself', () => {
  for (const [file, spec] of importsOf('protocol')) assert.ok(spec.startsWith('seam') || spec.startsWith('protocol'), `${file} imports ${spec}`);
});

test('adapters/ imports only the seam and protocol/ (the in-process composition root aside)', () => {
  for (const [file, spec] of importsOf('adapters')) {
    const root = file === path.join('adapters', 'reference.ts') && spec === path.join('reference', 'adapter');
    assert.ok(root || spec.startsWith('seam') || spec.startsWith('protocol'), `${file} imports ${spec}`);
  }
});

test('servers/ may import an engine, but no step and no adapter', () => {
  for (const [file, spec] of importsOf('servers')) assert.ok(/^(seam|protocol|reference)/.test(spec), `${file} imports ${spec}`);
});
