/** The benchmark's live section (bench/live.ts): its options, its pool, its comparisons and table, and the setups adapter. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createImplementation, STOPPED_HERE } from '../../bench/live-setups-adapter';
import { liveOptions, liveTable, outcomeDifferences, prefixProblem, ratios, runPool, whyNoReport, type LiveResult } from '../../bench/live';

const none = { rest: [] as string[] };

test('the live section runs only when a PRRTE is given or --only names it, and says plainly what is missing', () => {
  assert.equal(liveOptions(none, {}, 2), undefined);
  assert.equal(liveOptions({ ...none, only: ['suite'] }, { PRRTE_PREFIX: '/p' }, 2), undefined, 'PRRTE_PREFIX alone does not add a half-hour section');
  const o = liveOptions({ ...none, prrte: '/p' }, {}, 2);
  assert.deepEqual(o, { prefix: '/p', given: '--prrte /p', jobs: 2, parts: ['floor', 'serial', 'parallel'], args: [] });
  assert.deepEqual(liveOptions({ ...none, only: ['live'] }, { PRRTE_PREFIX: '/q' }, 6), { prefix: '/q', given: 'PRRTE_PREFIX=/q', jobs: 6, parts: ['floor', 'serial', 'parallel'], args: [] });
  const missing = liveOptions({ ...none, only: ['live'] }, {}, 2);
  assert.ok(missing instanceof Error && /cannot run: no PRRTE install was given \(--prrte PREFIX/.test(missing.message), String(missing));
  const stray = liveOptions({ rest: ['features/x.feature'], jobs: '4' }, {}, 2);
  assert.ok(stray instanceof Error && /--jobs, arguments after -- are for the live section/.test(stray.message), String(stray));
});

test('--jobs, --live-parts and the selection', () => {
  const o = liveOptions({ prrte: '/p', jobs: '6', parts: 'floor,parallel', rest: ['features/a.feature', '--name', 'two words'] }, {}, 2);
  assert.deepEqual(o, { prefix: '/p', given: '--prrte /p', jobs: 6, parts: ['floor', 'parallel'], args: ['features/a.feature', '--name', 'two words'] });
  for (const jobs of ['0', 'x', '1.5']) assert.ok(liveOptions({ ...none, prrte: '/p', jobs }, {}, 2) instanceof Error, jobs);
  assert.ok(liveOptions({ ...none, prrte: '/p', jobs: '1' }, {}, 2) instanceof Error, 'a parallel run at --jobs 1 is the serial run');
  assert.deepEqual((liveOptions({ ...none, prrte: '/p', jobs: '1', parts: 'floor,serial' }, {}, 2) as { jobs: number }).jobs, 1);
  const bad = liveOptions({ ...none, prrte: '/p', parts: 'floor,quick' }, {}, 2);
  assert.ok(bad instanceof Error && /--live-parts takes floor, serial, parallel/.test(bad.message));
});

test('a prefix that is not an openpmix+prrte install is named as given, with what is missing', () => {
  const has = (files: string[]) => (p: string) => files.includes(p);
  assert.equal(prefixProblem('/i', '--prrte /i', has(['/i', '/i/bin/prte', '/i/include/pmix.h'])), undefined);
  assert.match(prefixProblem('/i', '--prrte /i', has(['/i', '/i/bin/prte']))!, /--prrte \/i is not an openpmix\+prrte install \(include\/pmix\.h missing there\)/);
  assert.match(prefixProblem('/typo', 'PRRTE_PREFIX=/typo', has([]))!, /cannot run: PRRTE_PREFIX=\/typo: no such directory/);
});

test('runPool keeps at most `workers` going, hands the next item to whichever is free, and keeps the order', async () => {
  let running = 0;
  let most = 0;
  const workersSeen = new Set<number>();
  const out = await runPool([30, 5, 5, 5, 20, 1], 3, async (ms, w, i) => {
    workersSeen.add(w);
    most = Math.max(most, ++running);
    await new Promise((r) => setTimeout(r, ms));
    running--;
    return i * 10;
  });
  assert.deepEqual(out, [0, 10, 20, 30, 40, 50]);
  assert.equal(most, 3);
  assert.deepEqual([...workersSeen].sort(), [0, 1, 2]);
  assert.deepEqual(await runPool([], 4, async () => 1), []);
});

test('outcome differences and ratios to the floor', () => {
  assert.deepEqual(outcomeDifferences({ a: 'passed', b: 'failed', c: 'skipped' }, { a: 'passed', b: 'errored', d: 'passed' }), [
    { id: 'b', a: 'failed', b: 'errored' },
    { id: 'c', a: 'skipped', b: 'not run' },
    { id: 'd', a: 'not run', b: 'passed' },
  ]);
  assert.deepEqual(ratios(10, 40, 20), { serialOverFloor: 4, parallelOverFloor: 2, serialOverParallel: 2 });
  assert.deepEqual(ratios(undefined, 40, undefined), { serialOverFloor: undefined, parallelOverFloor: undefined, serialOverParallel: undefined });
});

test('a live run that made no report says why, in its own words', () => {
  const log = 'agent_common: all checks passed\npmix-conformance: nothing was run:\n  - prrte.json: features/a.feature:200: names no scenario of the suite\n  - more\nlive run: 1 s wall, 1 at a time (exit 2)\n';
  assert.equal(whyNoReport(log), ': nothing was run: - prrte.json: features/a.feature:200: names no scenario of the suite');
  assert.equal(whyNoReport('killed\n'), '');
});

test('the table puts the floor, the serial and the parallel run side by side with their ratios', () => {
  const r: LiveResult = {
    machine: { cpus: 2, loadavg: [1, 1, 1] },
    date: '2026-11-28T00:00:00Z',
    prefix: '/i',
    jobs: 2,
    selection: { args: ['features/x.feature', '--name', 'a grow'], selected: 5, run: 4, skipped: 1, dvms: 4, passS: 3 },
    floor: { jobs: 2, dvms: 4, wallS: 10, bridgeProcesses: 2, startS: { median: 2, max: 3 }, stopS: { median: 0.5, max: 1 }, failures: [] },
    serial: { jobs: 1, wallS: 40, exit: 0, reports: 'r/s', log: 'r/s.log', totals: { scenarios: 5, passed: 4, skipped: 1 }, matchesExpectations: true },
    parallel: { jobs: 2, wallS: 25, exit: 1, reports: 'r/p', log: 'r/p.log', totals: { scenarios: 5, passed: 3, failed: 1, skipped: 1 }, matchesExpectations: false },
    ratios: ratios(10, 40, 25),
    outcomesDiffer: [{ id: 'features/x.feature:9', serial: 'passed', parallel: 'failed' }],
    load: { start: [1, 0.5, 0.25] },
    elapsedS: 80,
  };
  const t = liveTable(r);
  assert.match(t, /selection: features\/x\.feature --name "a grow"\n/);
  assert.match(t, /5 scenarios selected, 4 run \(1 skipped for what the bridge declares\), 4 DVMs started/);
  assert.match(t, /floor: 4 DVMs started and stopped, 2 at a time\s+10\.0\s+1\.00x/);
  assert.match(t, /serial live run \(scripts\/prrte-run\.sh --jobs 1\)\s+40\.0\s+4\.00x\s+5 scenarios: 4 passed, 0 failed, 0 errored, 1 skipped; exit 0, as expected/);
  assert.match(t, /parallel live run \(scripts\/prrte-run\.sh --jobs 2\)\s+25\.0\s+2\.50x/);
  assert.match(t, /serial \/ parallel\s+1\.60x/);
  assert.match(t, /1 scenario\(s\) differ between serial and parallel:\n {4}features\/x\.feature:9: serial passed, parallel failed/);
});

test('the setups adapter describes itself as the bridge, writes down every start and refuses the rest at once', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'live-setups-test-'));
  const desc = path.join(dir, 'd.json');
  const setups = path.join(dir, 's.ndjson');
  fs.writeFileSync(desc, JSON.stringify({ name: 'prrte-bridge', version: 'v', capabilities: ['elastic'], readings: { r: 'x' }, effectsTrailAnswers: true, quietMs: 3000 }));
  const saved = { d: process.env.PMIX_BENCH_LIVE_DESCRIPTION, s: process.env.PMIX_BENCH_LIVE_SETUPS };
  process.env.PMIX_BENCH_LIVE_DESCRIPTION = desc;
  process.env.PMIX_BENCH_LIVE_SETUPS = setups;
  try {
    const impl = createImplementation();
    const d = await impl.describe();
    assert.equal(d.name, 'prrte-bridge');
    assert.deepEqual(d.capabilities, ['elastic']);
    assert.deepEqual(d.readings, { r: 'x' });
    assert.notEqual(d.effectsTrailAnswers, true, 'nothing waits for quiet: the reference engine\'s effects do not trail');
    const setup = { startupNodes: [{ name: 'n1', slots: 2 }], schedulerNodes: [{ name: 's1', slots: 4 }], withoutKeys: [], elastic: true };
    await impl.start(setup);
    await assert.rejects(impl.observe({}), { message: STOPPED_HERE }, 'nothing after the start is needed, and nothing is waited for');
    await assert.rejects(impl.connectTool({ label: 'T' }), { message: STOPPED_HERE });
    await impl.stop();
    assert.deepEqual(fs.readFileSync(setups, 'utf8').trim().split('\n').map((l) => JSON.parse(l)), [setup]);
  } finally {
    process.env.PMIX_BENCH_LIVE_DESCRIPTION = saved.d;
    process.env.PMIX_BENCH_LIVE_SETUPS = saved.s;
    if (saved.d === undefined) delete process.env.PMIX_BENCH_LIVE_DESCRIPTION;
    if (saved.s === undefined) delete process.env.PMIX_BENCH_LIVE_SETUPS;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
