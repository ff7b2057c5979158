/**
 * The scheduler's allocation timeout warning and its relay: what the
 * scheduler does (warn, reclaim), which processes an event reached, what the
 * relayed PMIX_ALLOC_TIMEOUT_WARNING carries, what the runtime passed on to
 * its scheduler, and that a warning changed nothing but the events delivered.
 *
 * Event assertions count only the events delivered since the last scheduler
 * action of the scenario (the "mark"), so earlier events (a previous warning,
 * a job's end) do not confuse them. Before any scheduler action the mark is
 * the start of the scenario.
 */
import { When, type DataTable } from '@cucumber/cucumber';
import { Then } from './support/claims';
import { isDeepStrictEqual } from 'node:util';
import type { EventView, Info, ProcId, SchedulerAction } from '../seam/messages';
import { describeStatus, Key, keyName, Status } from '../seam/pmix';
import { actorName, procOf } from './support/actions';
import type { Actor } from './support/parameters';
import { ABSENT, carriedAsExpected, describeExpected, keyString, parseExpected } from './support/values';
import type { ConformanceWorld, Observation } from './support/world';
import { diff } from './support/diff';

interface EventState {
  /** Events with a seq above this were delivered after the last scheduler action. */
  mark: number;
  /** The observation taken just before the last scheduler action. */
  before?: Observation;
}

const state = new WeakMap<ConformanceWorld, EventState>();

function eventState(world: ConformanceWorld): EventState {
  let s = state.get(world);
  if (!s) state.set(world, (s = { mark: 0 }));
  return s;
}

const WARNING = Status.PMIX_ALLOC_TIMEOUT_WARNING;

/** Record the observation and the event mark, then let the scheduler act. */
async function schedulerActs(world: ConformanceWorld, action: SchedulerAction, operation: string) {
  await world.ready();
  const before = await world.observeBefore();
  const s = eventState(world);
  s.before = before;
  s.mark = (before?.snapshot ?? (await world.freshSnapshot())).events.reduce((max, e) => Math.max(max, e.seq), 0);
  const ack = await world.call('scheduler', () => world.impl.scheduler(action));
  world.last = { operation, status: ack.status, info: [], before };
}

async function eventsSinceMark(world: ConformanceWorld): Promise<EventView[]> {
  await world.ready();
  const snap = await world.snapshot({});
  const mark = eventState(world).mark;
  return snap.events.filter((e) => e.seq > mark);
}

const sameProc = (a: ProcId, b: ProcId) => a.nspace === b.nspace && a.rank === b.rank;

function describeEvents(world: ConformanceWorld, events: EventView[]): string {
  if (events.length === 0) return 'no event';
  return events
    .map((e) => `${describeStatus(e.code)} to ${world.nameOf(e.to.nspace)} rank ${e.to.rank} {${describeInfo(world, e.info)}}`)
    .join('; ');
}

function describeInfo(world: ConformanceWorld, info: Info[]): string {
  const show = (v: unknown): string => (typeof v === 'string' ? `${JSON.stringify(v)}${world.nameOf(v) !== JSON.stringify(v) ? ` (${world.nameOf(v)})` : ''}` : JSON.stringify(v));
  return info.map((i) => `${keyName(i.key)}=${show(i.value)}`).join(', ');
}

// ------------------------------------------------------------ the scheduler --

When('the scheduler warns that allocation {string} expires in {int} seconds', async function (this: ConformanceWorld, alias: string, seconds: number) {
  const allocId = this.allocId(alias);
  await schedulerActs(this, { action: 'timeout-warning', allocId, timeRemaining: seconds }, `the scheduler: PMIX_ALLOC_TIMEOUT_WARNING for allocation ${alias}, PMIX_TIME_REMAINING=${seconds}`);
});

When('the scheduler warns about allocation {string} without saying how long remains', async function (this: ConformanceWorld, alias: string) {
  const allocId = this.allocId(alias);
  await schedulerActs(this, { action: 'timeout-warning', allocId }, `the scheduler: PMIX_ALLOC_TIMEOUT_WARNING for allocation ${alias}, no PMIX_TIME_REMAINING`);
});

When('the scheduler warns about an allocation {string} it never granted', async function (this: ConformanceWorld, allocId: string) {
  await schedulerActs(this, { action: 'timeout-warning', allocId, timeRemaining: 60 }, `the scheduler: PMIX_ALLOC_TIMEOUT_WARNING for unknown PMIX_ALLOC_ID ${JSON.stringify(allocId)}, PMIX_TIME_REMAINING=60`);
});

When('allocation {string} expires and the scheduler reclaims it', async function (this: ConformanceWorld, alias: string) {
  const allocId = this.allocId(alias);
  await schedulerActs(this, { action: 'reclaim', allocId }, `the scheduler: reclaims allocation ${alias} (expiry)`);
});

// ------------------------------------------------------- who got what event --

Then('{actor} receives exactly one PMIX_ALLOC_TIMEOUT_WARNING', async function (this: ConformanceWorld, actor: Actor) {
  const proc = procOf(this, actor);
  const events = await eventsSinceMark(this);
  const mine = events.filter((e) => e.code === WARNING && sameProc(e.to, proc));
  if (mine.length !== 1) {
    this.fail(`exactly one PMIX_ALLOC_TIMEOUT_WARNING delivered to ${actorName(actor)}`, `${mine.length} delivered to it; all events since: ${describeEvents(this, events)}`);
  }
});

Then('{actor} receives no event', async function (this: ConformanceWorld, actor: Actor) {
  const proc = procOf(this, actor);
  const events = await eventsSinceMark(this);
  const mine = events.filter((e) => sameProc(e.to, proc));
  if (mine.length > 0) this.fail(`no event delivered to ${actorName(actor)}`, describeEvents(this, mine));
});

Then('no process receives PMIX_ALLOC_TIMEOUT_WARNING', async function (this: ConformanceWorld) {
  const events = await eventsSinceMark(this);
  const warnings = events.filter((e) => e.code === WARNING);
  if (warnings.length > 0) this.fail('no PMIX_ALLOC_TIMEOUT_WARNING delivered to any process', describeEvents(this, warnings));
});

Then('no process receives any event', async function (this: ConformanceWorld) {
  const events = await eventsSinceMark(this);
  if (events.length > 0) this.fail('no event delivered to any process', describeEvents(this, events));
});

/**
 * The payload of the one PMIX_ALLOC_TIMEOUT_WARNING delivered since the
 * mark. A row's value uses the table language of values.ts; `(absent)`
 * means the key must not be in the payload, `one of a, b` that it is there
 * with one of those values (where a reading leaves open which).
 */
Then('the warning carries:', async function (this: ConformanceWorld, table: DataTable) {
  const events = await eventsSinceMark(this);
  const warnings = events.filter((e) => e.code === WARNING);
  if (warnings.length !== 1) this.fail('exactly one PMIX_ALLOC_TIMEOUT_WARNING to examine', describeEvents(this, events));
  const info = warnings[0].info;
  for (const [name, text] of table.raw()) {
    const key = keyString(name);
    const expected = parseExpected(text, this);
    const present = info.filter((i) => i.key === key);
    if (expected === ABSENT) {
      if (present.length > 0) this.fail(`no ${name} in the warning`, `${name}=${present.map((i) => JSON.stringify(i.value)).join(', ')} in {${describeInfo(this, info)}}`);
      continue;
    }
    if (!carriedAsExpected(expected, present)) {
      this.fail(`${name}=${describeExpected(expected)} (${text.trim()}) in the warning`, present.length === 0 ? `no ${name} in {${describeInfo(this, info)}}` : `{${describeInfo(this, info)}}`);
    }
  }
});

// ----------------------------------------------------- what was passed on --

Then('the scheduler was passed PMIX_ALLOC_WARN_TIMEOUT {int} for allocation {string}', async function (this: ConformanceWorld, seconds: number, alias: string) {
  if (!this.has('introspection')) throw new Error('this step needs the introspection capability (tag the scenario @needs:introspection)');
  const { introspection } = await this.observe();
  if (!introspection) throw new Error('the implementation declares introspection but has no inspect()');
  const allocId = this.allocId(alias);
  const alloc = introspection.allocations.find((a) => a.allocId === allocId);
  if (!alloc) this.fail(`allocation ${alias} in the implementation's bookkeeping`, `allocations: ${introspection.allocations.map((a) => a.allocId).join(', ') || 'none'}`);
  const passed = alloc.forwardedToScheduler.filter((i) => i.key === Key.PMIX_ALLOC_WARN_TIMEOUT);
  const latest = passed[passed.length - 1];
  if (!latest || latest.value !== seconds) {
    this.fail(`PMIX_ALLOC_WARN_TIMEOUT=${seconds} passed to the scheduler for allocation ${alias} (the latest one passed)`, passed.length === 0 ? `none passed; forwarded {${describeInfo(this, alloc.forwardedToScheduler)}}` : `passed ${passed.map((i) => JSON.stringify(i.value)).join(', ')}`);
  }
});

// ----------------------------------------------------- what did not change --

/** Everything observable except the events list, and every allocation's bookkeeping, is as just before the last scheduler action. */
Then('nothing but events changed', async function (this: ConformanceWorld) {
  const before = eventState(this).before;
  if (!before) throw new Error('no observation was recorded before a scheduler action: is this step\'s text in COMPARES_WITH_BEFORE (steps/support/world.ts)?');
  const now = await this.observe();
  const { events: _b, ...was } = before.snapshot;
  const { events: _n, ...is } = now.snapshot;
  if (!isDeepStrictEqual(is, was)) this.fail('nodes and jobs exactly as before the scheduler acted', diff(was, is));
  if (before.introspection && !isDeepStrictEqual(now.introspection, before.introspection)) {
    this.fail("no change to any allocation's owners, requester, disposition or nodes", diff(before.introspection, now.introspection));
  }
});

