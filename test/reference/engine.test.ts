/** Unit tests of the reference engine's own promises: determinism, key emulation, scale without scans. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { Directive, Inheritance, Key, Status } from '../../seam/pmix';
import { cluster, idOf } from './support/engines';

const small = cluster();

function script(e: Engine) {
  const t = e.connectTool();
  const a = e.spawn({ requester: t, apps: [{ cmd: 'a', np: 1 }], info: [] });
  const r = e.allocate({ requester: { nspace: a.nspace!, rank: 0 }, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }] });
  const id = idOf(r.info);
  e.spawn({ requester: { nspace: a.nspace!, rank: 0 }, apps: [{ cmd: 'c', np: 2 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id }] });
  e.terminateJob(a.nspace!);
  return e.observe();
}

test('the same calls give the same ids and the same state', () => {
  assert.deepEqual(script(new Engine(small)), script(new Engine(small)));
});

test('a key the emulated PMIx lacks is not recognised: PMIX_ALLOC_SHARE=true still reserves', () => {
  const e = new Engine({ ...small, withoutKeys: ['PMIX_ALLOC_SHARE'] });
  const t = e.connectTool();
  const r = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_SHARE, value: true }] });
  assert.equal(r.status, Status.PMIX_SUCCESS);
  assert.notEqual(e.observe({ nodes: ['s1'] }).nodes[0].availableTo, '');
});

test('without PMIX_ALLOC_INHERITANCE only the default disposition is accepted', () => {
  const e = new Engine({ ...small, withoutKeys: ['PMIX_ALLOC_INHERITANCE'] });
  const t = e.connectTool();
  const ask = (v: number) => e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_INHERITANCE, value: v }] }).status;
  assert.equal(ask(Inheritance.PMIX_ALLOC_INHERIT_NONE), Status.PMIX_ERR_NOT_SUPPORTED);
  assert.equal(ask(Inheritance.PMIX_ALLOC_INHERIT_DEFAULT), Status.PMIX_SUCCESS);
});

test('malformed attribute values are PMIX_ERR_BAD_PARAM', () => {
  const e = new Engine(small);
  const t = e.connectTool();
  for (const info of [
    [{ key: Key.PMIX_ALLOC_SHARE, value: 'yes' }],
    [{ key: Key.PMIX_ALLOC_NUM_NODES, value: -1 }],
    [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s1' }],
    [{ key: Key.PMIX_ALLOC_TARGET, value: 7 }],
  ]) {
    assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info }).status, Status.PMIX_ERR_BAD_PARAM, JSON.stringify(info));
  }
  assert.equal(e.spawn({ requester: t, apps: [{ cmd: 'x', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: [] }] }).status, Status.PMIX_ERR_BAD_PARAM);
  assert.equal(e.spawn({ requester: t, apps: [{ cmd: 'x', np: 0 }], info: [] }).status, Status.PMIX_ERR_BAD_PARAM);
  assert.equal(e.spawn({ requester: t, apps: [], info: [] }).status, Status.PMIX_ERR_BAD_PARAM);
});

test('the scheduler refuses a required resource it cannot grant, and nothing changes', () => {
  const e = new Engine(small);
  const t = e.connectTool();
  const before = e.observe();
  const ask = (key: string, value: number | string) => e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key, value, required: true }] }).status;
  assert.equal(ask(Key.PMIX_ALLOC_NUM_NODES, 3), Status.PMIX_ERR_OUT_OF_RESOURCE);
  assert.equal(ask(Key.PMIX_ALLOC_NODE_LIST, 'nope'), Status.PMIX_ERR_OUT_OF_RESOURCE);
  assert.deepEqual(e.observe(), before);
});

test('an optional resource is provisional: the scheduler grants what it can', () => {
  const e = new Engine(small);
  const t = e.connectTool();
  const r = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 3 }] });
  assert.equal(r.status, Status.PMIX_SUCCESS);
  assert.equal(e.observe().nodes.length, 3); // n1 plus the two the scheduler had
});

test('a queued request is granted later, or cancelled, and its status can be queried', () => {
  const e = new Engine({ ...small, scheduler: { whenShort: 'queue' } });
  const t = e.connectTool();
  const first = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 2, required: true }] });
  assert.equal(first.status, Status.PMIX_SUCCESS);
  const queued = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1, required: true }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'q1' }] });
  assert.equal(queued.status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(e.queryAllocation({ requester: t, qualifiers: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'q1' }] }).state, 'pending');
  const id = idOf(first.info);
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).status, Status.PMIX_SUCCESS);
  assert.equal(e.queryAllocation({ requester: t, qualifiers: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).state, 'ended');
  e.scheduler({ action: 'grant-queued' });
  const q = e.queryAllocation({ requester: t, qualifiers: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'q1' }] });
  assert.equal(q.state, 'granted');
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_REQ_CANCEL, info: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'q1' }] }).status, Status.PMIX_ERR_NOT_FOUND);
});

test('a process that is not live cannot make requests', () => {
  const e = new Engine(small);
  const ghost = { nspace: 'ghost', rank: 0 };
  assert.equal(e.allocate({ requester: ghost, directive: Directive.PMIX_ALLOC_NEW, info: [] }).status, Status.PMIX_ERR_UNREACH);
  assert.equal(e.spawn({ requester: ghost, apps: [{ cmd: 'x', np: 1 }], info: [] }).status, Status.PMIX_ERR_UNREACH);
  assert.equal(e.allocate({ requester: { nspace: '', rank: 0 }, directive: Directive.PMIX_ALLOC_NEW, info: [] }).status, Status.PMIX_ERR_UNREACH);
});

test('after teardown every request is refused and nothing is left in the DVM', () => {
  const e = new Engine(small);
  const t = e.connectTool();
  e.spawn({ requester: t, apps: [{ cmd: 'a', np: 1 }], info: [] });
  assert.equal(e.scheduler({ action: 'teardown' }).status, Status.PMIX_SUCCESS);
  assert.equal(e.observe().nodes.length, 0);
  assert.ok(e.observe().jobs.every((j) => j.state !== 'RUNNING'));
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [] }).status, Status.PMIX_ERR_UNREACH);
});

test('a DVM of 100,000 nodes with thousands of reservations and jobs works', () => {
  const N = 100_000;
  const e = new Engine({
    startupNodes: Array.from({ length: 1000 }, (_, i) => ({ name: `n${i}`, slots: 8 })),
    schedulerNodes: Array.from({ length: N - 1000 }, (_, i) => ({ name: `s${i}`, slots: 8 })),
    withoutKeys: [],
    elastic: false,
  });
  const t = e.connectTool();
  const ids: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const r = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 40 }] });
    assert.equal(r.status, Status.PMIX_SUCCESS);
    ids.push(idOf(r.info));
  }
  const jobs: string[] = [];
  for (const id of ids) {
    const s = e.spawn({ requester: t, apps: [{ cmd: 'x', np: 16 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id }] });
    assert.equal(s.status, Status.PMIX_SUCCESS);
    jobs.push(s.nspace!);
  }
  for (const j of jobs) assert.equal(e.terminateJob(j).status, Status.PMIX_SUCCESS);
  // The owning tool is still connected: the reservations outlive their jobs.
  assert.equal(e.observe({ nodes: ['s0'] }).nodes[0].availableTo, ids[0]);
  // The tool leaves: every reservation takes the default disposition and is unreserved in the DVM.
  assert.equal(e.disconnectTool(t).status, Status.PMIX_SUCCESS);
  assert.equal(e.observe({ nodes: ['s0'] }).nodes[0].availableTo, '');
  assert.equal(e.observe().nodes.length, 1000 + 2000 * 40);
});
