/**
 * Parked jobs when their peers or sessions change under them: terminating one
 * of two jobs parked at the launch boundary leaves the other parked, and it
 * launches once the shrink completes (IP-ELASTIC-LAUNCH-HOLD); a job naming a
 * host of the default session, parked while another of its sessions ended,
 * is admitted onto that host.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { Directive, Key } from '../../seam/pmix';
import { cluster, grown } from './support/engines';

const config = cluster({ startupSlots: 4, elastic: true });

test('terminating one of two jobs parked at the launch boundary leaves the other parked; it launches when the shrink completes', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const id = grown(e, tool, 's1');
  const a = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [], hold: 'launch' }).nspace!;
  const b = e.spawn({ requester: tool, apps: [{ cmd: 'b', np: 1 }], info: [], hold: 'launch' }).nspace!;
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] });
  e.advanceJob({ nspace: a, to: 'launch' });
  e.advanceJob({ nspace: b, to: 'launch' });
  assert.deepEqual(e.inspect().elastic!.parkedAtLaunch, [a, b]);
  e.terminateJob(a);
  assert.deepEqual(e.inspect().elastic!.parkedAtLaunch, [b]);
  e.daemon({ event: 'exit', node: 's1' });
  assert.deepEqual(e.observe({ jobs: [a, b] }).jobs.map((j) => j.state), ['TERMINATED', 'RUNNING']);
});

test('a job naming a host of the default session, parked while its other session ended, is admitted onto that host', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const id = grown(e, tool, 's1');
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] }); // the fence is up
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1, hosts: ['n1'] }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: [id, ''] }] }).nspace!;
  assert.equal(e.observe({ jobs: [job] }).jobs[0].state, 'WAITING_FOR_DAEMONS');
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] });
  e.daemon({ event: 'exit', node: 's1' });
  e.daemon({ event: 'report', node: 's2' });
  e.daemon({ event: 'wireup' });
  const j = e.observe({ jobs: [job] }).jobs[0];
  assert.equal(j.state, 'RUNNING');
  assert.deepEqual(j.procs.map((p) => p.node), ['n1']);
});
