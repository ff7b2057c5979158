/**
 * The allocation RFC's directives where the scenarios do not go: queued
 * requests whose requester has gone or that the scheduler still cannot grant,
 * queued EXTENDs, cancels by two requesters that chose the same request id,
 * lending and reacquiring under the any-nodes policy, and status queries that
 * name nothing known. Clauses: RF.cancel.by-id, RF.cancel.no-id-all,
 * RF.id.requester-chosen, RF.id.follow-on, RF.status.query, RF.required.reject,
 * RF.extend.released-together, RF.reacquire.lent; decisions IP-QUEUED-REQUESTS,
 * IP-CANCEL-NAMES, IP-REQ-ID-SCOPE, IP-QUERY-STATES, IP-LEND (features/INTERPRETATIONS.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import type { Info, ProcId } from '../../seam/messages';
import { Directive, Key, Status } from '../../seam/pmix';
import { cluster, idOf } from './support/engines';

const config = cluster({ schedulerNodes: 3, scheduler: { whenShort: 'queue' } });

const need = (n: number, reqId?: string): Info[] => [{ key: Key.PMIX_ALLOC_NUM_NODES, value: n, required: true }, ...(reqId !== undefined ? [{ key: Key.PMIX_ALLOC_REQ_ID, value: reqId }] : [])];

function setup() {
  const e = new Engine(config);
  const t1 = e.connectTool();
  const t2 = e.connectTool();
  const state = (who: ProcId, reqId: string) => e.queryAllocation({ requester: who, qualifiers: [{ key: Key.PMIX_ALLOC_REQ_ID, value: reqId }] }).state;
  const alloc = (who: ProcId, directive: number, info: Info[]) => e.allocate({ requester: who, directive, info });
  return { e, t1, t2, state, alloc };
}

test('a cancel naming nothing withdraws every queued request of its requester and no one else\'s (RF.cancel.no-id-all)', () => {
  const { e, t1, t2, state, alloc } = setup();
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_NEW, need(4, 'a')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_NEW, need(4, 'b')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(alloc(t2, Directive.PMIX_ALLOC_NEW, need(4, 'c')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.deepEqual(alloc(t1, Directive.PMIX_ALLOC_REQ_CANCEL, []), { status: Status.PMIX_SUCCESS, info: [] });
  assert.deepEqual([state(t1, 'a'), state(t1, 'b'), state(t2, 'c')], ['cancelled', 'cancelled', 'pending']);
  // The scheduler's cancel naming nothing withdraws everyone's.
  assert.equal(alloc(e.schedulerProc, Directive.PMIX_ALLOC_REQ_CANCEL, []).status, Status.PMIX_SUCCESS);
  assert.equal(state(t2, 'c'), 'cancelled');
});

test('two requesters that chose the same request id each cancel their own; one cannot cancel the other\'s (RF.cancel.by-id, IP-REQ-ID-SCOPE, IP-CANCEL-NAMES)', () => {
  const { e, t1, t2, state, alloc } = setup();
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_NEW, need(4, 'x')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(alloc(t2, Directive.PMIX_ALLOC_NEW, need(4, 'x')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(alloc(t2, Directive.PMIX_ALLOC_NEW, need(4, 'only-t2')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(alloc(t2, Directive.PMIX_ALLOC_REQ_CANCEL, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'x' }]).status, Status.PMIX_SUCCESS);
  assert.deepEqual([state(t1, 'x'), state(t2, 'x'), state(t2, 'only-t2')], ['pending', 'cancelled', 'pending']);
  // t1 naming t2's request: not t1's to cancel, and it stays queued.
  const refused = alloc(t1, Directive.PMIX_ALLOC_REQ_CANCEL, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'only-t2' }]);
  assert.deepEqual(refused, { status: Status.PMIX_ERR_NO_PERMISSIONS, info: [] });
  assert.equal(state(t2, 'only-t2'), 'pending');
  // The scheduler may cancel it; then nothing of that name is queued any more.
  assert.equal(alloc(e.schedulerProc, Directive.PMIX_ALLOC_REQ_CANCEL, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'only-t2' }]).status, Status.PMIX_SUCCESS);
  assert.equal(state(t2, 'only-t2'), 'cancelled');
  assert.equal(alloc(e.schedulerProc, Directive.PMIX_ALLOC_REQ_CANCEL, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'only-t2' }]).status, Status.PMIX_ERR_NOT_FOUND);
  assert.equal(state(t1, 'x'), 'pending');
});

test('a queued request whose requester has gone is not granted; one the scheduler still cannot grant stays queued (IP-QUEUED-REQUESTS)', () => {
  const { e, t1, t2, state, alloc } = setup();
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_NEW, need(2)).status, Status.PMIX_SUCCESS);
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_NEW, need(1, 'gone')).status, Status.PMIX_SUCCESS); // s3: the last free node
  assert.equal(alloc(t2, Directive.PMIX_ALLOC_NEW, need(1, 'later')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(alloc(t2, Directive.PMIX_ALLOC_NEW, need(2, 'big')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  const t3 = e.connectTool();
  assert.equal(alloc(t3, Directive.PMIX_ALLOC_NEW, need(1, 'orphan')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  // Still short: everything stays queued, nothing changes.
  const before = e.observe();
  e.scheduler({ action: 'grant-queued' });
  assert.deepEqual(e.observe(), before);
  assert.deepEqual([state(t2, 'later'), state(t2, 'big'), state(t3, 'orphan')], ['pending', 'pending', 'pending']);
  // t3 leaves; t1's first allocation (two nodes) is released: the queue is worked in arrival order.
  e.disconnectTool(t3);
  const first = e.inspect().allocations.find((a) => a.nodes.length === 2)!;
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_RELEASE, [{ key: Key.PMIX_ALLOC_ID, value: first.allocId }]).status, Status.PMIX_SUCCESS);
  e.scheduler({ action: 'grant-queued' });
  assert.equal(state(t2, 'later'), 'granted');
  assert.equal(state(t2, 'big'), 'pending', 'one node left: the two-node request waits');
  assert.equal(state(t1, 'orphan'), 'cancelled', 'nobody is left to grant it to (any process may poll: RF.status.query)');
  assert.equal(e.inspect().allocations.filter((a) => a.owner === t3.nspace).length, 0);
});

test('a queued EXTEND adds its nodes to the allocation it named, and one whose allocation has ended is cancelled (RF.extend.released-together)', () => {
  const { e, t1, state, alloc } = setup();
  const made = alloc(t1, Directive.PMIX_ALLOC_NEW, need(2, 'base'));
  const id = idOf(made.info);
  const other = alloc(t1, Directive.PMIX_ALLOC_NEW, need(1));
  assert.equal(other.status, Status.PMIX_SUCCESS);
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_EXTEND, [{ key: Key.PMIX_ALLOC_ID, value: id }, ...need(1, 'more')]).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_EXTEND, [{ key: Key.PMIX_ALLOC_ID, value: idOf(other.info) }, ...need(1, 'doomed')]).status, Status.PMIX_OPERATION_IN_PROGRESS);
  // The other allocation is released: its node frees, but the EXTEND naming it has nothing left to extend.
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_RELEASE, [{ key: Key.PMIX_ALLOC_ID, value: idOf(other.info) }]).status, Status.PMIX_SUCCESS);
  e.scheduler({ action: 'grant-queued' });
  assert.equal(state(t1, 'doomed'), 'cancelled');
  const allocs = e.inspect().allocations;
  assert.equal(allocs.length, 1, 'a queued EXTEND makes no new allocation');
  assert.equal(allocs[0].allocId, id);
  assert.equal(allocs[0].nodes.length, 3, 'the EXTEND\'s node joined the allocation it named');
});

test('lent nodes come back under the any-nodes policy as that many free nodes, into the same allocation (RF.reacquire.lent, IP-LEND)', () => {
  const e = new Engine({ ...config, scheduler: { reacquire: 'any-nodes' } });
  const t = e.connectTool();
  const made = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s2' }] });
  const id = idOf(made.info);
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_TIME, value: 60 }] }).status, Status.PMIX_SUCCESS);
  assert.equal(e.queryAllocation({ requester: t, qualifiers: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).state, 'lent');
  // Someone else takes s1 meanwhile: any two free nodes will do.
  assert.equal(e.allocate({ requester: e.schedulerProc, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] }).status, Status.PMIX_SUCCESS);
  const back = e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_REAQUIRE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] });
  assert.equal(back.status, Status.PMIX_SUCCESS);
  assert.equal(idOf(back.info), id);
  const a = e.inspect().allocations.find((x) => x.allocId === id)!;
  assert.deepEqual([...a.nodes].sort(), ['s2', 's3']);
  assert.equal(e.queryAllocation({ requester: t, qualifiers: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).state, 'granted');
  // Lending it again, with fewer nodes free than it lent, a required reacquire cannot be met: refused, nothing changes.
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_TIME, value: 60 }] }).status, Status.PMIX_SUCCESS);
  assert.equal(e.allocate({ requester: e.schedulerProc, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] }).status, Status.PMIX_SUCCESS);
  const before = e.observe();
  assert.notEqual(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_REAQUIRE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.observe(), before);
  assert.equal(e.queryAllocation({ requester: t, qualifiers: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).state, 'lent');
});

test('a status query answers only a live process, and says what it names: nothing known is PMIX_ERR_NOT_FOUND (IP-QUERY-STATES)', () => {
  const { e, t1, alloc } = setup();
  const q = (who: ProcId, qualifiers: Info[]) => e.queryAllocation({ requester: who, qualifiers });
  assert.equal(q({ nspace: 'ghost', rank: 0 }, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'a' }]).status, Status.PMIX_ERR_UNREACH);
  assert.equal(q(t1, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'never' }]).status, Status.PMIX_ERR_NOT_FOUND);
  assert.equal(q(t1, [{ key: Key.PMIX_ALLOC_ID, value: 'never' }]).status, Status.PMIX_ERR_NOT_FOUND);
  const made = alloc(t1, Directive.PMIX_ALLOC_NEW, need(1, 'mine'));
  const granted = q(t1, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'mine' }]);
  assert.deepEqual(granted, { status: Status.PMIX_SUCCESS, state: 'granted', allocId: idOf(made.info) });
});

test('lent nodes come back under the same-nodes policy as those very nodes, all of them (IP-LEND)', () => {
  const e = new Engine({ ...config, scheduler: undefined });
  const t = e.connectTool();
  const id = idOf(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s2' }] }).info);
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_TIME, value: 60 }] }).status, Status.PMIX_SUCCESS);
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_REAQUIRE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).status, Status.PMIX_SUCCESS);
  assert.deepEqual([...e.inspect().allocations.find((a) => a.allocId === id)!.nodes].sort(), ['s1', 's2']);
});

test('a reacquire that grows the elastic DVM is a size change of its requester: it gets the completion event, with its request id', () => {
  const e = new Engine({ ...config, scheduler: undefined, elastic: true });
  const t = e.connectTool();
  const id = idOf(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] }).info);
  e.daemon({ event: 'report', node: 's1' });
  e.daemon({ event: 'wireup' });
  e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_TIME, value: 60 }] });
  e.daemon({ event: 'exit', node: 's1' });
  const before = e.observe().events.length;
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_REAQUIRE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'back' }] }).status, Status.PMIX_SUCCESS);
  e.daemon({ event: 'report', node: 's1' });
  e.daemon({ event: 'wireup' });
  const after = e.observe().events.slice(before);
  assert.deepEqual(after.map((ev) => [ev.code, ev.to.nspace, ev.info]), [[Status.PMIX_DVM_IS_READY, t.nspace, [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'back' }]]]);
});

test('a status query that names nothing is refused with a status (IP-STATUS-QUERY-NAMES-ONE leaves which one open)', () => {
  const { e, t1 } = setup();
  const r = e.queryAllocation({ requester: t1, qualifiers: [] });
  assert.ok(typeof r.status === 'number' && r.status !== Status.PMIX_SUCCESS, JSON.stringify(r));
});

test('a withdrawn request is gone from the queue: when room comes, the scheduler grants the requests still queued, never a cancelled one', () => {
  const { t1, t2, state, alloc, e } = setup();
  const held = alloc(t2, Directive.PMIX_ALLOC_NEW, need(2));
  assert.equal(held.status, Status.PMIX_SUCCESS);
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_NEW, need(2, 'a')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(alloc(t2, Directive.PMIX_ALLOC_NEW, need(2, 'c')).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_REQ_CANCEL, []).status, Status.PMIX_SUCCESS);
  assert.equal(alloc(t2, Directive.PMIX_ALLOC_RELEASE, [{ key: Key.PMIX_ALLOC_ID, value: idOf(held.info) }]).status, Status.PMIX_SUCCESS);
  e.scheduler({ action: 'grant-queued' });
  assert.deepEqual([state(t1, 'a'), state(t2, 'c')], ['cancelled', 'granted']);
  assert.equal(e.inspect().allocations.filter((a) => a.owner === t1.nspace).length, 0);
});

test('a queued EXTEND\'s own request id reports what became of it once granted, like any request (RF.id.follow-on, IP-QUEUED-REQUESTS)', () => {
  const { e, t1, state, alloc } = setup();
  const id = idOf(alloc(t1, Directive.PMIX_ALLOC_NEW, need(2, 'base')).info);
  const other = alloc(t1, Directive.PMIX_ALLOC_NEW, need(1));
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_EXTEND, [{ key: Key.PMIX_ALLOC_ID, value: id }, ...need(1, 'more')]).status, Status.PMIX_OPERATION_IN_PROGRESS);
  assert.equal(state(t1, 'more'), 'pending');
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_RELEASE, [{ key: Key.PMIX_ALLOC_ID, value: idOf(other.info) }]).status, Status.PMIX_SUCCESS);
  e.scheduler({ action: 'grant-queued' });
  assert.deepEqual(e.queryAllocation({ requester: t1, qualifiers: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'more' }] }), { status: Status.PMIX_SUCCESS, state: 'granted', allocId: id });
  // An immediate EXTEND with its own id, of an allocation made with one, is queryable too.
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_RELEASE, [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }]).status, Status.PMIX_SUCCESS);
  assert.equal(alloc(t1, Directive.PMIX_ALLOC_EXTEND, [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'again' }]).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.queryAllocation({ requester: t1, qualifiers: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'again' }] }), { status: Status.PMIX_SUCCESS, state: 'granted', allocId: id });
});
