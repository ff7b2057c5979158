/**
 * Lifecycle edges the scenarios do not reach: ending what has already ended
 * (a second termination must not count a job's end twice: NR.disp.child), the
 * job states teardown leaves (seam/messages.ts JobState: KILLED when its
 * nodes left, NEVER_LAUNCHED when the DVM went down before it launched, a
 * finished job keeps its end; NR.trigger.dvm-teardown), tool processes that
 * hold no slot giving none back, and scheduler or daemon actions naming
 * nothing (IP-WARNING-UNDELIVERABLE: dropped, nothing changes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { Directive, Inheritance, Key, Status } from '../../seam/pmix';
import { cluster, idOf } from './support/engines';

const config = cluster({ startupSlots: 4 });

test('a job or tool that has already ended cannot end again: the second call is refused and a CHILD reservation still waits for the live descendant', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const a = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [] }).nspace!;
  const made = e.allocate({ requester: { nspace: a, rank: 0 }, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_CHILD }] });
  assert.equal(made.status, Status.PMIX_SUCCESS);
  const b = e.spawn({ requester: { nspace: a, rank: 0 }, apps: [{ cmd: 'b', np: 1 }], info: [] }).nspace!;
  const c = e.spawn({ requester: { nspace: b, rank: 0 }, apps: [{ cmd: 'c', np: 1 }], info: [] }).nspace!;
  assert.equal(e.terminateJob(a).status, Status.PMIX_SUCCESS);
  assert.equal(e.terminateJob(b).status, Status.PMIX_SUCCESS);
  // c, a derived child of a (its grandchild), still runs: the CHILD reservation stays.
  for (const again of [a, b]) assert.equal(e.terminateJob(again).status, Status.PMIX_ERR_NOT_FOUND, `terminating ${again} again`);
  assert.equal(e.terminateJob('no-such-job').status, Status.PMIX_ERR_NOT_FOUND);
  assert.equal(e.observe({ nodes: ['s1'] }).nodes[0]?.availableTo, idOf(made.info), 'the reservation ended while a derived child still runs');
  assert.deepEqual(e.observe({ jobs: [a, b] }).jobs.map((j) => j.state), ['TERMINATED', 'TERMINATED']);
  assert.equal(e.terminateJob(c).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.observe({ nodes: ['s1'] }).nodes, [], 'CHILD: returned once the owner and its descendants have ended');

  assert.equal(e.disconnectTool(tool).status, Status.PMIX_SUCCESS);
  assert.equal(e.disconnectTool(tool).status, Status.PMIX_ERR_NOT_FOUND);
  assert.equal(e.disconnectTool({ nspace: 'no-such-tool', rank: 0 }).status, Status.PMIX_ERR_NOT_FOUND);
});

test('teardown ends every running job KILLED, a job held before launch NEVER_LAUNCHED, a finished job keeps its end, and every allocation with it', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  const done = e.spawn({ requester: tool, apps: [{ cmd: 'done', np: 1 }], info: [] }).nspace!;
  assert.equal(e.terminateJob(done).status, Status.PMIX_SUCCESS);
  const running = e.spawn({ requester: tool, apps: [{ cmd: 'run', np: 2 }], info: [] }).nspace!;
  const held = e.spawn({ requester: tool, apps: [{ cmd: 'held', np: 1 }], info: [], hold: 'map' });
  assert.equal(held.status, Status.PMIX_OPERATION_IN_PROGRESS);
  const heldAtLaunch = e.spawn({ requester: tool, apps: [{ cmd: 'held2', np: 1 }], info: [], hold: 'launch' }).nspace!;
  assert.equal(e.scheduler({ action: 'teardown' }).status, Status.PMIX_SUCCESS);
  const states = Object.fromEntries(e.observe().jobs.map((j) => [j.nspace, j.state]));
  assert.deepEqual(states, { [done]: 'TERMINATED', [running]: 'KILLED', [held.nspace!]: 'NEVER_LAUNCHED', [heldAtLaunch]: 'NEVER_LAUNCHED' });
  assert.ok(e.observe().jobs.every((j) => j.procs.every((p) => !p.running)), 'no process runs after teardown');
  assert.deepEqual(e.observe({ jobs: [running] }).jobs[0].procs.map((p) => [p.rank, p.running]), [[0, false], [1, false]], 'a killed job keeps its processes, stopped (ProcView: a process that has stopped keeps the node it last ran on)');
  assert.deepEqual(e.inspect().allocations, [], 'every reservation ended with the DVM');
});

test('a tool app\'s processes hold no slot, so their end gives none back (tool-process-slots=none)', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'app', np: 2 }], info: [] }).nspace!;
  const toolJob = e.spawn({ requester: tool, apps: [{ cmd: 'dbg', np: 2, tool: true }], info: [] }).nspace!;
  assert.equal(e.observe({ nodes: ['n1'] }).nodes[0].slotsInUse, 2);
  assert.equal(e.terminateJob(toolJob).status, Status.PMIX_SUCCESS);
  assert.equal(e.observe({ nodes: ['n1'] }).nodes[0].slotsInUse, 2);
  assert.equal(e.terminateJob(job).status, Status.PMIX_SUCCESS);
  assert.equal(e.observe({ nodes: ['n1'] }).nodes[0].slotsInUse, 0);
});

test('scheduler and daemon actions that name nothing change nothing; a warning is dropped, or relayed with only what the scheduler sent', () => {
  const e = new Engine({ ...config, elastic: true });
  const tool = e.connectTool();
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [] }).nspace!;
  const before = e.observe();
  const refused = (status: number, what: string) => assert.ok(typeof status === 'number' && status !== Status.PMIX_SUCCESS, `${what}: ${status}`);
  refused(e.scheduler({ action: 'reclaim', allocId: 'no-such-allocation' }).status, 'reclaim of nothing');
  assert.equal(e.scheduler({ action: 'timeout-warning', allocId: 'no-such-allocation', timeRemaining: 5 }).status, Status.PMIX_SUCCESS, 'a warning with nowhere to go is dropped, not refused');
  refused(e.daemon({ event: 'exit', node: 'nope' }).status, 'a daemon event for no node');
  refused(e.daemon({ event: 'report' }).status, 'a daemon event naming no node');
  refused(e.advanceJob({ nspace: 'no-such-job', to: 'launch' }).status, 'advancing no job');
  refused(e.advanceJob({ nspace: job, to: 'launch' }).status, 'advancing a running job');
  assert.deepEqual(e.observe(), before);
  // A warning without PMIX_TIME_REMAINING is relayed without it, to the requester only.
  const made = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [] });
  const id = idOf(made.info);
  assert.equal(e.scheduler({ action: 'timeout-warning', allocId: id }).status, Status.PMIX_SUCCESS);
  const warnings = e.observe().events.filter((ev) => ev.code === Status.PMIX_ALLOC_TIMEOUT_WARNING);
  assert.deepEqual(warnings.map((w) => [w.to.nspace, w.info]), [[tool.nspace, [{ key: Key.PMIX_ALLOC_ID, value: id }]]]);
});
