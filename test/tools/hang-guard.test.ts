/**
 * A hanging implementation ends the run early (steps/support/hang-guard.ts),
 * and smoke sends one request of every kind the harness declares, so a
 * harness that never answers one kind fails smoke in seconds. The fake
 * harness is test/protocol/fixtures/hang.js: it answers everything but the
 * command it is given (here: allocate).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { HangGuard, isTimeout, maxTimeouts } from '../../steps/support/hang-guard';
import { ImplementationFault } from '../../steps/support/failures';
import { readRun } from '../../tools/lib/run';
import { smoke } from '../../tools/lib/smoke';
import { REFERENCE_SERVER_COMMAND } from '../../adapters/subprocess';

const root = path.resolve(__dirname, '..', '..');
const neverAllocates = `node ${path.join(root, 'test', 'protocol', 'fixtures', 'hang.js')} allocate`;

test('the guard trips after K consecutive scenarios in which one request kind timed out, and names it', () => {
  const g = new HangGuard(3);
  for (let i = 0; i < 2; i++) {
    g.scenarioStarted();
    g.answered('observe');
    assert.equal(g.timedOut('allocate'), undefined);
    assert.equal(g.timedOut('allocate'), undefined, 'twice in one scenario counts once');
  }
  g.scenarioStarted(); // a scenario that sends no allocate neither extends nor ends the streak
  g.scenarioStarted();
  assert.equal(g.timedOut('allocate'), 'allocate never answered in 3 consecutive scenarios (PMIX_CONFORMANCE_MAX_TIMEOUTS=3)');
  const h = new HangGuard(2);
  h.scenarioStarted();
  h.timedOut('spawn');
  h.scenarioStarted();
  h.answered('spawn'); // an answer ends the streak
  h.scenarioStarted();
  assert.equal(h.timedOut('spawn'), undefined);
  const off = new HangGuard(0);
  for (let i = 0; i < 10; i++) {
    off.scenarioStarted();
    assert.equal(off.timedOut('allocate'), undefined, '0: never stop');
  }
});

test('K comes from PMIX_CONFORMANCE_MAX_TIMEOUTS (default 3); a timeout is told from other faults', () => {
  assert.equal(maxTimeouts({}), 3);
  assert.equal(maxTimeouts({ PMIX_CONFORMANCE_MAX_TIMEOUTS: '5' }), 5);
  assert.equal(maxTimeouts({ PMIX_CONFORMANCE_MAX_TIMEOUTS: '0' }), 0);
  assert.throws(() => maxTimeouts({ PMIX_CONFORMANCE_MAX_TIMEOUTS: 'x' }), /must be a whole number/);
  assert.ok(isTimeout(new ImplementationFault('allocate', 'no answer within 10000 ms')));
  assert.ok(isTimeout(new ImplementationFault('allocate', 'no response to allocate (seq 5) within 300 ms; the implementation was killed')));
  assert.ok(!isTimeout(new ImplementationFault('allocate', 'the implementation exited with code 3')));
});

test('a run against a harness that never answers allocate stops after 3 scenarios; the rest are skipped with the reason and the run fails', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hang-'));
  const ndjson = path.join(dir, 'm.ndjson');
  const cucumber = path.join(root, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
  const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', PMIX_CONFORMANCE_ADAPTER: 'adapters/subprocess', PMIX_CONFORMANCE_COMMAND: neverAllocates, PMIX_CONFORMANCE_TIMEOUT_MS: '300' };
  delete env.PMIX_CONFORMANCE_MAX_TIMEOUTS;
  const r = await promisify(execFile)(process.execPath, [cucumber, '--tags', '@area:routing', '--format', `message:${ndjson}`, '--format', 'summary'], { cwd: root, env }).catch((e: { stderr: string }) => e);
  assert.match(r.stderr, /pmix-conformance: stopping the run early: allocate never answered in 3 consecutive scenarios/);
  const run = readRun(ndjson);
  assert.equal(run.stoppedEarly, 'allocate never answered in 3 consecutive scenarios (PMIX_CONFORMANCE_MAX_TIMEOUTS=3)');
  assert.equal(run.scenarios.filter((s) => s.outcome === 'errored').length, 3);
  const notRun = run.scenarios.filter((s) => s.skip?.capability === 'hang-guard');
  assert.ok(notRun.length > 5, `${notRun.length} scenarios not run`);
  assert.match(notRun[0].skip!.reason, /^not run: the run stopped early: allocate never answered/);
  fs.rmSync(dir, { recursive: true });
});

test('smoke sends one request of every kind the harness declares, so one that never answers allocate fails it', async () => {
  const hung = await smoke({ command: neverAllocates, cwd: root, timeoutMs: 500 });
  assert.equal(hung.ok, false);
  const last = hung.steps[hung.steps.length - 1];
  assert.match(last.step, /^scenario 1: allocate/);
  assert.match(last.detail, /no response to allocate \(seq \d+\) within 500 ms/);
  const good = await smoke({ command: REFERENCE_SERVER_COMMAND, cwd: root });
  assert.equal(good.ok, true);
  const sent = good.steps.map((s) => /^scenario 1: ([a-z-]+) \(one valid request/.exec(s.step)?.[1]).filter(Boolean);
  // The reference server declares every capability: every kind is sent.
  assert.deepEqual(sent, ['connect-tool', 'allocate', 'query-allocation', 'spawn', 'advance-job', 'terminate-job', 'inspect', 'scheduler', 'daemon', 'disconnect-tool']);
});
