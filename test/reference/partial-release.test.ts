/**
 * Partial releases (IP-PARTIAL-RELEASE, RF.release.partial,
 * RF.release.count-excludes-origin) and the scheduler's release of nodes an
 * unreserve left in the default session (IP-RELEASE-UNRESERVED): which nodes
 * go, which stay, who may, and that every refusal changes nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import type { Info, ProcId } from '../../seam/messages';
import { Directive, Inheritance, Key, Status } from '../../seam/pmix';
import { cluster, idOf } from './support/engines';

const config = cluster({ schedulerNodes: 4 });

function setup() {
  const e = new Engine(config);
  const tool = e.connectTool();
  const made = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s2,s3' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'r' }] });
  assert.equal(made.status, Status.PMIX_SUCCESS);
  const id = idOf(made.info);
  const release = (who: ProcId, info: Info[]) => e.allocate({ requester: who, directive: Directive.PMIX_ALLOC_RELEASE, info });
  const inDvm = () => e.observe().nodes.map((n) => n.name).sort();
  const nodesOf = (allocId: string) => [...(e.inspect().allocations.find((a) => a.allocId === allocId)?.nodes ?? [])].sort();
  return { e, tool, id, release, inDvm, nodesOf };
}

test('a release by node list returns just those nodes; the allocation lives on with the rest and the answer names it', () => {
  const { tool, id, release, inDvm, nodesOf } = setup();
  const r = release(tool, [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s3' }]);
  assert.equal(r.status, Status.PMIX_SUCCESS);
  assert.deepEqual(r.info, [{ key: Key.PMIX_ALLOC_ID, value: id }], 'the answer names the allocation the nodes came from (IP-ELASTIC-RELEASE-RESPONSE-ID)');
  assert.deepEqual(nodesOf(id), ['s2']);
  assert.deepEqual(inDvm(), ['n1', 's2']);
});

test('a malformed or foreign node list is refused and changes nothing', () => {
  const { e, tool, id, release } = setup();
  const other = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's4' }] });
  assert.equal(other.status, Status.PMIX_SUCCESS);
  const stranger = e.connectTool();
  const before = { snap: e.observe(), intro: e.inspect() };
  for (const [who, info, what] of [
    [tool, [{ key: Key.PMIX_ALLOC_NODE_LIST, value: '' }], 'an empty list'],
    [tool, [{ key: Key.PMIX_ALLOC_NODE_LIST, value: ',' }], 'a list of no names'],
    [tool, [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s1' }], 'a node twice'],
    [tool, [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 'n1' }], 'a node in no allocation'],
    [tool, [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 'nope' }], 'a node that does not exist'],
    [tool, [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s4' }], 'a node of another allocation than the one named'],
    [stranger, [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }], 'a node of an allocation the requester does not own'],
    [stranger, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'r' }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }], 'a request id the requester never used'],
    [tool, [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }], 'a count naming no allocation'],
    [tool, [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 4 }], 'more nodes than the allocation has'],
  ] as [ProcId, Info[], string][]) {
    assert.notEqual(release(who, info).status, Status.PMIX_SUCCESS, what);
    assert.deepEqual({ snap: e.observe(), intro: e.inspect() }, before, `${what}: a refused release changed something`);
  }
});

test('a release by count takes that many of the named allocation\'s nodes, never the one the request came from (RF.release.count-excludes-origin)', () => {
  const { e, tool, id, release, nodesOf } = setup();
  // A job of the tool runs on s1, s2 and s3 (one process each); rank 1 is on s2.
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'j', np: 1, hosts: ['s1'] }, { cmd: 'j', np: 1, hosts: ['s2'] }, { cmd: 'j', np: 1, hosts: ['s3'] }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id }] });
  assert.equal(job.status, Status.PMIX_SUCCESS);
  const rank1: ProcId = { nspace: job.nspace!, rank: 1 };
  const r = release(rank1, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'r' }, { key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }]);
  assert.equal(r.status, Status.PMIX_SUCCESS);
  assert.equal(nodesOf(id).length, 2, 'one node went');
  assert.ok(nodesOf(id).includes('s2'), 'rank 1 runs on s2: not that one');
  assert.equal(release(rank1, [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }]).status, Status.PMIX_SUCCESS);
  assert.deepEqual(nodesOf(id), ['s2'], 'rank 1 runs on s2: the two others went');
  // Only s2 is left and rank 1 runs there: nothing may be taken by count.
  const before = e.observe();
  assert.notEqual(release(rank1, [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }]).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.observe(), before);
  // Rank 0's node has left the DVM with its process; the tool (which runs nowhere) may take s2.
  assert.equal(release(tool, [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'r' }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }]).status, Status.PMIX_SUCCESS);
  assert.deepEqual(nodesOf(id), []);
});

test('the scheduler, and only the scheduler, may release by name a node an unreserve left in the default session (IP-RELEASE-UNRESERVED)', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const made = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,n1' }, { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_DEFAULT }] });
  assert.equal(made.status, Status.PMIX_SUCCESS);
  assert.equal(e.disconnectTool(tool).status, Status.PMIX_SUCCESS); // DEFAULT: unreserved, the nodes stay in the DVM's default session
  assert.deepEqual(e.observe().nodes.map((n) => [n.name, n.availableTo]), [['n1', ''], ['s1', '']]);
  const other = e.connectTool();
  const before = e.observe();
  for (const who of [other]) assert.notEqual(e.allocate({ requester: who, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] }).status, Status.PMIX_SUCCESS);
  // A startup node is not the scheduler's to take back.
  assert.notEqual(e.allocate({ requester: e.schedulerProc, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 'n1' }] }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.observe(), before);
  // Naming an allocation the node is not part of: refused.
  const elsewhere = e.allocate({ requester: e.schedulerProc, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] });
  const otherId = idOf(elsewhere.info);
  const withOther = e.observe();
  assert.notEqual(e.allocate({ requester: e.schedulerProc, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: otherId }, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.observe(), withOther);
  const r = e.allocate({ requester: e.schedulerProc, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  assert.deepEqual(r, { status: Status.PMIX_SUCCESS, info: [] }, 'no allocation to name');
  assert.deepEqual(e.observe().nodes.map((n) => n.name), ['n1', 's2'], 's1 went back to the scheduler and left the DVM');
});
