/**
 * The reference engine at the edges the scenarios do not reach: requests
 * after the DVM is torn down (NR.trigger.dvm-teardown: every session ends
 * with it, so nothing can be reserved, spawned or added afterwards, and an
 * answer still has the shape of an answer), a scheduler pushing nodes that
 * are not its to push, observations naming what does not exist, and the
 * introspection view's promises (seam/messages.ts AllocationView).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { Directive, Key, Status } from '../../seam/pmix';
import { cluster, idOf } from './support/engines';

const config = cluster({ schedulerNodes: 3 });

function tornDown() {
  const e = new Engine(config);
  const tool = e.connectTool();
  const r = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }] });
  assert.equal(r.status, Status.PMIX_SUCCESS);
  const allocId = idOf(r.info);
  assert.equal(e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [] }).status, Status.PMIX_SUCCESS);
  assert.equal(e.scheduler({ action: 'teardown' }).status, Status.PMIX_SUCCESS);
  return { e, tool, allocId };
}

test('after teardown no request reserves, spawns or adds a node, and each answer is a refusal with nothing in it', () => {
  const { e, tool, allocId } = tornDown();
  const gone = e.observe();
  assert.deepEqual(gone.nodes, [], 'every node left with the DVM');
  const refused = (status: number, what: string) => assert.ok(typeof status === 'number' && status !== Status.PMIX_SUCCESS, `${what} after teardown answered ${status}`);

  const a = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }] });
  refused(a.status, 'a NEW');
  assert.deepEqual(a.info, [], 'a refused NEW carries no info');
  const s = e.spawn({ requester: tool, apps: [{ cmd: 'b', np: 1 }], info: [] });
  refused(s.status, 'a spawn');
  assert.deepEqual(s.info, [], 'a refused spawn carries no info');
  assert.equal(s.nspace, undefined, 'a refused spawn names no job');
  refused(e.scheduler({ action: 'add-nodes', nodes: ['s2'] }).status, 'add-nodes');
  refused(e.scheduler({ action: 'reclaim', allocId }).status, 'a reclaim');
  refused(e.scheduler({ action: 'grant-queued' }).status, 'grant-queued');
  refused(e.queryAllocation({ requester: tool, qualifiers: [{ key: Key.PMIX_ALLOC_ID, value: allocId }] }).status, 'a status query');
  assert.deepEqual(e.observe(), gone, 'a request after teardown changed what a client can observe');
});

test('the scheduler cannot push a node it does not hold: none, one already in the DVM, or one it never had; nothing changes', () => {
  const e = new Engine(config);
  const before = e.observe();
  for (const nodes of [[], ['n1'], ['nope'], ['s1', 'n1']]) {
    assert.equal(e.scheduler({ action: 'add-nodes', nodes }).status, Status.PMIX_ERR_BAD_PARAM, JSON.stringify(nodes));
    assert.deepEqual(e.observe(), before, `add-nodes ${JSON.stringify(nodes)} changed the DVM`);
  }
  assert.equal(e.scheduler({ action: 'add-nodes', nodes: ['s1', 's2'] }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.observe().nodes.map((n) => [n.name, n.availableTo]), [['n1', ''], ['s1', ''], ['s2', '']], 'pushed nodes join the default session');
});

test('an observation naming a node or job that does not exist leaves it out', () => {
  const e = new Engine(config);
  const snap = e.observe({ nodes: ['n1', 'nope', 's1'], jobs: ['no-such-job'] });
  assert.deepEqual(snap.nodes.map((n) => n.name), ['n1'], 's1 is not in the DVM, nope does not exist');
  assert.deepEqual(snap.jobs, []);
});

test('introspection: each allocation with its request id when it had one, its owners, requester and nodes', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [] }).nspace!;
  const withId = e.allocate({ requester: { nspace: job, rank: 0 }, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'mine' }] });
  const without = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] });
  const id1 = idOf(withId.info);
  const id2 = idOf(without.info);
  // A job spawned into the first becomes an owner of it.
  const child = e.spawn({ requester: { nspace: job, rank: 0 }, apps: [{ cmd: 'c', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id1 }] }).nspace!;
  const view = e.inspect().allocations;
  const a1 = view.find((a) => a.allocId === id1)!;
  const a2 = view.find((a) => a.allocId === id2)!;
  assert.equal(a1.reqId, 'mine');
  assert.ok(!('reqId' in a2), 'an allocation made without PMIX_ALLOC_REQ_ID shows none');
  assert.deepEqual([...a1.owners].sort(), [job, child].sort(), 'owners: the requester and the job spawned into it');
  assert.deepEqual(a1.requester, { nspace: job, rank: 0 });
  assert.deepEqual(a1.nodes, ['s1']);
  assert.deepEqual(a2.nodes, ['s2']);
  assert.equal(e.inspect().elastic, undefined, 'no elastic view outside elastic mode');
});
