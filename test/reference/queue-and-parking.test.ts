/**
 * Requests and jobs waiting their turn: a queued EXTEND the scheduler still
 * cannot grant stays queued (IP-QUEUED-REQUESTS); a job terminated while
 * parked at the launch boundary is parked no more; a job naming its hosts
 * whose only session ended while it was parked fails to map.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { Directive, Key, Status } from '../../seam/pmix';
import { cluster, grown, idOf } from './support/engines';

const config = cluster({ schedulerNodes: 3, elastic: true });

test('a queued EXTEND the scheduler still cannot grant stays queued, pending (IP-QUEUED-REQUESTS)', () => {
  const e = new Engine({ ...config, elastic: false, scheduler: { whenShort: 'queue' } });
  const t = e.connectTool();
  const id = idOf(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 3, required: true }] }).info);
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 1, required: true }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'x' }] }).status, Status.PMIX_OPERATION_IN_PROGRESS);
  e.scheduler({ action: 'grant-queued' });
  assert.equal(e.queryAllocation({ requester: t, qualifiers: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'x' }] }).state, 'pending');
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_REQ_CANCEL, info: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'x' }] }).status, Status.PMIX_SUCCESS, 'still in the queue');
});

test('a job terminated while parked at the launch boundary is parked no more and never launches; a launched job\'s end frees its slots', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const id = grown(e, tool, 's1');
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [], hold: 'launch' }).nspace!;
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).status, Status.PMIX_SUCCESS);
  e.advanceJob({ nspace: job, to: 'launch' });
  assert.deepEqual(e.inspect().elastic!.parkedAtLaunch, [job]);
  assert.equal(e.terminateJob(job).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.inspect().elastic!.parkedAtLaunch, []);
  e.daemon({ event: 'exit', node: 's1' });
  const j = e.observe({ jobs: [job] }).jobs[0];
  assert.equal(j.state, 'TERMINATED');
  assert.ok(j.procs.every((p) => Number.isInteger(p.rank) && typeof p.node === 'string' && !p.running), JSON.stringify(j));
  // A job launched at the launch boundary gives its slots back when it ends.
  const other = e.spawn({ requester: tool, apps: [{ cmd: 'b', np: 2 }], info: [], hold: 'launch' }).nspace!;
  e.advanceJob({ nspace: other, to: 'launch' });
  assert.equal(e.observe({ jobs: [other] }).jobs[0].state, 'RUNNING');
  assert.equal(e.observe({ nodes: ['n1'] }).nodes[0].slotsInUse, 2);
  e.terminateJob(other);
  assert.equal(e.observe({ nodes: ['n1'] }).nodes[0].slotsInUse, 0);
});

test('a job naming its hosts, parked while its only session ended, fails to map; a tool app into an allocation with no node is refused', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const id = grown(e, tool, 's1');
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] });
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1, hosts: ['s1'] }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id }] }).nspace!;
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] });
  e.daemon({ event: 'exit', node: 's1' });
  e.daemon({ event: 'report', node: 's2' });
  e.daemon({ event: 'wireup' });
  assert.equal(e.observe({ jobs: [job] }).jobs[0].state, 'FAILED_TO_MAP');
  const empty = idOf(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 0 }] }).info);
  const before = e.observe();
  assert.equal(e.spawn({ requester: tool, apps: [{ cmd: 'dbg', np: 1, tool: true }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: empty }] }).status, Status.PMIX_ERR_OUT_OF_RESOURCE);
  assert.deepEqual(e.observe(), before);
});
