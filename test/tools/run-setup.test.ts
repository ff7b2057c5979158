/**
 * The run path, by the CLI and by scripts/conformance.sh alike: a scenario id
 * exactly as the reports print it runs exactly that scenario; typos, an
 * adapter that cannot load and a harness that cannot start are one line and
 * exit 2 before anything runs; the previous reports are kept until a new run
 * completes; paths are relative to the current directory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { main, parseArgs } from '../../tools/cli';
import { adapterProblem, publish, stagingDir, translateScenarioArgs } from '../../tools/lib/run-setup';
import { loadScenarios } from '../../tools/lib/scenarios';

const root = path.resolve(__dirname, '..', '..');
const suite = loadScenarios(root);
const row = suite.find((s) => s.id.split(':').length === 3)!; // an Examples row: feature:outline line:row line
const [file, outline, rowLine] = row.id.split(':');

async function cli(args: string[], cwd = root): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const saved = { log: console.log, error: console.error };
  console.log = console.error = (...a: unknown[]) => void lines.push(a.join(' '));
  try {
    return { code: await main(args, cwd), out: lines.join('\n') };
  } finally {
    Object.assign(console, saved);
  }
}

test('a scenario id as the reports print it (feature:line:row line) becomes the row\'s line, relative to the current directory', () => {
  assert.deepEqual(translateScenarioArgs([row.id], suite, root, root), { args: [`${file}:${rowLine}`], problems: [] });
  // From inside features/: the same id, relative to there.
  const inside = translateScenarioArgs([path.relative('features', row.id)], suite, path.join(root, 'features'), root);
  assert.deepEqual(inside.args, [`${file}:${rowLine}`]);
  // A whole outline, a file, a folder, options and their values pass unchanged.
  assert.deepEqual(translateScenarioArgs([`${file}:${outline}`, 'features/reservation', '--name', 'x', '--fail-fast'], suite, root, root).args, [`${file}:${outline}`, 'features/reservation', '--name', 'x', '--fail-fast']);
  const bad = translateScenarioArgs([`${file}:99999`, 'features/nope.feature'], suite, root, root);
  assert.match(bad.problems[0], /line 99999 of .* begins no scenario and no Examples row \(the nearest scenario is/);
  assert.match(bad.problems[1], /features\/nope\.feature: no such file or directory \(paths are relative to the current directory/);
});

test('run takes feature paths and scenario ids, and --max-timeouts; a stray word is an unknown command', () => {
  const p = parseArgs(['run', row.id, '--max-timeouts', '5']);
  assert.ok(p.cmd === 'run');
  if (p.cmd !== 'run') return;
  assert.deepEqual(p.options.paths, [row.id]);
  assert.equal(p.options.maxTimeouts, 5);
  assert.throws(() => parseArgs(['run', '--max-timeouts', 'many']), /--max-timeouts needs a whole number/);
  assert.throws(() => parseArgs(['frobnicate']), /unknown command "frobnicate"/);
  assert.throws(() => parseArgs(['--fail-fast']), /cucumber's own options go after --/);
});

test('the reports are staged beside the reports directory and replace the previous run\'s only when published', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'publish-'));
  const reports = path.join(dir, 'reports');
  fs.mkdirSync(reports);
  for (const f of ['conformance.html', 'summary.md', 'bench.json']) fs.writeFileSync(path.join(reports, f), 'old');
  const staging = stagingDir(reports);
  assert.equal(path.dirname(staging), dir);
  fs.writeFileSync(path.join(staging, 'summary.md'), 'new');
  assert.equal(fs.readFileSync(path.join(reports, 'summary.md'), 'utf8'), 'old', 'untouched until published');
  publish(staging, reports);
  assert.equal(fs.readFileSync(path.join(reports, 'summary.md'), 'utf8'), 'new');
  assert.ok(!fs.existsSync(path.join(reports, 'conformance.html')), 'a previous run\'s file this run did not write is gone');
  assert.ok(fs.existsSync(path.join(reports, 'bench.json')), 'other files stay');
  assert.ok(!fs.existsSync(staging));
  fs.rmSync(dir, { recursive: true });
});

test('an adapter that cannot load is one line', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'adapter-'));
  fs.writeFileSync(path.join(dir, 'broken.js'), "throw new Error('boom\\n  at somewhere');");
  fs.writeFileSync(path.join(dir, 'empty.js'), 'module.exports = {};');
  assert.equal(await adapterProblem(path.join(dir, 'broken.js')), `the adapter module ${path.join(dir, 'broken.js')} cannot be loaded: boom`);
  assert.match((await adapterProblem(path.join(dir, 'empty.js')))!, /exports no createImplementation\(\)/);
  assert.equal(await adapterProblem(path.join(root, 'adapters', 'reference')), undefined);
  // Through the CLI: exit 2, one line, and the previous reports are left as they were.
  const reports = path.join(dir, 'reports');
  fs.mkdirSync(reports);
  fs.writeFileSync(path.join(reports, 'summary.md'), 'previous');
  const r = await cli(['run', '--adapter', path.join(dir, 'broken.js'), '--reports', reports]);
  assert.equal(r.code, 2);
  assert.equal(r.out, `pmix-conformance: nothing was run: the adapter module ${path.join(dir, 'broken.js')} cannot be loaded: boom`);
  assert.equal(fs.readFileSync(path.join(reports, 'summary.md'), 'utf8'), 'previous');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['broken.js', 'empty.js', 'reports'], 'no staging directory is left behind');
  fs.rmSync(dir, { recursive: true });
});

test('pmix-conformance run <report id> runs exactly that scenario, and writes every report (JUnit included) into --reports, relative to the current directory', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-'));
  const r = await cli(['run', '--reports', 'out', path.relative(dir, path.join(root, row.id))], dir);
  assert.equal(r.code, 0, r.out);
  const report = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'conformance.json'), 'utf8'));
  assert.deepEqual(report.scenarios.map((s: { id: string }) => s.id), [row.id]);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'out')).sort(), ['conformance.html', 'conformance.json', 'conformance.junit.xml', 'conformance.ndjson', 'report.html', 'summary.md']);
  assert.equal(report.run.source, 'out/conformance.ndjson');
  fs.rmSync(dir, { recursive: true });
});

test('scripts/conformance.sh is the CLI: a tag typo stops it before anything runs, with the nearest tag', async () => {
  const r = await promisify(execFile)('bash', [path.join(root, 'scripts', 'conformance.sh'), '--tags', '@area:targetting'], { cwd: os.tmpdir() }).catch((e: { code: number; stdout: string; stderr: string }) => e);
  assert.equal((r as { code?: number }).code, 2);
  assert.match(r.stderr, /^pmix-conformance: nothing was run:\n  - @area:targetting: no scenario has this tag; did you mean @area:targeting\?/);
});
