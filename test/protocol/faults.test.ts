/**
 * Testing the tester: deliberately misbehaving implementations (plain Node
 * scripts in fixtures/) must each produce a clear error from the subprocess
 * adapter, within the timeout, and must not poison the next scenario: a
 * fresh createImplementation() works again, in a new process when the old
 * one faulted, in the same one when it ended cleanly.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createImplementation, type SubprocessOptions } from '../../adapters/subprocess';
import { WireFault, type FaultKind } from '../../protocol/connection';
import type { Implementation } from '../../seam/implementation';
import type { ClusterSetup } from '../../seam/messages';

/** Short enough to keep the hang test quick, long enough that a crash on a loaded CI machine is still seen as a crash. */
const TIMEOUT_MS = 2000;
/** Generous for start-up, which is slow when many fixtures start at once on a small machine. */
const START_TIMEOUT_MS = 8000;
const SETUP: ClusterSetup = { startupNodes: [{ name: 'n1', slots: 2 }], schedulerNodes: [], withoutKeys: [], elastic: false };
const ALLOCATE = { requester: { nspace: 'tool@1', rank: 0 }, directive: 1, info: [] };

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
const commandFor = (script: string, ...args: string[]) => [process.execPath, path.join(__dirname, 'fixtures', script), ...args].map(quote).join(' ');
const fixture = (script: string, args: string[] = [], options: SubprocessOptions = {}) =>
  createImplementation({ command: commandFor(script, ...args), timeoutMs: TIMEOUT_MS, startTimeoutMs: START_TIMEOUT_MS, ...options });

/** Await `promise`, expecting a WireFault of `kind` whose message matches every pattern; returns the elapsed ms. */
async function fault(promise: Promise<unknown>, kind: FaultKind, ...patterns: RegExp[]): Promise<number> {
  const t0 = Date.now();
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof WireFault, `expected a WireFault, got ${String(e)}`);
    assert.equal(e.kind, kind, e.message);
    for (const p of patterns) assert.match(e.message, p);
    return true;
  });
  return Date.now() - t0;
}

/** A whole healthy scenario; returns the implementation's name (which carries the fixture's pid). */
async function healthyScenario(impl: Implementation): Promise<string> {
  const { name } = await impl.describe();
  await impl.start(SETUP);
  assert.deepEqual(await impl.allocate(ALLOCATE), { status: 0, info: [{ key: 'pmix.alloc.id', value: 'R1' }] });
  assert.deepEqual(await impl.observe({}), { nodes: [], jobs: [], events: [] });
  await impl.stop();
  return name;
}

/** Misbehaves on `allocate`, after a good handshake and start; then the next scenario must work in a new process. */
async function faultOnAllocate(script: string, args: string[], kind: FaultKind, ...patterns: RegExp[]): Promise<number> {
  const impl = fixture(script, args);
  const { name } = await impl.describe();
  await impl.start(SETUP);
  const elapsed = await fault(impl.allocate(ALLOCATE), kind, ...patterns);
  await fault(impl.observe({}), kind); // the session stays failed with the same cause
  await impl.stop(); // and can still be stopped, quietly
  const next = fixture(script, args); // the same misbehaving command, avoiding the command it misbehaves on
  const { name: nextName } = await next.describe();
  await next.start(SETUP);
  assert.deepEqual(await next.connectTool({ label: 'T' }), { proc: { nspace: 'tool@1', rank: 0 } });
  await next.stop();
  assert.notEqual(nextName, name, 'the next scenario runs in a new process');
  return elapsed;
}

// Each test uses its own command line, so its own processes: they can run side by side.
describe('the subprocess adapter against misbehaving implementations', { concurrency: true }, () => {
  test('a crash names the exit code, the request it was answering and the last stderr lines', async () => {
    // kind 'exit', not 'timeout': the crash itself is what is reported
    await faultOnAllocate('crash.js', ['allocate'], 'exit', /exited with code 3 while answering allocate \(seq 3\)/, /last stderr lines:\n {2}\| fixture: about to crash on allocate\n {2}\| fixture: crashing on allocate \(seq 3\)/);
  });

  test('a process killed by a signal is reported with the signal', async () => {
    await faultOnAllocate('crash.js', ['allocate', 'SIGKILL'], 'exit', /was killed by SIGKILL while answering allocate \(seq 3\)/);
  });

  test('a hang is reported when the timeout expires, and the process is killed', async () => {
    const elapsed = await faultOnAllocate('hang.js', ['allocate'], 'timeout', new RegExp(`no response to allocate \\(seq 3\\) within ${TIMEOUT_MS} ms; the implementation was killed`), /fixture: hanging on allocate/);
    // not before the timeout, and not at the default 10 s (the upper bound is loose: CI machines are busy)
    assert.ok(elapsed >= TIMEOUT_MS - 5 && elapsed < 15000, `reported after ${elapsed} ms`);
  });

  test('a line on stdout that is not JSON is a protocol fault that quotes the line', async () => {
    await faultOnAllocate('garbage.js', ['allocate'], 'protocol', /not a protocol message \(stdout must carry protocol lines only; diagnostics go to stderr\)/, /"hello from the implementation"/);
  });

  test('a response with a seq nobody asked for is a protocol fault naming both seqs', async () => {
    await faultOnAllocate('wrong-seq.js', ['allocate'], 'protocol', /answered seq 103, but the outstanding request is allocate \(seq 3\)/);
  });

  test('a response that breaks its schema names the message type, the field and the rule', async () => {
    await faultOnAllocate('invalid.js', ['allocate'], 'protocol', /the answer to allocate \(seq 3\) breaks the protocol: invalid allocate-response at \/status: must be integer \[rule: type\]/);
  });

  test('an error response fails that request only; the process carries on and is reused', async () => {
    const impl = fixture('error.js', ['allocate']);
    const { name } = await impl.describe();
    await impl.start(SETUP);
    await fault(impl.allocate(ALLOCATE), 'error-response', /answered allocate \(seq 3\) with an error \(internal\): cannot allocate: the DVM is not reachable\n {2}\| Error: connect ECONNREFUSED/);
    assert.deepEqual(await impl.observe({}), { nodes: [], jobs: [], events: [] });
    await impl.stop();
    assert.equal((await fixture('error.js', ['allocate']).describe()).name, name, 'the same process serves the next scenario');
  });

  test('an implementation that refuses the protocol version says which versions it speaks', async () => {
    await fault(fixture('refuse-version.js').describe(), 'version', /refused protocol version pmix-dynres-wire\/1: protocol pmix-dynres-wire\/1 is not supported \(it speaks pmix-dynres-wire\/0\)/);
    await healthyScenario(fixture('well-behaved.js'));
  });

  test('the runner refuses an implementation that answers another protocol version', async () => {
    const impl = fixture('other-version.js');
    await fault(impl.describe(), 'version', /answered protocol version pmix-dynres-wire\/0; this suite speaks pmix-dynres-wire\/1 only/);
    await fault(impl.start(SETUP), 'version'); // every later call of that scenario says the same
    await impl.stop();
  });

  test('a command that cannot be started is reported as such', async () => {
    const impl = createImplementation({ command: '/nonexistent/pmix-harness --flag', timeoutMs: TIMEOUT_MS });
    await fault(impl.describe(), 'spawn', /could not start the implementation `\/nonexistent\/pmix-harness --flag`: spawn \/nonexistent\/pmix-harness ENOENT/);
  });

  test('a process that exits while idle between scenarios is replaced for the next one', async () => {
    const first = await healthyScenario(fixture('exit-after.js', ['stop']));
    await new Promise((r) => setTimeout(r, 150));
    const second = await healthyScenario(fixture('exit-after.js', ['stop']));
    assert.notEqual(second, first);
  });

  test('a process whose scenario ended cleanly is reused; with PMIX_CONFORMANCE_PROCESS=fresh it is not', async () => {
    const a = await healthyScenario(fixture('well-behaved.js', ['reuse']));
    const b = await healthyScenario(fixture('well-behaved.js', ['reuse']));
    assert.equal(b, a);
    const c = await healthyScenario(fixture('well-behaved.js', ['fresh'], { process: 'fresh' }));
    const d = await healthyScenario(fixture('well-behaved.js', ['fresh'], { process: 'fresh' }));
    assert.notEqual(d, c);
  });

  test('two live scenarios never share a process', async () => {
    const one = fixture('well-behaved.js', ['concurrent']);
    const two = fixture('well-behaved.js', ['concurrent']);
    const [a, b] = await Promise.all([one.describe(), two.describe()]);
    assert.notEqual(a.name, b.name);
    await Promise.all([one.stop(), two.stop()]);
  });

  test('the adapter reads its settings from the environment, as the suite uses it', async () => {
    const saved = { command: process.env.PMIX_CONFORMANCE_COMMAND, timeout: process.env.PMIX_CONFORMANCE_TIMEOUT_MS, start: process.env.PMIX_CONFORMANCE_START_TIMEOUT_MS };
    process.env.PMIX_CONFORMANCE_COMMAND = commandFor('hang.js', 'observe');
    process.env.PMIX_CONFORMANCE_TIMEOUT_MS = '1500';
    process.env.PMIX_CONFORMANCE_START_TIMEOUT_MS = String(START_TIMEOUT_MS);
    try {
      const impl = createImplementation();
      await impl.start(SETUP);
      await fault(impl.observe({}), 'timeout', /within 1500 ms/);
    } finally {
      for (const [k, v] of [['PMIX_CONFORMANCE_COMMAND', saved.command], ['PMIX_CONFORMANCE_TIMEOUT_MS', saved.timeout], ['PMIX_CONFORMANCE_START_TIMEOUT_MS', saved.start]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});

describe('an implementation cannot flood the runner', { concurrency: true }, () => {
  test('a 50 MB answer line is a protocol fault naming the limit, not a hang', async () => {
    const impl = fixture('long-line.js');
    await impl.describe();
    await impl.start(SETUP);
    await fault(impl.allocate(ALLOCATE), 'protocol', /more than \d+ characters/, /PMIX_CONFORMANCE_MAX_LINE_BYTES/);
    await impl.stop();
  });

  test('20 MB of stderr without a newline is kept as a bounded tail', async () => {
    const impl = fixture('endless-stderr.js');
    await impl.describe();
    await impl.start(SETUP);
    let message = '';
    await assert.rejects(impl.allocate(ALLOCATE), (e: unknown) => {
      message = (e as Error).message;
      return e instanceof WireFault && e.kind === 'exit';
    });
    assert.match(message, /more characters\)/);
    assert.ok(message.length < 4000, `the fault message is ${message.length} characters long`);
    await impl.stop();
  });

  test('a child the implementation forked does not outlive it', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-forks-')), 'child.pid');
    const impl = fixture('forks.js', [pidFile], { process: 'fresh' }); // fresh: stop() ends the process
    await impl.describe();
    await impl.start(SETUP);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    assert.doesNotThrow(() => process.kill(pid, 0), 'the forked child runs while the implementation does');
    await impl.stop();
    // The adapter closes the process; give the group its SIGTERM/SIGKILL.
    for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(pid), false, `the forked child ${pid} outlived the implementation`);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
