/**
 * Imports point one way: steps -> seam <- reference. No step definition
 * (and nothing in the seam) may import an engine; the engine may import only
 * the seam's data types and constants; the engine does no I/O and reads no
 * clock or randomness.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (e.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

function imports(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found = [...text.matchAll(/(?:from\s+|require\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
  return found.map((spec) => (spec.startsWith('.') ? path.relative(root, path.resolve(path.dirname(path.join(root, file)), spec)) : spec));
}

test('no step definition and nothing in the seam imports an engine', () => {
  for (const file of [...sources('steps'), ...sources('seam')]) {
    for (const spec of imports(file)) {
      assert.ok(!spec.startsWith('reference'), `${file} imports ${spec}`);
    }
  }
});

test('the reference engine depends only on the seam and on itself', () => {
  for (const file of sources('reference')) {
    for (const spec of imports(file)) {
      assert.ok(spec.startsWith('reference') || spec.startsWith('seam'), `${file} imports ${spec}`);
    }
  }
});

test('the reference engine reads no clock, no randomness and does no I/O', () => {
  for (const file of sources('reference')) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const banned of ['Date.now', 'new Date', 'Math.random', 'performance.now', 'process.hrtime', "'node:fs'", "'fs'", 'setTimeout', 'setInterval']) {
      assert.ok(!text.includes(banned), `${file} uses ${banned}`);
    }
  }
});

test('the reference engine has no import cycle: each module reads top-down', () => {
  const graph = new Map<string, string[]>();
  for (const file of sources('reference')) graph.set(file.replace(/\.ts$/, ''), imports(file).filter((s) => s.startsWith('reference')));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (node: string, path: string[]): void => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'visiting') assert.fail(`import cycle: ${[...path.slice(path.indexOf(node)), node].join(' -> ')}`);
    state.set(node, 'visiting');
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
});

test('every Then step is defined through steps/support/claims.ts, so a final claim is judged again once a trailing implementation has settled', () => {
  for (const file of sources('steps').filter((f) => f.endsWith('.steps.ts'))) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const fromCucumber = text.match(/import \{([^}]*)\} from '@cucumber\/cucumber'/);
    const names = fromCucumber ? fromCucumber[1].split(',').map((n) => n.trim()) : [];
    assert.ok(!names.includes('Then'), `${file} imports Then from @cucumber/cucumber; import it from ./support/claims`);
  }
});
