/**
 * PMIx_Allocation_request where the scenarios do not look: optional node
 * lists (IP-OPTIONAL-ATTRIBUTES), refusals the scheduler's queue must not
 * swallow (IP-QUEUED-REQUESTS), what a response carries and does not
 * (NR.response.*: the destination's PMIX_ALLOC_ID, the request id echoed only
 * when supplied), live targets (IP-TARGET-UNKNOWN: the scheduler and a
 * connected tool are live namespaces), a shared allocation's nodes, request
 * ids after a lend (IP-LEND), an EXTEND's request id (RF.id.follow-on), and
 * the string "undefined", which is just an id nobody used (IP-REQ-ID-SCOPE).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import type { Info } from '../../seam/messages';
import { Directive, Key, Status } from '../../seam/pmix';
import { createImplementation as warningLatest } from '../../known-good/warning-carries-latest-req-id';
import { cluster, idOf } from './support/engines';

const config = cluster({ schedulerNodes: 3 });
const keys = (info: Info[]) => info.map((i) => i.key);

test('an optional node list is a preference: the scheduler grants the nodes it can; a required one is refused whole (IP-OPTIONAL-ATTRIBUTES)', () => {
  const e = new Engine(config);
  const t = e.connectTool();
  const req = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,nope', required: true }] });
  assert.equal(req.status, Status.PMIX_ERR_OUT_OF_RESOURCE);
  const opt = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,nope' }] });
  assert.equal(opt.status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.inspect().allocations.find((a) => a.allocId === idOf(opt.info))!.nodes, ['s1']);
});

test('a malformed request is refused, not queued, under a scheduler that queues what it cannot grant yet; a queued request without an id is answered with none', () => {
  const e = new Engine({ ...config, scheduler: { whenShort: 'queue' } });
  const t = e.connectTool();
  const before = e.observe();
  const dup = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s1', required: true }] });
  assert.equal(dup.status, Status.PMIX_ERR_BAD_PARAM);
  assert.deepEqual(e.observe(), before);
  const queued = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 9, required: true }] });
  assert.deepEqual(queued, { status: Status.PMIX_OPERATION_IN_PROGRESS, info: [] });
});

test('a response carries the allocation id, and the request id only when the request supplied one', () => {
  const e = new Engine(config);
  const t = e.connectTool();
  const plain = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  assert.deepEqual(keys(plain.info), [Key.PMIX_ALLOC_ID, Key.PMIX_SESSION_ID]);
  const withId = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'mine' }] });
  assert.deepEqual(withId.info.filter((i) => i.key === Key.PMIX_ALLOC_REQ_ID), [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'mine' }]);
});

test('a node of a shared allocation is not the scheduler\'s to grant again', () => {
  const e = new Engine(config);
  const t = e.connectTool();
  const shared = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_SHARE, value: true }] });
  assert.equal(shared.status, Status.PMIX_SUCCESS);
  const before = e.inspect();
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1', required: true }] }).status, Status.PMIX_ERR_OUT_OF_RESOURCE);
  assert.deepEqual(e.inspect(), before);
});

test('the scheduler and a connected tool are live namespaces a tool may name as PMIX_ALLOC_TARGET (IP-TARGET-UNKNOWN)', () => {
  const e = new Engine(config);
  const t1 = e.connectTool();
  const t2 = e.connectTool();
  for (const target of [e.schedulerProc.nspace, t2.nspace]) {
    const r = e.allocate({ requester: t1, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }, { key: Key.PMIX_ALLOC_TARGET, value: target }] });
    assert.equal(r.status, Status.PMIX_SUCCESS, target);
    assert.equal(e.inspect().allocations.find((a) => a.allocId === idOf(r.info))!.owner, target);
  }
  e.disconnectTool(t2);
  assert.equal(e.allocate({ requester: t1, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_TARGET, value: t2.nspace }] }).status, Status.PMIX_ERR_NOT_FOUND, 'a tool that has gone is not');
});

test('a lent allocation is still named by its request id: REAQUIRE by PMIX_ALLOC_REQ_ID takes it back (IP-LEND)', () => {
  const e = new Engine(config);
  const t = e.connectTool();
  const r = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'L' }] });
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'L' }, { key: Key.PMIX_ALLOC_TIME, value: 10 }] }).status, Status.PMIX_SUCCESS);
  const back = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_REAQUIRE, info: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'L' }] });
  assert.equal(back.status, Status.PMIX_SUCCESS);
  assert.equal(idOf(back.info), idOf(r.info));
});

test('an EXTEND\'s own request id can be used afterwards to query it (RF.id.follow-on)', () => {
  const e = new Engine(config);
  const t = e.connectTool();
  const id = idOf(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] }).info);
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'more' }] }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.queryAllocation({ requester: t, qualifiers: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'more' }] }), { status: Status.PMIX_SUCCESS, state: 'granted', allocId: id });
});

test('warning-request-id=latest: an EXTEND that names no request id leaves the latest one that did', async () => {
  const impl = warningLatest();
  await impl.start(config);
  const { proc: t } = await impl.connectTool({ label: 'T' });
  const id = idOf((await impl.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'a' }] })).info);
  await impl.allocate({ requester: t, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'b' }] });
  await impl.allocate({ requester: t, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] });
  await impl.scheduler({ action: 'timeout-warning', allocId: id });
  const w = (await impl.observe({})).events.find((ev) => ev.code === Status.PMIX_ALLOC_TIMEOUT_WARNING)!;
  assert.equal(w.info.find((i) => i.key === Key.PMIX_ALLOC_REQ_ID)?.value, 'b');
  await impl.stop();
});

test('"undefined" is just a request id nobody used: it names no allocation and no request', () => {
  const e = new Engine({ ...config, scheduler: { whenShort: 'queue' } });
  const t = e.connectTool();
  e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 9, required: true }] }); // queued, no id
  const named = [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'undefined' }];
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_EXTEND, info: [...named, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] }).status, Status.PMIX_ERR_NOT_FOUND);
  assert.equal(e.spawn({ requester: t, apps: [{ cmd: 'a', np: 1 }], info: named }).status, Status.PMIX_ERR_NOT_FOUND);
  assert.equal(e.queryAllocation({ requester: t, qualifiers: named }).status, Status.PMIX_ERR_NOT_FOUND);
  // Requests without an id that end queued, cancelled or refused later leave nothing under that name either.
  const t2 = e.connectTool();
  const t3 = e.connectTool();
  e.allocate({ requester: t3, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 9, required: true }] });
  e.disconnectTool(t3);
  const gone = idOf(e.allocate({ requester: t2, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] }).info);
  e.allocate({ requester: t2, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: gone }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 9, required: true }] });
  e.allocate({ requester: t2, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: gone }] });
  e.scheduler({ action: 'grant-queued' });
  e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_REQ_CANCEL, info: [] });
  for (const who of [t, t2]) assert.equal(e.queryAllocation({ requester: who, qualifiers: named }).status, Status.PMIX_ERR_NOT_FOUND);
  // An allocation whose request id is the string "undefined" is not what a request naming an unknown PMIX_ALLOC_ID alone reaches.
  e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [...named] });
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: 'nope' }] }).status, Status.PMIX_ERR_NOT_FOUND);
});

test('a directive the host does not know is not supported; a tool naming the invalid namespace as target is refused, a node list naming no node is a bad parameter', () => {
  const e = new Engine(config);
  const t = e.connectTool();
  const before = { snap: e.observe(), intro: e.inspect() };
  assert.deepEqual(e.allocate({ requester: t, directive: 99, info: [] }), { status: Status.PMIX_ERR_NOT_SUPPORTED, info: [] });
  assert.notEqual(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_TARGET, value: '' }] }).status, Status.PMIX_SUCCESS, 'IP-TARGET-INVALID: refused, whatever the status');
  for (const value of ['', ',', ' , ']) {
    assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value }] }).status, Status.PMIX_ERR_BAD_PARAM, JSON.stringify(value));
  }
  assert.deepEqual({ snap: e.observe(), intro: e.inspect() }, before);
});
