/**
 * The elastic DVM and the reservation lifecycle where the scenarios and the
 * properties do not look: what a failed grow rolls back (ED: "rolled back to
 * exactly the pre-grow membership"), a joining daemon that crashes while a
 * shrink is in progress, processes on a node that leaves, completion events'
 * info (PMIX_ALLOC_REQ_ID only when supplied, a cause only on failure),
 * derived children that someone else spawned into a CHILD reservation
 * (IP-DERIVED-CHILDREN), a reservation the scheduler owns, and request ids
 * reused while the first allocation lives (IP-REQ-ID-SCOPE).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { MAX_PROCS_PER_APP, type Info } from '../../seam/messages';
import { Directive, Inheritance, Key, Status } from '../../seam/pmix';
import { cluster, grown, idOf } from './support/engines';

const config = cluster({ schedulerNodes: 3, elastic: true });
const keys = (info: Info[]) => info.map((i) => i.key);

test('a failed grow leaves the reservation without the node, the node out of the DVM, and the scheduler free to grant it again', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const r = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  const id = idOf(r.info);
  assert.equal(e.daemon({ event: 'crash', node: 's1' }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.inspect().allocations.find((a) => a.allocId === id)?.nodes, [], 'rolled back to the pre-grow membership');
  assert.deepEqual(e.observe().nodes.map((n) => n.name), ['n1']);
  const again = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1', required: true }] });
  assert.equal(again.status, Status.PMIX_SUCCESS, 's1 went back to the scheduler');
});

test('a startup node whose daemon is lost is not the scheduler\'s to grant', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  assert.equal(e.daemon({ event: 'crash', node: 'n1' }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.observe().nodes, []);
  const r = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 4 }] });
  assert.equal(r.status, Status.PMIX_SUCCESS);
  assert.deepEqual([...e.inspect().allocations[0].nodes].sort(), ['s1', 's2', 's3'], 'only the scheduler\'s nodes');
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 'n1', required: true }] }).status, Status.PMIX_ERR_OUT_OF_RESOURCE);
});

test('a joining daemon that crashes while a shrink is in progress fails its grow, and the shrink goes on', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const first = grown(e, tool, 's1');
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: first }] }).status, Status.PMIX_SUCCESS);
  const second = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] });
  assert.equal(e.daemon({ event: 'crash', node: 's2' }).status, Status.PMIX_SUCCESS);
  const campaigns = e.inspect().elastic!.campaigns;
  assert.deepEqual(campaigns.map((c) => [c.kind, c.targets]), [['shrink', ['s1']]], 'the shrink is still in progress');
  const events = e.observe().events;
  assert.deepEqual(events.map((ev) => [ev.code, idOf(ev.info)]), [[Status.PMIX_DVM_IS_READY, first], [Status.PMIX_ERR_DVM_MOD, idOf(second.info)]]);
  assert.equal(e.daemon({ event: 'exit', node: 's1' }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.observe().events.slice(2).map((ev) => [ev.code, idOf(ev.info)]), [[Status.PMIX_DVM_IS_READY, first]]);
});

test('completion events carry PMIX_ALLOC_REQ_ID only when the request supplied one, and a cause only on failure', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  grown(e, tool, 's1');
  grown(e, tool, 's2', [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'with-id' }]);
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's3' }] });
  e.daemon({ event: 'fail-to-start', node: 's3', cause: Status.PMIX_ERR_NOT_FOUND });
  const [a, b, c] = e.observe().events;
  assert.deepEqual(keys(a.info), [Key.PMIX_ALLOC_ID]);
  assert.deepEqual(keys(b.info), [Key.PMIX_ALLOC_ID, Key.PMIX_ALLOC_REQ_ID]);
  assert.equal(c.code, Status.PMIX_ERR_DVM_MOD);
  assert.equal(c.info.find((i) => i.key === Key.PMIX_JOB_TERM_STATUS)?.value, Status.PMIX_ERR_NOT_FOUND);
  assert.ok(!keys(c.info).includes(Key.PMIX_ALLOC_REQ_ID));
});

test('every process on a node that leaves ends, however many of a job\'s ranks sat there; the job\'s other processes go on', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const id = grown(e, tool, 's1');
  const held = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 2, hosts: ['s1'] }, { cmd: 'b', np: 1, hosts: ['n1'] }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: ['', id] }], hold: 'launch' }).nspace!;
  assert.equal(e.advanceJob({ nspace: held, to: 'launch' }).status, Status.PMIX_SUCCESS);
  const job = () => e.observe({ jobs: [held] }).jobs[0];
  assert.deepEqual(job().procs.map((p) => [p.node, p.running]), [['s1', true], ['s1', true], ['n1', true]]);
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).status, Status.PMIX_SUCCESS);
  assert.equal(e.daemon({ event: 'exit', node: 's1' }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(job().procs.map((p) => [p.node, p.running]), [['s1', false], ['s1', false], ['n1', true]]);
  assert.equal(job().state, 'RUNNING', 'a job with a process still running has not ended');
  // A rank whose process has ended is no live process any more.
  assert.equal(e.allocate({ requester: { nspace: held, rank: 0 }, directive: Directive.PMIX_ALLOC_NEW, info: [] }).status, Status.PMIX_ERR_UNREACH);
  assert.equal(e.allocate({ requester: { nspace: held, rank: 2 }, directive: Directive.PMIX_ALLOC_NEW, info: [] }).status, Status.PMIX_SUCCESS);
});

test('a shrink from an owner\'s end names the reservation; teardown leaves nothing parked and no campaign', () => {
  const e = new Engine(config);
  assert.deepEqual(e.inspect().elastic!.shrinkOffers, []);
  const tool = e.connectTool();
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'o', np: 1 }], info: [] }).nspace!;
  const id = grown(e, { nspace: job, rank: 0 }, 's1', [{ key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_NONE }]);
  assert.equal(e.terminateJob(job).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.inspect().elastic!.campaigns.map((c) => [c.kind, c.allocId]), [['shrink', id]]);
  // Jobs parked at both boundaries, then teardown.
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] });
  const parked = e.spawn({ requester: tool, apps: [{ cmd: 'p', np: 1 }], info: [] }).nspace!;
  assert.equal(e.observe({ jobs: [parked] }).jobs[0].state, 'WAITING_FOR_DAEMONS');
  e.scheduler({ action: 'teardown' });
  const view = e.inspect().elastic!;
  assert.deepEqual([view.campaigns, view.parkedAtMap, view.parkedAtLaunch, view.fence], [[], [], [], 0]);
  assert.equal(e.observe({ jobs: [parked] }).jobs[0].state, 'NEVER_LAUNCHED');
});

test('jobs someone else spawned into a CHILD reservation are its derived children, with their own descendants (IP-DERIVED-CHILDREN)', () => {
  const e = new Engine({ ...config, elastic: false });
  const tool = e.connectTool();
  const made = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_CHILD }] });
  const id = idOf(made.info);
  const own = e.spawn({ requester: tool, apps: [{ cmd: 'own', np: 1 }], info: [] }).nspace!; // the owner's own descendant
  const k = e.spawn({ requester: e.schedulerProc, apps: [{ cmd: 'k', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id }] }).nspace!;
  const k2 = e.spawn({ requester: { nspace: k, rank: 0 }, apps: [{ cmd: 'k2', np: 1 }], info: [] }).nspace!;
  const held = () => e.observe({ nodes: ['s1'] }).nodes[0]?.availableTo;
  assert.equal(e.disconnectTool(tool).status, Status.PMIX_SUCCESS);
  assert.equal(held(), id, 'the owner has gone, but its descendant and the jobs spawned into it run');
  e.terminateJob(own);
  assert.equal(held(), id, 'k and its child still run');
  e.terminateJob(k);
  assert.equal(held(), id, 'k2, a descendant of a job spawned into it, still runs');
  e.terminateJob(k2);
  assert.equal(held(), undefined, 'CHILD: returned, its node left the DVM');
});

test('a reservation the scheduler owns outlives every job spawned into it: the scheduler never terminates', () => {
  const e = new Engine({ ...config, elastic: false });
  const made = e.allocate({ requester: e.schedulerProc, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_CHILD }] });
  const id = idOf(made.info);
  const j = e.spawn({ requester: e.schedulerProc, apps: [{ cmd: 'j', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id }] }).nspace!;
  assert.equal(e.terminateJob(j).status, Status.PMIX_SUCCESS);
  assert.equal(e.observe({ nodes: ['s1'] }).nodes[0]?.availableTo, id);
});

test('a request id reused while its first allocation lives names the newest; the first one\'s end does not take the name from it', () => {
  const e = new Engine({ ...config, elastic: false });
  const tool = e.connectTool();
  const reqId = [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'same' }];
  const first = idOf(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, ...reqId] }).info);
  const second = idOf(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }, ...reqId] }).info);
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: first }] }).status, Status.PMIX_SUCCESS);
  const x = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_EXTEND, info: [...reqId, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's3' }] });
  assert.equal(x.status, Status.PMIX_SUCCESS);
  assert.equal(idOf(x.info), second);
  assert.deepEqual([...e.inspect().allocations.find((a) => a.allocId === second)!.nodes].sort(), ['s2', 's3']);
});

test('spawns naming a session by PMIX_SESSION_ID or PMIX_ALLOC_REQ_ID that names nothing are refused; a large np is not malformed; a success carries well-formed info', () => {
  const e = new Engine({ ...config, elastic: false });
  const tool = e.connectTool();
  const before = e.observe();
  assert.equal(e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [{ key: Key.PMIX_SESSION_ID, value: 99 }] }).status, Status.PMIX_ERR_NOT_FOUND);
  assert.equal(e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'never' }] }).status, Status.PMIX_ERR_NOT_FOUND);
  assert.equal(e.spawn({ requester: tool, apps: [{ cmd: 'a', np: MAX_PROCS_PER_APP }], info: [] }).status, Status.PMIX_ERR_OUT_OF_RESOURCE, 'well-formed, but no room');
  assert.deepEqual(e.observe(), before);
  const ok = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [] });
  assert.equal(ok.status, Status.PMIX_SUCCESS);
  assert.ok(ok.info.every((i) => typeof i === 'object' && typeof i.key === 'string'), JSON.stringify(ok.info));
  const held = e.spawn({ requester: tool, apps: [{ cmd: 'h', np: 1 }], info: [], hold: 'map' });
  assert.ok(held.info.every((i) => typeof i === 'object' && typeof i.key === 'string'), JSON.stringify(held.info));
});

test('a job remapped at the launch boundary never lands on a node whose daemon is still joining (no launch onto a not-ready node)', () => {
  for (const hosts of [false, true]) {
    const e = new Engine(config);
    const tool = e.connectTool();
    const id = grown(e, tool, 's1');
    const app = hosts ? { cmd: 'a', np: 1, hosts: ['s1'] } : { cmd: 'a', np: 1 };
    const job = e.spawn({ requester: tool, apps: [app], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id }], hold: 'launch' }).nspace!;
    assert.deepEqual(e.observe({ jobs: [job] }).jobs[0].procs.map((p) => p.node), ['s1']);
    // s1 is lost; the reservation grows again (by s2, or by s1 itself, granted anew), its daemon still joining.
    assert.equal(e.daemon({ event: 'crash', node: 's1' }).status, Status.PMIX_SUCCESS);
    const joining = hosts ? 's1' : 's2';
    assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NODE_LIST, value: joining }] }).status, Status.PMIX_SUCCESS);
    assert.equal(e.observe({ nodes: [joining] }).nodes[0].daemon, 'joining');
    e.advanceJob({ nspace: job, to: 'launch' });
    const j = e.observe({ jobs: [job] }).jobs[0];
    assert.ok(!j.procs.some((p) => p.running && p.node === joining), `launched onto the joining ${joining}: ${JSON.stringify(j)}`);
    assert.notEqual(j.state, 'RUNNING');
  }
});

test('a job parked at the map-eligible boundary whose only session ended meanwhile fails to map when admitted', () => {
  const e = new Engine(config);
  const tool = e.connectTool();
  const id = grown(e, tool, 's1');
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] }); // a grow in progress: the fence is up
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id }] }).nspace!;
  assert.equal(e.observe({ jobs: [job] }).jobs[0].state, 'WAITING_FOR_DAEMONS');
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).status, Status.PMIX_SUCCESS);
  e.daemon({ event: 'exit', node: 's1' });
  e.daemon({ event: 'report', node: 's2' });
  e.daemon({ event: 'wireup' });
  assert.equal(e.inspect().elastic!.fence, 0);
  assert.equal(e.observe({ jobs: [job] }).jobs[0].state, 'FAILED_TO_MAP');
});

test('terminating a job some of whose processes already ended with their node stops only the running ones: the node, granted again, has every slot free', () => {
  const e = new Engine({ ...config, elastic: false });
  const tool = e.connectTool();
  const id = idOf(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] }).info);
  const job = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1, hosts: ['s1'] }, { cmd: 'b', np: 1, hosts: ['n1'] }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: ['', id] }] }).nspace!;
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] }).status, Status.PMIX_SUCCESS);
  assert.equal(e.terminateJob(job).status, Status.PMIX_SUCCESS);
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e.observe({ nodes: ['s1', 'n1'] }).nodes.map((n) => [n.name, n.slotsInUse]), [['s1', 0], ['n1', 0]]);
});

test('a node named both as a startup node and as one the scheduler can grant is one node, in the DVM from the start', () => {
  const e = new Engine({ ...config, elastic: false, schedulerNodes: [{ name: 'n1', slots: 9 }, ...config.schedulerNodes] });
  assert.deepEqual(e.observe({ nodes: ['n1'] }).nodes.map((n) => [n.name, n.slots, n.availableTo]), [['n1', 2, '']]);
  const t = e.connectTool();
  assert.equal(e.allocate({ requester: t, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 9 }] }).status, Status.PMIX_SUCCESS);
  assert.deepEqual([...e.inspect().allocations[0].nodes].sort(), ['s1', 's2', 's3'], 'the scheduler never grants n1');
});
