/**
 * A scenario whose spawn the implementation refused, and whose later steps
 * name that job, fails on the refusal (operation and status observed), not
 * with the suite's own "the scenario has no job" error (steps/support/world.ts,
 * jobNspace). Seen live: PRRTE under ras/slurm refuses a spawn with
 * PMIX_SPAWN_TARGET into a grown allocation with -23, and
 * new-and-extend.feature:186 and :275 then errored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { ConformanceWorld, spawnedJob } from '../../steps/support/world';
import { ConformanceFailure } from '../../steps/support/failures';
import { runSuite } from './run-suite';

function world(): ConformanceWorld {
  return new ConformanceWorld({ parameters: {}, attach: (() => undefined) as never, log: () => undefined, link: () => undefined });
}

test('spawnedJob reads the alias from both spawn steps\' operations, and nothing from other requests', () => {
  assert.equal(spawnedJob('job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=allocation R)'), 'C');
  assert.equal(spawnedJob('tool T: PMIx_Spawn(job probe-3: 1 x probe; PMIX_SPAWN_TARGET=allocation R)'), 'probe-3');
  assert.equal(spawnedJob('tool T: PMIx_Spawn(job C: 4 x C (tool app) + 2 x C-tool on s1,s2; no attributes), held before the launch boundary'), 'C');
  assert.equal(spawnedJob('job A: PMIx_Allocation_request(PMIX_ALLOC_EXTEND; PMIX_ALLOC_ID=allocation R)'), undefined);
});

test('a job whose spawn was refused: naming it fails, citing the refused spawn and its status, charged to the scenario\'s clauses', () => {
  const w = world();
  w.clauses = ['NR.own.child-added-on-spawn'];
  w.last = { operation: 'job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=allocation R)', status: -23, info: [] };
  w.last = { operation: 'job A: PMIx_Allocation_request(PMIX_ALLOC_NEW)', status: 0, info: [] };
  assert.throws(
    () => w.jobNspace('C'),
    (e: unknown) => {
      assert.ok(e instanceof ConformanceFailure);
      assert.equal(e.report.operation, 'job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=allocation R)');
      assert.match(e.report.observed, /refused with PMIX_ERR_NO_PERMISSIONS \(-23\)/);
      assert.deepEqual(e.report.clauses, ['NR.own.child-added-on-spawn']);
      return true;
    },
  );
  // A job the scenario never spawned is still the suite's own mistake.
  assert.throws(() => w.jobNspace('D'), (e: unknown) => !(e instanceof ConformanceFailure) && /has no job "D"/.test((e as Error).message));
  // Spawned again, and accepted: the refusal no longer speaks for it.
  w.last = { operation: 'job A: PMIx_Spawn(job C: 1 x C; no attributes)', status: 0, info: [], nspace: 'ns-C' };
  assert.equal(w.refusedJobs.has('C'), false);
});

test('run in process: the scenarios that spawn into a reservation and then use the job fail on the refused spawn, none errors', async () => {
  const run = await runSuite(path.join(__dirname, 'fixtures', 'refuses-targeted-spawn.ts'), ['features/reservation/new-and-extend.feature:186', 'features/reservation/new-and-extend.feature:275']);
  assert.equal(run.scenarios.length, 2);
  for (const s of run.scenarios) {
    assert.equal(s.outcome, 'failed', `${s.id}: ${s.message}`);
    assert.doesNotMatch(s.message ?? '', /has no job/);
    assert.match(s.message ?? '', /operation: job A: PMIx_Spawn\(job C: 1 x C; PMIX_SPAWN_TARGET=allocation R1?\)/);
    assert.match(s.message ?? '', /refused with PMIX_ERR_NO_PERMISSIONS \(-23\), so there is no job C/);
  }
});
