/** Smoke tests of the reference engine's elastic machinery (the features specify it; these guard the engine). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { Directive, Key, Status } from '../../seam/pmix';
import { cluster, idOf } from './support/engines';

const config = (elastic: boolean) => cluster({ startupNodes: 2, elastic });

function grow(e: Engine, requester: { nspace: string; rank: number }, node: string) {
  const r = e.allocate({ requester, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: node }, { key: Key.PMIX_ALLOC_SHARE, value: true }, { key: Key.PMIX_ALLOC_REQ_ID, value: `g-${node}` }] });
  assert.equal(r.status, Status.PMIX_SUCCESS);
  return idOf(r.info);
}

test('a grow parks a job at the map-eligible boundary until its daemons report and are wired; the requester gets one IS_READY', () => {
  const e = new Engine(config(true));
  const t = e.connectTool();
  const id = grow(e, t, 's1');
  assert.equal(e.observe({ nodes: ['s1'] }).nodes[0].daemon, 'joining');
  const j = e.spawn({ requester: t, apps: [{ cmd: 'x', np: 6 }], info: [] });
  assert.equal(e.observe({ jobs: [j.nspace!] }).jobs[0].state, 'WAITING_FOR_DAEMONS');
  e.daemon({ event: 'report', node: 's1' });
  assert.equal(e.observe({ jobs: [j.nspace!] }).jobs[0].state, 'WAITING_FOR_DAEMONS');
  e.daemon({ event: 'wireup' });
  const job = e.observe({ jobs: [j.nspace!] }).jobs[0];
  assert.equal(job.state, 'RUNNING');
  assert.ok(job.procs.some((p) => p.node === 's1'));
  const ev = e.observe().events;
  assert.equal(ev.length, 1);
  assert.equal(ev[0].code, Status.PMIX_DVM_IS_READY);
  assert.deepEqual(ev[0].to, t);
  assert.deepEqual(ev[0].info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value, id);
});

test('a failed grow rolls back, aborts its waiters and sends PMIX_ERR_DVM_MOD with the cause', () => {
  const e = new Engine(config(true));
  const t = e.connectTool();
  grow(e, t, 's1');
  const j = e.spawn({ requester: t, apps: [{ cmd: 'x', np: 1 }], info: [] });
  e.daemon({ event: 'crash', node: 's1', cause: Status.PMIX_ERR_TIMEOUT });
  assert.equal(e.observe({ nodes: ['s1'] }).nodes.length, 0);
  assert.equal(e.observe({ jobs: [j.nspace!] }).jobs[0].state, 'NEVER_LAUNCHED');
  const ev = e.observe().events;
  assert.equal(ev.length, 1);
  assert.equal(ev[0].code, Status.PMIX_ERR_DVM_MOD);
  assert.equal(ev[0].info.find((i) => i.key === Key.PMIX_JOB_TERM_STATUS)?.value, Status.PMIX_ERR_TIMEOUT);
});

test('a shrink completes on departure, counted once; a launch-parked job on the departing node is remapped', () => {
  const e = new Engine(config(true));
  const t = e.connectTool();
  const a = e.spawn({ requester: t, apps: [{ cmd: 'a', np: 1 }], info: [] });
  const app = { nspace: a.nspace!, rank: 0 };
  // R: two scheduler nodes and the startup node n2 (carved, already wired), 2 slots each.
  const r = e.allocate({ requester: app, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s2,n2' }] });
  const id = idOf(r.info);
  for (const n of ['s1', 's2']) e.daemon({ event: 'report', node: n });
  e.daemon({ event: 'wireup' });
  const c = e.spawn({ requester: app, apps: [{ cmd: 'c', np: 3 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: id }], hold: 'launch' });
  assert.equal(c.status, Status.PMIX_OPERATION_IN_PROGRESS);
  const onS2 = e.observe({ jobs: [c.nspace!] }).jobs[0].procs.some((p) => p.node === 's2');
  assert.ok(onS2);
  assert.equal(e.allocate({ requester: app, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] }).status, Status.PMIX_SUCCESS);
  e.advanceJob({ nspace: c.nspace!, to: 'launch' });
  assert.equal(e.observe({ jobs: [c.nspace!] }).jobs[0].state, 'WAITING_FOR_DAEMONS');
  e.daemon({ event: 'exit', node: 's2' });
  e.daemon({ event: 'crash', node: 's2' });
  const job = e.observe({ jobs: [c.nspace!] }).jobs[0];
  assert.equal(job.state, 'RUNNING');
  assert.ok(job.procs.every((p) => p.running && p.node !== 's2'), JSON.stringify(job.procs));
  // Slot accounting restored: the old claim on s2 is gone, the three processes are counted once.
  const used = new Map(e.observe({ nodes: ['s1', 'n2'] }).nodes.map((n) => [n.name, n.slotsInUse]));
  assert.equal((used.get('s1') ?? 0) + (used.get('n2') ?? 0), 3);
  const ready = e.observe().events.filter((x) => x.code === Status.PMIX_DVM_IS_READY);
  assert.equal(ready.length, 2); // the grow's and the shrink's, one each
});

test('outside elastic mode nothing parks, no campaign, no event', () => {
  const e = new Engine(config(false));
  const t = e.connectTool();
  grow(e, t, 's1');
  const j = e.spawn({ requester: t, apps: [{ cmd: 'x', np: 6 }], info: [] });
  assert.equal(e.observe({ jobs: [j.nspace!] }).jobs[0].state, 'RUNNING');
  assert.equal(e.observe().events.length, 0);
  assert.equal(e.inspect().elastic, undefined);
});
