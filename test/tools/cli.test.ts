/** The pmix-conformance command line: help, argument handling, and the smoke test against good and broken harnesses. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { REFERENCE_SERVER_COMMAND } from '../../adapters/subprocess';
import { shellWords } from '../../protocol/shell-words';
import { commandIn, main, parseArgs, tagExpression, UsageError } from '../../tools/cli';
import { smoke } from '../../tools/lib/smoke';
import { READINGS } from '../../seam/readings';

const root = path.resolve(__dirname, '..', '..');
const fixture = (name: string) => `node ${path.join(root, 'test', 'protocol', 'fixtures', name)}`;

// The two slow ones (a TypeScript start each) begin at once and run while the other tests do.
const settled = <T>(p: Promise<T>) => p.then((value) => ({ value }), (error: unknown) => ({ error }));
const help = settled(promisify(execFile)(process.execPath, [path.join(root, 'bin', 'pmix-conformance.js'), '--help'], { cwd: root }));
const referenceSmoke = settled(smoke({ command: REFERENCE_SERVER_COMMAND, cwd: root }));
async function result<T>(p: Promise<{ value: T } | { error: unknown }>): Promise<T> {
  const r = await p;
  if ('error' in r) throw r.error;
  return r.value;
}

/** Run main() in-process, capturing what it prints (console only: the test runner reports on stdout). */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const saved = { log: console.log, error: console.error };
  console.log = console.error = (...a: unknown[]) => void lines.push(a.join(' '));
  try {
    const code = await main(args, root);
    return { code, out: lines.join('\n') };
  } finally {
    Object.assign(console, saved);
  }
}

test('bin/pmix-conformance.js --help says what the suite is, its commands, and examples', async () => {
  const { stdout } = await result(help);
  for (const want of [/conformance suite/, /Usage:/, /smoke\s+Check that a harness speaks the wire protocol/, /--command "<cmd>"/, /--expect <file>/, /summary\.md\s+read this first/, /Exit status: 0 when every outcome matches the expectations/, /Examples:\n  pmix-conformance smoke --command/]) {
    assert.match(stdout, want);
  }
});

test('run is the default command; --area becomes an @area: tag, combined with --tags', () => {
  assert.deepEqual(parseArgs([]), { cmd: 'run', options: { tags: [], areas: [], reports: 'reports', cucumberArgs: [] } });
  const p = parseArgs(['--adapter', 'x.ts', '--tags', '@needs:elastic', '--area', 'targeting', '--area', 'routing', '--', 'features/reservation']);
  assert.equal(p.cmd, 'run');
  if (p.cmd !== 'run') return;
  assert.equal(tagExpression(p.options), '(@needs:elastic) and (@area:targeting or @area:routing)');
  assert.deepEqual(p.options.cucumberArgs, ['features/reservation']);
  assert.deepEqual(parseArgs(['compare', 'a.json', 'b.json']), { cmd: 'compare', a: 'a.json', b: 'b.json' });
});

test('usage errors say what is wrong, and exit 2', async () => {
  assert.throws(() => parseArgs(['--adapter', 'a', '--command', 'b']), UsageError);
  assert.throws(() => parseArgs(['smoke']), /smoke needs --command/);
  assert.throws(() => parseArgs(['--frobnicate']), /unknown option "--frobnicate"/);
  assert.throws(() => parseArgs(['--expect']), /--expect needs a value/);
  const r = await cli(['run', '--area', 'no-such-area']);
  assert.equal(r.code, 2);
  assert.match(r.out, /no scenario is in area "no-such-area"; the areas are: .*targeting/);
});

test('a harness command runs in the user\'s directory, its words intact', () => {
  assert.equal(commandIn('python3 h.py', root), 'python3 h.py');
  const words = shellWords(commandIn("python3 'my harness.py' --x", "/tmp/it's here"));
  assert.deepEqual(words, ['sh', '-c', 'cd "$0" && exec "$@"', "/tmp/it's here", 'python3', 'my harness.py', '--x']);
});

test('smoke: a harness that logs on stdout is stopped at the first such line, with what to fix', async () => {
  const r = await smoke({ command: `${fixture('garbage.js')} start`, timeoutMs: 3000 });
  assert.equal(r.ok, false);
  const last = r.steps[r.steps.length - 1];
  assert.equal(last.step, 'scenario 1: start a DVM (startup node n1, schedulable node s1)');
  assert.match(last.detail, /"hello from the implementation"/);
  assert.match(last.hint!, /logs and banners go to stderr/);
});

test('smoke (through the CLI): a harness that crashes, refuses the version, or does not exist fails with exit status 1 and a diagnosis', async () => {
  const crash = await cli(['smoke', '--command', `${fixture('crash.js')} observe`]);
  assert.equal(crash.code, 1);
  assert.match(crash.out, /FAIL scenario 1: observe\n\s+the implementation .* exited with code 3 while answering observe/);
  assert.match(crash.out, /\| fixture: crashing on observe/);
  assert.match(crash.out, /FAILED at "scenario 1: observe"/);
  const version = await cli(['smoke', '--command', fixture('refuse-version.js')]);
  assert.equal(version.code, 1);
  assert.match(version.out, /refused protocol version pmix-dynres-wire\/1.*it speaks pmix-dynres-wire\/0/);
  const missing = await cli(['smoke', '--command', './no-such-harness --flag']);
  assert.equal(missing.code, 1);
  assert.match(missing.out, /could not start the implementation[\s\S]*check the program path/);
});

test('smoke: the reference server speaks the protocol (handshake, then start, observe, one request of every kind, stop; start, observe, stop again)', async () => {
  const r = await result(referenceSmoke);
  assert.equal(r.ok, true, JSON.stringify(r.steps));
  assert.equal(r.steps.length, 17);
  assert.match(r.steps[0].detail, /"reference engine" version 0\.1\.0 speaks pmix-dynres-wire\/1; declares PMIX_ALLOC_TARGET/);
  assert.doesNotMatch(r.steps[0].detail, /not declared/, 'the reference engine declares every reading');
  assert.match(r.steps[2].detail, /1 node\(s\) \[n1\]/);
});

test('smoke: a harness that declares no reading is told so after the handshake, a line per reading, and the handshake still passes', async () => {
  const r = await smoke({ command: fixture('well-behaved.js'), timeoutMs: 3000 });
  const handshake = r.steps[0];
  assert.equal(handshake.ok, true);
  for (const name of Object.keys(READINGS)) assert.match(handshake.detail, new RegExp(`^reading "${name}" not declared \\(.*\\): the checks that hold under one value only are skipped; what holds under every value still runs$`, 'm'));
});

// A run that would test nothing, or judge against a broken file, never starts.
test('a --tags with a misspelt area stops before the run, exit 2, naming the nearest area', async () => {
  const { code, out } = await cli(['run', '--tags', '@area:routng']);
  assert.equal(code, 2);
  assert.match(out, /nothing was run/);
  assert.match(out, /did you mean @area:routing\?/);
});

test('a --tags that names no existing capability, or selects no scenario, stops before the run', async () => {
  const unknown = await cli(['run', '--tags', '@needs:no-such-capability']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.out, /@needs:no-such-capability: no scenario has this tag/);
  const empty = await cli(['run', '--tags', '@area:routing and @area:elastic-shrink']);
  assert.equal(empty.code, 2);
  assert.match(empty.out, /selects no scenario/);
  const wildcard = await cli(['run', '--tags', '@area:*']);
  assert.equal(wildcard.code, 2);
  assert.match(wildcard.out, /no wildcards/);
});

test('an expectations file is checked before the run, and every problem is reported at once', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-exp-')), 'bad.json');
  fs.writeFileSync(file, JSON.stringify({ implementation: 'x', expected: [{ id: 'features/nowhere.feature:1', reason: 'r' }, { id: 'features/nowhere.feature:2', reason: 'r' }] }));
  const { code, out } = await cli(['run', '--area', 'routing', '--expect', file]);
  assert.equal(code, 2);
  assert.match(out, /nowhere\.feature:1: names no scenario/);
  assert.match(out, /nowhere\.feature:2: names no scenario/);
});

test('a harness command that cannot start is diagnosed once, and nothing is run', async () => {
  const { code, out } = await cli(['run', '--area', 'routing', '--command', 'no-such-command-anywhere']);
  assert.equal(code, 2);
  assert.match(out, /^pmix-conformance: nothing was run: the harness `no-such-command-anywhere` failed at "start the process and shake hands \(start-protocol\)": .* \(diagnosis: pmix-conformance smoke --command "no-such-command-anywhere"\)$/);
  assert.equal(out.split('\n').length, 1, 'one line');
});

test('an adapter module that cannot be loaded stops the run at once, with one diagnosis (not one per scenario)', async () => {
  const cucumber = path.join(root, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
  const r = await settled(promisify(execFile)(process.execPath, [cucumber, '--format', 'summary'], { cwd: root, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', PMIX_CONFORMANCE_ADAPTER: 'adapters/no-such-adapter' } }));
  assert.ok('error' in r, 'the run must fail');
  const e = r.error as { stdout: string; stderr: string; code: number };
  const text = `${e.stdout}${e.stderr}`;
  assert.notEqual(e.code, 0);
  assert.match(text, /the adapter module .*no-such-adapter cannot be loaded/);
  assert.ok(text.split('\n').length < 80, `${text.split('\n').length} lines of output`);
});

test('on a fresh clone (no node_modules) the CLI says the one command to run instead of crashing', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-fresh-'));
  fs.mkdirSync(path.join(clone, 'bin'));
  fs.copyFileSync(path.join(root, 'bin', 'pmix-conformance.js'), path.join(clone, 'bin', 'pmix-conformance.js'));
  const r = await settled(promisify(execFile)(process.execPath, [path.join(clone, 'bin', 'pmix-conformance.js'), '--help'], { cwd: clone, env: { ...process.env, NODE_PATH: '' } }));
  assert.ok('error' in r);
  const e = r.error as { stderr: string; code: number };
  assert.equal(e.code, 2);
  assert.match(e.stderr, /run `npm ci`/);
});

test('a run that completes but whose reports cannot be written keeps its message stream and says how to make them again', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-keep-'));
  const adapter = path.join(root, 'test', 'tools', 'fixtures', 'describes-an-unknown-field.ts');
  const { code, out } = await cli(['run', '--adapter', adapter, '--reports', reports, '--area', 'isolation']).catch((e: Error) => ({ code: -1, out: e.message }));
  const kept = /its message stream is kept in (\S+) \(make the reports again with: ([^)]*)\)/.exec(out);
  assert.ok(kept, `no word of the kept stream in: ${out.slice(-600)} (exit ${code})`);
  assert.ok(fs.existsSync(path.join(kept[1], 'conformance.ndjson')), 'the message stream is still there');
  fs.rmSync(kept[1], { recursive: true, force: true });
  fs.rmSync(reports, { recursive: true, force: true });
});
