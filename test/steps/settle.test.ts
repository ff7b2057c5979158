/** Waiting for an implementation to settle, in virtual time (seam/clock.ts), and the time-shifted adapter that makes one trail. */
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { clock, useRealTime, useVirtualTime } from '../../seam/clock';
import type { NodeView, Snapshot } from '../../seam/messages';
import { QUIET_MS, SETTLE_MS, settle } from '../../steps/support/settle';
import { timeShifted } from '../../adapters/time-shifted';
import { createImplementation as reference } from '../../adapters/reference';
import { Directive, Key } from '../../seam/pmix';

afterEach(() => useRealTime());

const node = (name: string, daemon: NodeView['daemon'] = 'ready'): NodeView => ({ name, slots: 1, slotsInUse: 0, availableTo: '', daemon });
const snap = (nodes: NodeView[]): Snapshot => ({ nodes, jobs: [], events: [] });

/** An observation that changes at the given times (ms from the start). */
function changingAt(changes: [number, Snapshot][]): () => Promise<Snapshot> {
  const start = clock.now();
  return async () => {
    let seen = changes[0][1];
    for (const [at, s] of changes) if (clock.now() - start >= at) seen = s;
    return seen;
  };
}

test('settles once the observations have not changed for the quiet period, and not before', async () => {
  useVirtualTime();
  const last = snap([node('n1'), node('n2')]);
  const s = await settle(changingAt([[0, snap([node('n1')])], [400, last]]), { daemonsToo: false });
  assert.deepEqual(s.snapshot, last);
  assert.ok(s.waitedMs >= 400 + QUIET_MS, `waited ${s.waitedMs} ms`);
  assert.equal(s.unsettled, undefined);
});

test('with daemonsToo it waits for joining nodes however quiet things are, and says so when they never settle', async () => {
  useVirtualTime();
  const joined = await settle(changingAt([[0, snap([node('s1', 'joining')])], [5000, snap([node('s1')])]]), { daemonsToo: true });
  assert.equal(joined.snapshot.nodes[0].daemon, 'ready');
  const never = await settle(changingAt([[0, snap([node('s1', 'joining')])]]), { daemonsToo: true });
  assert.ok(never.waitedMs >= SETTLE_MS);
  assert.match(never.unsettled ?? '', /s1 joining/);
  const ignored = await settle(changingAt([[0, snap([node('s1', 'joining')])]]), { daemonsToo: false });
  assert.equal(ignored.unsettled, undefined, 'a node a harness holds joining (daemon control) does not keep it waiting');
});

test('the time-shifted adapter answers at once and shows the effect only after the delay, events later still', async () => {
  useVirtualTime();
  const impl = timeShifted(reference(), { nodesMs: 250, eventsMs: 400 });
  assert.equal((await impl.describe()).effectsTrailAnswers, true);
  await impl.start({ startupNodes: [{ name: 'n1', slots: 2 }], schedulerNodes: [{ name: 's1', slots: 2 }], withoutKeys: [], elastic: false });
  const { proc } = await impl.connectTool({ label: 'T' });
  const r = await impl.allocate({ requester: proc, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  assert.equal(r.status, 0, 'the answer is not delayed');
  const names = async () => (await impl.observe({})).nodes.map((n) => n.name);
  assert.deepEqual(await names(), ['n1']);
  await clock.sleep(249);
  assert.deepEqual(await names(), ['n1']);
  await clock.sleep(1);
  assert.deepEqual(await names(), ['n1', 's1']);
});
