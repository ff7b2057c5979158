/**
 * A departure completes every shrink that awaits it, a node already departing
 * starts no second shrink when it is released again, and teardown leaves no
 * campaign behind even when ending a parked job returns a reservation. Found
 * by the second reading of the equivalent mutants (test/mutation/
 * removed-equivalents.json): before, the scheduler's release by name of a
 * departing node opened a shrink that never completed, so the launch fence
 * stayed up and every later job parked for good.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { Directive, Inheritance, Key, Status } from '../../seam/pmix';
import { cluster, grown } from './support/engines';

const config = cluster({ schedulerNodes: 3, elastic: true });

test('a departing node released again by the scheduler starts no second shrink, and its one departure lowers the fence', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const id = grown(e, tool, 's1');
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).status, Status.PMIX_SUCCESS);
  const again = e.allocate({ requester: e.schedulerProc, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  assert.ok(again.status === Status.PMIX_SUCCESS || again.status < 0, 'answered');
  assert.deepEqual(e.inspect().elastic!.campaigns.map((c) => [c.kind, c.targets]), [['shrink', ['s1']]], 'one shrink, the release\'s');
  assert.equal(e.daemon({ event: 'exit', node: 's1' }).status, Status.PMIX_SUCCESS);
  const view = e.inspect().elastic!;
  assert.deepEqual([view.campaigns, view.fence], [[], 0]);
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'later', np: 1 }], info: [] }).nspace!;
  assert.equal(e.observe({ jobs: [job] }).jobs[0].state, 'RUNNING', 'a later job launches: the fence is down');
  const events = e.observe().events.filter((ev) => ev.code === Status.PMIX_DVM_IS_READY);
  assert.equal(events.filter((ev) => ev.to.nspace === e.schedulerProc.nspace).length, 0, 'the second release changed nothing: no event');
});

test('teardown with a parked job that owns a reservation leaves no shrink campaign open', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] });
  const parked = e.spawn({ requester: tool, apps: [{ cmd: 'p', np: 1 }], info: [] }).nspace!;
  assert.equal(e.observe({ jobs: [parked] }).jobs[0].state, 'WAITING_FOR_DAEMONS');
  const made = e.allocate({
    requester: tool,
    directive: Directive.PMIX_ALLOC_NEW,
    info: [
      { key: Key.PMIX_ALLOC_NODE_LIST, value: 's3' },
      { key: Key.PMIX_ALLOC_TARGET, value: parked },
      { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_NONE },
    ],
  });
  assert.equal(made.status, Status.PMIX_SUCCESS);
  e.scheduler({ action: 'teardown' });
  const view = e.inspect().elastic!;
  assert.deepEqual([view.campaigns, view.parkedAtMap, view.parkedAtLaunch, view.fence], [[], [], [], 0]);
});
