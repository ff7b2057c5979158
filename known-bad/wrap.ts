/**
 * Known-bad implementations: each wraps the reference engine and breaks
 * exactly one documented rule. The self-test (tools/self-test.ts) runs the
 * whole suite against each and requires at least one failing scenario that
 * cites the broken clause — proof that the suite can tell.
 */
import type { Implementation } from '../seam/implementation';
import type { AllocateResult, EventView, Info, JobView, ProcId } from '../seam/messages';
import { createImplementation as reference } from '../reference/adapter';
import { Key } from '../seam/pmix';
import { inVirtualTime, useVirtualTime } from '../seam/clock';

export interface KnownBad {
  /** The clause it breaks (must be registered). */
  breaks: string;
  /** One line: what it does wrong. */
  what: string;
  /**
   * It does what no scenario looks at: only the frame checks
   * (steps/support/frame.ts) can see it. The self-test then runs the whole
   * suite and requires a failure charged to `breaks` with the checks on, and
   * none with them off.
   */
  frame?: true;
}

/** Wrap the reference engine, overriding some operations; `inner` is the untouched engine. */
export function wrap(override: (inner: Implementation) => Partial<Implementation>): () => Implementation {
  return () => {
    // It introduces itself as what it is (the adapter path in the report says which one).
    const inner = reference({}, 'known-bad: the reference engine with one rule broken');
    return { ...inner, ...override(inner) };
  };
}

export const infoValue = (info: Info[], key: string) => info.find((i) => i.key === key)?.value;
export const without = (info: Info[], key: string) => info.filter((i) => i.key !== key);
export const allocIdOf = (r: AllocateResult) => infoValue(r.info, Key.PMIX_ALLOC_ID) as string | undefined;

/** Renumber events after a wrapper added or duplicated some. */
export function renumber(events: EventView[]): EventView[] {
  return events.map((e, i) => ({ ...e, seq: i + 1 }));
}

export const sameProc = (a: ProcId, b: ProcId) => a.nspace === b.nspace && a.rank === b.rank;

/**
 * Remember the scheduler's process from `start`, for known-bads that act on
 * the scheduler's authority. Spread `start` into the overrides.
 */
export function schedulerOf(inner: Implementation) {
  let scheduler: ProcId | undefined;
  return {
    start: async (setup: Parameters<Implementation['start']>[0]) => {
      const r = await inner.start(setup);
      scheduler = r.scheduler;
      return r;
    },
    get: () => scheduler,
  };
}

/**
 * How long after its answer a trailing known-bad shows its fault: longer
 * than the suite's quiet period (PMIX_CONFORMANCE_QUIET_MS, 600 ms), so the
 * first settled judgement still sees everything right and only the final
 * one, at the end of the scenario, can catch it.
 */
export const LATE_MS = 900;

/**
 * A known-bad whose fault shows a moment after the answer, as a live
 * runtime's would. It says its effects trail its answers, so the suite waits
 * for it to settle, and it keeps time in the suite's clock (virtual in the
 * suite's own process: seam/clock.ts), so the wait costs no wall time.
 */
export function wrapTrailing(override: (inner: Implementation) => Partial<Implementation>): () => Implementation {
  const make = wrap(override);
  return () => {
    if (!inVirtualTime()) useVirtualTime();
    const impl = make();
    return { ...impl, describe: async () => ({ ...(await impl.describe()), effectsTrailAnswers: true }) };
  };
}

/** An event a known-bad adds, to be delivered after the engine's first `after` events. */
export interface ExtraEvent {
  after: number;
  event: Omit<EventView, 'seq'>;
}

/** The engine's events with the extra ones slotted in where they were added, renumbered. */
export function withExtraEvents(events: readonly EventView[], extra: readonly ExtraEvent[]): EventView[] {
  const out: Omit<EventView, 'seq'>[] = [];
  events.forEach((e, i) => {
    for (const x of extra) if (x.after === i) out.push(x.event);
    out.push(e);
  });
  for (const x of extra) if (x.after >= events.length) out.push(x.event);
  return renumber(out as EventView[]);
}

/** describe() as the engine's, less its readings: an implementation that declares none. */
export const declaringNoReadings = (inner: Implementation) => async () => {
  const { readings: _none, ...rest } = await inner.describe();
  return rest;
};

/**
 * Events with these codes reach only processes the head node serves itself:
 * one sent to a process of a job running on any other node is lost. This is
 * what a runtime does when it raises the event on the head node's own server
 * and keeps it local there (PRRTE's "prte.notify.donotloop" marker), having
 * written it for requesters that are tools, which connect to the head node.
 * The head node is the DVM's first startup node: the controller runs there.
 */
export function wrapHeadNodeLocal(codes: readonly number[]): () => Implementation {
  return wrap((inner) => {
    let head: string | undefined;
    const nodeOf = (jobs: JobView[], e: EventView) => jobs.find((j) => j.nspace === e.to.nspace)?.procs.find((p) => p.rank === e.to.rank)?.node;
    return {
      start: async (setup) => {
        head = setup.startupNodes[0]?.name;
        return inner.start(setup);
      },
      observe: async (req) => {
        const snap = await inner.observe(req);
        const lost = (e: EventView) => {
          const node = nodeOf(snap.jobs, e);
          return codes.includes(e.code) && node !== undefined && node !== head;
        };
        return { ...snap, events: renumber(snap.events.filter((e) => !lost(e))) };
      },
    };
  });
}
