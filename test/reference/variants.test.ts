/**
 * The known-good implementations (known-good/*.ts) through the seam: each
 * declares every reading (seam/readings.ts) with a value the registry allows,
 * and what it declares is what it does. The self-test runs the whole suite
 * against each; these are the cheap checks of the same promise, so that a
 * reading declared wrongly is caught without the suite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Implementation } from '../../seam/implementation';
import type { ClusterSetup } from '../../seam/messages';
import { READINGS, type ReadingName } from '../../seam/readings';
import { Directive, Key, Status } from '../../seam/pmix';
import { createImplementation as reference } from '../../reference/adapter';
import { cluster, idOf } from './support/engines';

const dir = path.resolve(__dirname, '..', '..', 'known-good');
const KNOWN_GOOD = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'good.ts')
  .map((f) => f.replace(/\.ts$/, ''));

function load(name: string): () => Implementation {
  return (require(path.join(dir, name)) as { createImplementation: () => Implementation }).createImplementation;
}
const ALL: [string, () => Implementation][] = [['the reference engine', () => reference()], ...KNOWN_GOOD.map((n): [string, () => Implementation] => [n, load(n)])];

const setup: ClusterSetup = cluster();

test('every known-good and the reference engine declare every reading, each with a value the registry allows', async () => {
  assert.ok(KNOWN_GOOD.length >= 10, `found only ${KNOWN_GOOD.length} known-goods`);
  for (const [name, make] of ALL) {
    const d = await make().describe();
    assert.ok(d.name.length > 0, `${name}: describe() names no implementation`);
    for (const reading of Object.keys(READINGS) as ReadingName[]) {
      const value = d.readings?.[reading];
      assert.ok(value !== undefined && Object.prototype.hasOwnProperty.call(READINGS[reading].values, value), `${name} declares ${reading}=${JSON.stringify(value)}`);
    }
  }
});

/** What an implementation does, for the readings a short sequence shows. */
async function behaviour(impl: Implementation): Promise<Partial<Record<ReadingName, string>>> {
  const { scheduler } = await impl.start(setup);
  const { proc: tool } = await impl.connectTool({ label: 'T' });
  const made = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'first' }] });
  assert.equal(made.status, Status.PMIX_SUCCESS);
  const allocId = idOf(made.info);
  const extended = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: allocId }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'second' }] });
  assert.equal(extended.status, Status.PMIX_SUCCESS);
  await impl.scheduler({ action: 'timeout-warning', allocId, timeRemaining: 5 });
  const warning = (await impl.observe({})).events.find((e) => e.code === Status.PMIX_ALLOC_TIMEOUT_WARNING);
  const warnedId = warning?.info.find((i) => i.key === Key.PMIX_ALLOC_REQ_ID)?.value;
  // A tool app on the startup node: does it take a slot?
  const before = (await impl.observe({ nodes: ['n1'] })).nodes[0].slotsInUse;
  const spawned = await impl.spawn({ requester: tool, apps: [{ cmd: 'tool-app', np: 1, tool: true }], info: [] });
  assert.equal(spawned.status, Status.PMIX_SUCCESS);
  const after = (await impl.observe({ nodes: ['n1'] })).nodes[0].slotsInUse;
  await impl.stop();
  void scheduler;
  return {
    'session-id-in-response': made.info.some((i) => i.key === Key.PMIX_SESSION_ID) ? 'returned' : 'omitted',
    'warning-request-id': warnedId === 'first' ? 'creation' : warnedId === 'second' ? 'latest' : String(warnedId),
    'tool-process-slots': after > before ? 'counted' : 'none',
  };
}

test('what each declares for session-id-in-response, warning-request-id and tool-process-slots is what it does', async () => {
  for (const [name, make] of ALL) {
    const impl = make();
    const declared = (await impl.describe()).readings ?? {};
    const seen = await behaviour(impl);
    for (const [reading, value] of Object.entries(seen)) {
      assert.equal(value, declared[reading as ReadingName], `${name}: declares ${reading}=${declared[reading as ReadingName]} but does ${value}`);
    }
  }
});

/** What an implementation does, for the readings of the elastic DVM a short sequence shows. */
async function elasticBehaviour(impl: Implementation): Promise<Partial<Record<ReadingName, string>>> {
  const { scheduler } = await impl.start({ ...setup, schedulerNodes: [{ name: 's1', slots: 2 }, { name: 's2', slots: 2 }, { name: 's3', slots: 2 }], elastic: true });
  const { proc: tool } = await impl.connectTool({ label: 'T' });
  const grow = async (node: string) => {
    await impl.daemon({ event: 'report', node });
    await impl.daemon({ event: 'wireup' });
  };
  const made = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'create' }] });
  const allocId = idOf(made.info);
  await grow('s1');
  await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: allocId }, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'extend' }] });
  await grow('s2');
  const ready = (await impl.observe({})).events.filter((e) => e.code === Status.PMIX_DVM_IS_READY && e.to.nspace === tool.nspace);
  const second = ready[1]?.info.find((i) => i.key === Key.PMIX_ALLOC_REQ_ID)?.value;
  // The scheduler reclaims it: does the scheduler get the completion event?
  await impl.scheduler({ action: 'reclaim', allocId });
  for (const node of ['s1', 's2']) await impl.daemon({ event: 'exit', node });
  const toScheduler = (await impl.observe({})).events.filter((e) => e.to.nspace === scheduler.nspace && e.code === Status.PMIX_DVM_IS_READY).length;
  // A shrink still pending at teardown.
  const other = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's3' }] });
  const otherId = idOf(other.info);
  await grow('s3');
  await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: otherId }] });
  const before = (await impl.observe({})).events.length;
  await impl.scheduler({ action: 'teardown' });
  const events = (await impl.observe({})).events;
  const last = [...events].sort((x, y) => x.seq - y.seq).slice(before).find((e) => e.to.nspace === tool.nspace);
  // Sequence numbers only order events (EventView.seq, a wire integer): positive whole numbers, all distinct.
  const seqs = events.map((e) => e.seq);
  assert.ok(seqs.every((n) => Number.isInteger(n) && n >= 1), `sequence numbers ${JSON.stringify(seqs)}`);
  assert.equal(new Set(seqs).size, seqs.length, `sequence numbers ${JSON.stringify(seqs)} repeat`);
  await impl.stop();
  return {
    'completion-request-id': second === 'extend' ? 'driving' : second === 'create' ? 'creation' : String(second),
    'reclaim-requester': toScheduler > 0 ? 'scheduler' : 'none',
    'teardown-pending-shrink': last?.code === Status.PMIX_DVM_IS_READY ? 'is-ready' : last?.code === Status.PMIX_ERR_DVM_MOD ? 'dvm-mod' : String(last?.code),
  };
}

test('what each declares for completion-request-id, reclaim-requester and teardown-pending-shrink is what it does', async () => {
  for (const [name, make] of ALL) {
    if (name === 'daemons-act-on-their-own') continue; // its daemons report and depart on their own: the sequence above cannot drive it
    const impl = make();
    const declared = (await impl.describe()).readings ?? {};
    const seen = await elasticBehaviour(impl);
    for (const [reading, value] of Object.entries(seen)) {
      assert.equal(value, declared[reading as ReadingName], `${name}: declares ${reading}=${declared[reading as ReadingName]} but does ${value}`);
    }
  }
});

test('accepts-size-change-in-progress: a request that starts a size change is accepted with its own accepted status, one that completes at once with PMIX_SUCCESS', async () => {
  const impl = load('accepts-size-change-in-progress')();
  await impl.start({ ...setup, elastic: true });
  const { proc: tool } = await impl.connectTool({ label: 'T' });
  const grow = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  assert.equal(grow.status, Status.PMIX_OPERATION_IN_PROGRESS, 'the grow was accepted, not completed');
  assert.ok(grow.info.some((i) => i.key === Key.PMIX_ALLOC_ID), 'the acceptance carries the allocation id');
  const carve = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 'n1' }] });
  assert.equal(carve.status, Status.PMIX_SUCCESS, 'carving a startup node changes no size: nothing is in progress');
  const refused = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 'nope', required: true }] });
  assert.notEqual(refused.status, Status.PMIX_SUCCESS);
  assert.notEqual(refused.status, Status.PMIX_OPERATION_IN_PROGRESS);
  await impl.stop();
});

test('a failed grow\'s PMIX_ERR_DVM_MOD carries the allocation id and the cause, under some key, in every known-good', async () => {
  for (const [name, make] of ALL) {
    if (name === 'daemons-act-on-their-own') continue; // its daemons report on their own: this sequence cannot make one fail first
    const impl = make();
    await impl.start({ ...setup, elastic: true });
    const { proc: tool } = await impl.connectTool({ label: 'T' });
    const r = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
    const allocId = idOf(r.info);
    await impl.daemon({ event: 'fail-to-start', node: 's1', cause: Status.PMIX_ERR_NOT_FOUND });
    const failed = (await impl.observe({})).events.filter((e) => e.code === Status.PMIX_ERR_DVM_MOD && e.to.nspace === tool.nspace);
    assert.equal(failed.length, 1, `${name}: one PMIX_ERR_DVM_MOD`);
    const info = failed[0].info;
    assert.ok(info.some((i) => i.key === Key.PMIX_ALLOC_ID && i.value === allocId), `${name}: the event names ${String(allocId)}`);
    assert.ok(info.some((i) => typeof i.key === 'string' && i.key.length > 0 && i.key !== Key.PMIX_ALLOC_ID && i.value === Status.PMIX_ERR_NOT_FOUND), `${name}: the cause is in the event's info array: ${JSON.stringify(info)}`);
    await impl.stop();
  }
});

test('what each declares for grow-failure-aborts is what it does', async () => {
  for (const [name, make] of ALL) {
    if (name === 'daemons-act-on-their-own') continue; // its daemons report on their own: this sequence cannot hold a grow open
    const impl = make();
    const declared = (await impl.describe()).readings?.['grow-failure-aborts'];
    await impl.start({ ...setup, elastic: true });
    const { proc: tool } = await impl.connectTool({ label: 'T' });
    await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
    const before = await impl.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [] }); // parks while the first grow is in progress
    await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] });
    const during = await impl.spawn({ requester: tool, apps: [{ cmd: 'b', np: 1 }], info: [] }); // parks while both are
    await impl.daemon({ event: 'crash', node: 's2' }); // the second grow fails
    const states = (await impl.observe({ jobs: [before.nspace!, during.nspace!] })).jobs;
    const stateOf = (ns: string) => states.find((j) => j.nspace === ns)?.state;
    assert.equal(stateOf(during.nspace!), 'NEVER_LAUNCHED', `${name}: a job parked during the failed grow never launches`);
    const seen = stateOf(before.nspace!) === 'NEVER_LAUNCHED' ? 'all-parked-at-map' : 'parked-during-grow';
    assert.equal(seen, declared, `${name}: declares grow-failure-aborts=${declared} but does ${seen}`);
    await impl.stop();
  }
});

test('by-node-mapping: an app naming an empty host list may use every candidate node', async () => {
  const impl = load('by-node-mapping')();
  await impl.start(setup);
  const { proc: tool } = await impl.connectTool({ label: 'T' });
  const r = await impl.spawn({ requester: tool, apps: [{ cmd: 'a', np: 2, hosts: [] }], info: [] });
  assert.equal(r.status, Status.PMIX_SUCCESS);
  await impl.stop();
});

test('completion-carries-creation-req-id: a release by node list alone still carries the id that created the allocation', async () => {
  const impl = load('completion-carries-creation-req-id')();
  await impl.start({ ...setup, elastic: true });
  const { proc: tool } = await impl.connectTool({ label: 'T' });
  const r = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s2' }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'create' }] });
  for (const node of ['s1', 's2']) await impl.daemon({ event: 'report', node });
  await impl.daemon({ event: 'wireup' });
  const before = (await impl.observe({})).events.length;
  assert.equal((await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's2' }] })).status, Status.PMIX_SUCCESS);
  await impl.daemon({ event: 'exit', node: 's2' });
  const ev = (await impl.observe({})).events.slice(before);
  assert.deepEqual(ev.map((e) => [e.code, e.info]), [[Status.PMIX_DVM_IS_READY, [{ key: Key.PMIX_ALLOC_ID, value: idOf(r.info) }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'create' }]]]);
  await impl.stop();
});
