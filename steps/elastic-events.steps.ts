/**
 * The elastic DVM's phase-two completion events, PMIX_DVM_IS_READY and
 * PMIX_ERR_DVM_MOD: who received them, how many, what they carry, what the
 * DVM looked like in the observation that first showed them, and the
 * ordering of the resource-release offers before a shrink's event.
 *
 * Only completion events delivered after the scenario's setup count (the
 * mark set by "the daemons on nodes … have joined the DVM"), so the events
 * of the grows that built the scenario's DVM do not confuse them.
 */
import { type DataTable } from '@cucumber/cucumber';
import { Then } from './support/claims';
import type { EventView, Info, ProcId, Snapshot } from '../seam/messages';
import { describeStatus, Key, keyName, Status } from '../seam/pmix';
import { actorName, procOf } from './support/actions';
import { payloadClause } from './support/charge';
import type { Actor } from './support/parameters';
import { ABSENT, carriedAsExpected, describeExpected, keyString, parseExpected, splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';
import { campaignId, elasticScenario } from './support/elastic';
import { readElasticView } from './elastic-internals.steps';

const READY = Status.PMIX_DVM_IS_READY;
const MOD = Status.PMIX_ERR_DVM_MOD;
const isCompletion = (e: EventView) => e.code === READY || e.code === MOD;
const sameProc = (a: ProcId, b: ProcId) => a.nspace === b.nspace && a.rank === b.rank;

async function snapshot(world: ConformanceWorld): Promise<Snapshot> {
  await world.ready();
  return world.snapshot({});
}

/** Completion events delivered since the mark, in delivery order, with the snapshot they came from. */
async function completions(world: ConformanceWorld): Promise<{ events: EventView[]; snap: Snapshot }> {
  const snap = await snapshot(world);
  const mark = elasticScenario(world).mark;
  return { events: snap.events.filter((e) => e.seq > mark && isCompletion(e)).sort((a, b) => a.seq - b.seq), snap };
}

function describeEvents(world: ConformanceWorld, events: EventView[]): string {
  if (events.length === 0) return 'no completion event';
  return events.map((e) => `#${e.seq} ${describeStatus(e.code)} to ${world.nameOf(e.to.nspace)} rank ${e.to.rank} {${describeInfo(world, e.info)}}`).join('; ');
}

function describeInfo(world: ConformanceWorld, info: Info[]): string {
  const show = (v: unknown): string => {
    if (typeof v === 'number' && describeStatus(v) !== `status ${v}` && v < 0) return `${v} (${describeStatus(v)})`;
    return typeof v === 'string' ? `${JSON.stringify(v)}${world.nameOf(v) !== JSON.stringify(v) ? ` (${world.nameOf(v)})` : ''}` : JSON.stringify(v);
  };
  return info.map((i) => `${keyName(i.key)}=${show(i.value)}`).join(', ');
}

const reqIdOf = (e: EventView) => e.info.find((i) => i.key === Key.PMIX_ALLOC_REQ_ID)?.value;
const allocIdOf = (e: EventView) => e.info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value;

// -------------------------------------------------------------- how many --

for (const [name, code] of [
  ['PMIX_DVM_IS_READY', READY],
  ['PMIX_ERR_DVM_MOD', MOD],
] as const) {
  /** Exactly one terminal event reached the actor since the setup, and it is this one (never both, never neither). */
  Then(`{actor} receives exactly one ${name}`, async function (this: ConformanceWorld, actor: Actor) {
    const proc = procOf(this, actor);
    const { events } = await completions(this);
    const mine = events.filter((e) => sameProc(e.to, proc));
    if (mine.length !== 1 || mine[0].code !== code) {
      this.fail(`exactly one completion event delivered to ${actorName(actor)}: ${name}`, `${mine.length} delivered to it: ${describeEvents(this, mine)}; all since the setup: ${describeEvents(this, events)}`);
    }
  });

  /**
   * How many of this code reached the actor since the setup, whatever else
   * it received: for a requester of several concurrent size changes, where
   * which request an event belongs to is told by its PMIX_ALLOC_REQ_ID, and
   * which id it carries is a reading (IP-READING-COMPLETION-REQ-ID).
   */
  Then(`{actor} receives {int} ${name} in all`, async function (this: ConformanceWorld, actor: Actor, count: number) {
    const proc = procOf(this, actor);
    const { events } = await completions(this);
    const mine = events.filter((e) => sameProc(e.to, proc) && e.code === code);
    if (mine.length !== count) {
      this.fail(`${count} ${name} delivered to ${actorName(actor)} in all`, `${mine.length}: ${describeEvents(this, mine)}; all since the setup: ${describeEvents(this, events)}`);
    }
  });

  /** Per request: the events carrying this PMIX_ALLOC_REQ_ID. */
  Then(`{actor} receives exactly one ${name} for request {string}`, async function (this: ConformanceWorld, actor: Actor, reqId: string) {
    const proc = procOf(this, actor);
    const { events } = await completions(this);
    const mine = events.filter((e) => sameProc(e.to, proc) && reqIdOf(e) === reqId);
    if (mine.length !== 1 || mine[0].code !== code) {
      this.fail(`exactly one completion event for request "${reqId}" delivered to ${actorName(actor)}: ${name}`, `${mine.length} such: ${describeEvents(this, mine)}; all since the setup: ${describeEvents(this, events)}`);
    }
  });

  /**
   * Per allocation: the events carrying its PMIX_ALLOC_ID, which every
   * reading agrees on (which PMIX_ALLOC_REQ_ID an event carries is a
   * reading: IP-READING-COMPLETION-REQ-ID).
   */
  Then(`{actor} receives exactly one ${name} for allocation {string}`, async function (this: ConformanceWorld, actor: Actor, alias: string) {
    const proc = procOf(this, actor);
    const { events } = await completions(this);
    const mine = events.filter((e) => sameProc(e.to, proc) && allocIdOf(e) === this.allocId(alias));
    if (mine.length !== 1 || mine[0].code !== code) {
      this.fail(`exactly one completion event for allocation ${alias} delivered to ${actorName(actor)}: ${name}`, `${mine.length} such: ${describeEvents(this, mine)}; all since the setup: ${describeEvents(this, events)}`);
    }
  });

  /** The observation that first shows the event already shows the DVM in the state the event announces. */
  for (const [words, wanted] of [
    ['is/are ready', 'ready'],
    ['has/have left the DVM', 'gone'],
  ] as const) {
    Then(`by the time {actor} receives ${name}, node(s) {string} ${words}`, async function (this: ConformanceWorld, actor: Actor, names: string) {
      const proc = procOf(this, actor);
      const { events, snap } = await completions(this);
      const event = events.find((e) => sameProc(e.to, proc) && e.code === code);
      if (!event) this.fail(`${name} delivered to ${actorName(actor)}`, describeEvents(this, events));
      // Judged at the moment of delivery, as near as a client can see it: the
      // first observation that showed the event (a live runtime's nodes may
      // have moved on since).
      const then = this.firstSeen.get(event.seq) ?? snap;
      for (const node of splitNames(names)) {
        const v = then.nodes.find((n) => n.name === node);
        const ok = wanted === 'ready' ? v?.daemon === 'ready' : v === undefined;
        if (!ok) {
          this.fail(
            `in the same observation as ${name}: node ${node} ${wanted === 'ready' ? 'a ready member of the DVM' : 'no longer a member of the DVM'}`,
            v ? `node ${node} is in the DVM, daemon ${v.daemon}` : `node ${node} is not in the DVM`,
          );
        }
      }
    });
  }
}

Then('{actor} receives no completion event', async function (this: ConformanceWorld, actor: Actor) {
  const proc = procOf(this, actor);
  const { events } = await completions(this);
  const mine = events.filter((e) => sameProc(e.to, proc));
  if (mine.length > 0) this.fail(`no PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD delivered to ${actorName(actor)}`, describeEvents(this, mine));
});

Then('{actor} receives no completion event for request {string}', async function (this: ConformanceWorld, actor: Actor, reqId: string) {
  const proc = procOf(this, actor);
  const { events } = await completions(this);
  const mine = events.filter((e) => sameProc(e.to, proc) && reqIdOf(e) === reqId);
  if (mine.length > 0) this.fail(`no completion event for request "${reqId}" delivered to ${actorName(actor)} yet`, describeEvents(this, mine));
});

/** One terminal event, whichever of the two (where a reading leaves open which: IP-READING-TEARDOWN-PENDING-SHRINK). */
Then('{actor} receives exactly one completion event for allocation {string}', async function (this: ConformanceWorld, actor: Actor, alias: string) {
  const proc = procOf(this, actor);
  const { events } = await completions(this);
  const mine = events.filter((e) => sameProc(e.to, proc) && allocIdOf(e) === this.allocId(alias));
  if (mine.length !== 1) {
    this.fail(`exactly one completion event (PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD) for allocation ${alias} delivered to ${actorName(actor)}`, `${mine.length} such: ${describeEvents(this, mine)}; all since the setup: ${describeEvents(this, events)}`);
  }
});

Then('{actor} receives no completion event for allocation {string}', async function (this: ConformanceWorld, actor: Actor, alias: string) {
  const proc = procOf(this, actor);
  const { events } = await completions(this);
  const mine = events.filter((e) => sameProc(e.to, proc) && allocIdOf(e) === this.allocId(alias));
  if (mine.length > 0) this.fail(`no completion event for allocation ${alias} delivered to ${actorName(actor)} yet`, describeEvents(this, mine));
});

/**
 * Where a reading leaves open whether the scheduler is a requester at all
 * (IP-READING-RECLAIM-REQUESTER): nobody else gets an event, the scheduler at
 * most one. Needs no scheduler-requests: the scheduler only receives here.
 */
Then('no process but the scheduler receives a completion event, and the scheduler at most one', async function (this: ConformanceWorld) {
  const { events } = await completions(this);
  const others = events.filter((e) => !sameProc(e.to, this.scheduler));
  if (others.length > 0) this.fail('completion events directed to the scheduler only, never broadcast', describeEvents(this, others));
  const its = events.filter((e) => sameProc(e.to, this.scheduler));
  if (its.length > 1) this.fail('at most one completion event delivered to the scheduler', describeEvents(this, its));
});

/** Every event the actor got since the setup, counted: one per accepted size change it asked for. */
Then('{actor} receives exactly {int} completion events, each PMIX_DVM_IS_READY', async function (this: ConformanceWorld, actor: Actor, n: number) {
  const proc = procOf(this, actor);
  const { events } = await completions(this);
  const mine = events.filter((e) => sameProc(e.to, proc));
  if (mine.length !== n || mine.some((e) => e.code !== READY)) {
    this.fail(`exactly ${n} completion events delivered to ${actorName(actor)}, each PMIX_DVM_IS_READY`, `${mine.length} delivered to it: ${describeEvents(this, mine)}`);
  }
});

Then('no process receives a completion event', async function (this: ConformanceWorld) {
  const { events } = await completions(this);
  if (events.length > 0) this.fail('no PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD delivered to any process', describeEvents(this, events));
});

Then('no process but {actor} receives a completion event', async function (this: ConformanceWorld, actor: Actor) {
  const proc = procOf(this, actor);
  const { events } = await completions(this);
  const others = events.filter((e) => !sameProc(e.to, proc));
  if (others.length > 0) this.fail(`completion events directed to ${actorName(actor)} only, never broadcast`, describeEvents(this, others));
});

// ---------------------------------------------------------- what it carries --

/**
 * A row's value uses the table language of values.ts, plus PMIx status
 * names (for the cause); `(absent)` means the key must not be there, and
 * `one of a, b` that it must be there with one of those values (where a
 * reading leaves open which).
 */
function checkPayload(world: ConformanceWorld, event: EventView, table: DataTable) {
  for (const [name, text] of table.raw()) {
    if (name.trim() === 'the underlying cause') {
      checkCause(world, event, text.trim());
      continue;
    }
    const key = keyString(name);
    const t = text.trim();
    const charge = payloadClause(event.code === Status.PMIX_ERR_DVM_MOD ? 'mod' : 'ready', key === Key.PMIX_ALLOC_ID ? 'alloc-id' : 'req-id');
    const expected = t in Status ? Status[t as keyof typeof Status] : parseExpected(text, world);
    const present = event.info.filter((i) => i.key === key);
    if (expected === ABSENT) {
      if (present.length > 0) world.fail(`no ${name} in the ${describeStatus(event.code)} payload`, `{${describeInfo(world, event.info)}}`, charge);
      continue;
    }
    if (!carriedAsExpected(expected, present)) {
      world.fail(`${name}=${describeExpected(expected)} (${t}) in the ${describeStatus(event.code)} payload`, present.length === 0 ? `no ${name} in {${describeInfo(world, event.info)}}` : `{${describeInfo(world, event.info)}}`, charge);
    }
  }
}

/**
 * The specification says the cause is "conveyed in the event's info array"
 * and names no key for it: any entry besides the two ids whose value is the
 * cause's status will do.
 */
function checkCause(world: ConformanceWorld, event: EventView, name: string) {
  if (!(name in Status)) throw new Error(`the underlying cause must be a PMIx status name, not ${name}`);
  const cause = Status[name as keyof typeof Status];
  const ids: string[] = [Key.PMIX_ALLOC_ID, Key.PMIX_ALLOC_REQ_ID];
  if (!event.info.some((i) => !ids.includes(i.key) && i.value === cause)) {
    world.fail(`the underlying cause ${name} (${cause}) in the ${describeStatus(event.code)} payload, under any key`, `{${describeInfo(world, event.info)}}`, payloadClause('mod', 'cause'));
  }
}

Then('the completion event carries:', async function (this: ConformanceWorld, table: DataTable) {
  const { events } = await completions(this);
  if (events.length !== 1) this.fail('exactly one completion event (since the setup) to examine', describeEvents(this, events));
  checkPayload(this, events[0], table);
});

Then('the completion event to {actor} carries:', async function (this: ConformanceWorld, actor: Actor, table: DataTable) {
  const proc = procOf(this, actor);
  const { events } = await completions(this);
  const mine = events.filter((e) => sameProc(e.to, proc));
  if (mine.length !== 1) this.fail(`exactly one completion event to ${actorName(actor)} to examine`, describeEvents(this, events));
  checkPayload(this, mine[0], table);
});

// ------------------------------------------- resource release before the event --

/**
 * Every offer of the completed shrink to a resource component came before
 * the requester's PMIX_DVM_IS_READY (introspection: the offer records how
 * many events had been delivered when it was made).
 */
Then('the shrink of node(s) {string} was offered to the resource components before {actor} received PMIX_DVM_IS_READY', async function (this: ConformanceWorld, names: string, actor: Actor) {
  const id = campaignId(this, 'shrink', splitNames(names));
  if (id === undefined) throw new Error(`the shrink campaign of ${names} was never seen in progress (check it with "exactly one shrink campaign is in progress, …" first)`);
  const view = await readElasticView(this);
  const proc = procOf(this, actor);
  const { events } = await completions(this);
  const ready = events.find((e) => sameProc(e.to, proc) && e.code === READY);
  if (!ready) this.fail(`PMIX_DVM_IS_READY delivered to ${actorName(actor)}`, describeEvents(this, events));
  const offers = view.shrinkOffers.filter((o) => o.campaign === id);
  if (offers.length === 0) this.fail(`the completed shrink of ${names} offered to every active resource component`, 'offered to none');
  const late = offers.filter((o) => o.eventsBefore >= ready.seq);
  if (late.length > 0) {
    this.fail(
      `every resource component offered the shrink of ${names} before event #${ready.seq} (PMIX_DVM_IS_READY) was delivered`,
      late.map((o) => `${o.component} offered after ${o.eventsBefore} events had been delivered`).join('; '),
    );
  }
});
