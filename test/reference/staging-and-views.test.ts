/**
 * Job staging (SpawnRequest.hold, AdvanceJobRequest: seam/messages.ts), who
 * counts as a live requester, and the elastic introspection view
 * (CampaignView): the test hooks the elastic scenarios stand on, checked
 * directly where the scenarios do not look.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { Directive, Key, Status } from '../../seam/pmix';
import { cluster, idOf } from './support/engines';

const config = cluster({ startupSlots: 4, elastic: true });

test('a job held at map moves on only as asked: to map and held again before launch, then to launch; a wrong advance is refused', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const held = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [], hold: 'map' }).nspace!;
  const state = () => e.observe({ jobs: [held] }).jobs[0];
  assert.equal(state().state, 'PENDING');
  assert.equal(e.advanceJob({ nspace: held, to: 'map', holdBeforeLaunch: true }).status, Status.PMIX_SUCCESS);
  assert.equal(state().state, 'PENDING', 'mapped and held before the launch boundary');
  assert.equal(state().procs.length, 1, 'it is mapped');
  assert.ok(state().procs.every((p) => !p.running));
  assert.equal(e.advanceJob({ nspace: held, to: 'map' }).status, Status.PMIX_ERR_BAD_PARAM, 'it is past the map-eligible boundary already');
  assert.equal(state().state, 'PENDING');
  assert.equal(e.advanceJob({ nspace: held, to: 'launch' }).status, Status.PMIX_SUCCESS);
  assert.equal(state().state, 'RUNNING');
  assert.equal(e.advanceJob({ nspace: held, to: 'launch' }).status, Status.PMIX_ERR_BAD_PARAM, 'it runs already');

  // Held at map, advanced to map without holding again: it runs.
  const second = e.spawn({ requester: tool, apps: [{ cmd: 'b', np: 1 }], info: [], hold: 'map' }).nspace!;
  assert.equal(e.advanceJob({ nspace: second, to: 'map' }).status, Status.PMIX_SUCCESS);
  assert.equal(e.observe({ jobs: [second] }).jobs[0].state, 'RUNNING');
  // Held at map, advanced straight to launch: it maps and runs.
  const third = e.spawn({ requester: tool, apps: [{ cmd: 'c', np: 1 }], info: [], hold: 'map' }).nspace!;
  assert.equal(e.advanceJob({ nspace: third, to: 'launch', holdBeforeLaunch: true }).status, Status.PMIX_SUCCESS);
  assert.equal(e.observe({ jobs: [third] }).jobs[0].state, 'RUNNING', 'holdBeforeLaunch applies only when reaching map');
  // Held at launch: advancing to map is refused.
  const fourth = e.spawn({ requester: tool, apps: [{ cmd: 'd', np: 1 }], info: [], hold: 'launch' }).nspace!;
  assert.equal(e.observe({ jobs: [fourth] }).jobs[0].state, 'PENDING');
  assert.equal(e.advanceJob({ nspace: fourth, to: 'map' }).status, Status.PMIX_ERR_BAD_PARAM);
  assert.equal(e.observe({ jobs: [fourth] }).jobs[0].state, 'PENDING');
});

test('only a live process may ask: not a tool\'s other ranks, not a rank a job does not have, not a job held before launch or ended', () => {
  const e = new Engine({ ...config, elastic: false });
  const tool = e.connectTool();
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 2 }], info: [] }).nspace!;
  const held = e.spawn({ requester: tool, apps: [{ cmd: 'h', np: 1 }], info: [], hold: 'launch' }).nspace!;
  const ended = e.spawn({ requester: tool, apps: [{ cmd: 'e', np: 1 }], info: [] }).nspace!;
  e.terminateJob(ended);
  const before = { snap: e.observe(), intro: e.inspect() };
  for (const who of [{ nspace: tool.nspace, rank: 1 }, { nspace: job, rank: 2 }, { nspace: held, rank: 0 }, { nspace: ended, rank: 0 }]) {
    const r = e.allocate({ requester: who, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }] });
    assert.equal(r.status, Status.PMIX_ERR_UNREACH, JSON.stringify(who));
    assert.equal(e.spawn({ requester: who, apps: [{ cmd: 'x', np: 1 }], info: [] }).status, Status.PMIX_ERR_UNREACH, JSON.stringify(who));
    assert.equal(e.allocate({ requester: who, directive: Directive.PMIX_ALLOC_REQ_CANCEL, info: [] }).status, Status.PMIX_ERR_UNREACH, JSON.stringify(who));
  }
  assert.deepEqual({ snap: e.observe(), intro: e.inspect() }, before);
  assert.equal(e.allocate({ requester: { nspace: job, rank: 1 }, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }] }).status, Status.PMIX_SUCCESS, 'rank 1 of a running job may');
});

test('the elastic view names each campaign\'s allocation, request id and requester when it has them, and none for a scheduler push', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const r = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'g' }] });
  const allocId = idOf(r.info);
  assert.equal(e.scheduler({ action: 'add-nodes', nodes: ['s2'] }).status, Status.PMIX_SUCCESS);
  const [grow, push] = e.inspect().elastic!.campaigns;
  assert.deepEqual(grow, { id: grow.id, kind: 'grow', targets: ['s1'], pending: ['s1'], allocId, reqId: 'g', requester: tool });
  assert.deepEqual(push, { id: push.id, kind: 'grow', targets: ['s2'], pending: ['s2'] });
  assert.notEqual(grow.id, push.id);
  assert.equal(e.inspect().elastic!.fence, 2);
});
