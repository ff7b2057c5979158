/**
 * Any in-process implementation, made to behave like a live runtime: it
 * answers at once, but what a client can observe (nodes, jobs, events) shows
 * each request's effects only some time after the answer. The self-test runs
 * every known-good and known-bad implementation through it
 * (tools/self-test.ts): a conforming implementation must still pass every
 * scenario however late its effects show, and a faulty one must still be
 * caught when its fault shows only after the answer. It is also a quick way
 * for an implementer to see how the suite treats a runtime that trails.
 *
 *   PMIX_CONFORMANCE_ADAPTER=adapters/time-shifted
 *   PMIX_CONFORMANCE_SHIFTED_ADAPTER=known-good/oversubscribes.ts   (default: adapters/reference)
 *   PMIX_CONFORMANCE_SHIFT_MS=250          (how late nodes and jobs show a change)
 *   PMIX_CONFORMANCE_EVENT_SHIFT_MS=400    (how late events arrive; default: the above plus half of it)
 *   PMIX_CONFORMANCE_REAL_TIME=1           (wait in real time; default: virtual time, seam/clock.ts)
 *
 * It says so in its handshake (effectsTrailAnswers), as a live runtime's
 * harness does, so the suite waits for it to settle before judging.
 */
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { AdapterModule, Implementation } from '../seam/implementation';
import type { ObserveRequest, Snapshot } from '../seam/messages';
import { clock, inVirtualTime, useVirtualTime } from '../seam/clock';

export interface Shift {
  /** How long after an answer nodes and jobs show its effects. */
  nodesMs: number;
  /** How long after an answer its events are delivered. */
  eventsMs: number;
}

/** The calls that change nothing, so they leave the visible timeline alone. */
const OBSERVATIONS = new Set(['describe', 'observe', 'inspect', 'queryAllocation', 'stop', 'processesStarted']);

export function timeShifted(inner: Implementation, shift: Shift): Implementation {
  /** What the implementation looked like after each request, and from when a client sees it. */
  let timeline: { at: number; snapshot: Snapshot }[] = [];
  /** What the implementation looks like now, from now on (after the delays) what a client sees. */
  const record = async () => {
    const snapshot = await inner.observe({});
    const last = timeline[timeline.length - 1];
    if (!last || !isDeepStrictEqual(last.snapshot, snapshot)) timeline.push({ at: clock.now(), snapshot });
  };
  const visible = (delay: number): Snapshot => {
    const now = clock.now();
    let seen = timeline[0].snapshot;
    for (const t of timeline) if (t.at + delay <= now) seen = t.snapshot;
    return seen;
  };
  const changing =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      try {
        return await fn(...a);
      } finally {
        // A request that failed may have changed things too (its requester ended while it was answered).
        await record();
      }
    };
  const shifted: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(inner) as [string, unknown][]) {
    if (typeof fn !== 'function') continue;
    const bound = (fn as (...a: unknown[]) => Promise<unknown>).bind(inner);
    shifted[name] = OBSERVATIONS.has(name) ? bound : changing(bound);
  }
  return {
    ...(shifted as unknown as Implementation),
    describe: async () => ({ ...(await inner.describe()), effectsTrailAnswers: true }),
    start: async (setup) => {
      const r = await inner.start(setup);
      timeline = [];
      await record();
      timeline[0].at = -Infinity;
      return r;
    },
    observe: async (req: ObserveRequest) => {
      // An implementation that changes on its own (its daemons act by
      // themselves) shows those changes late too.
      await record();
      const { nodes, jobs } = visible(shift.nodesMs);
      const { events } = visible(shift.eventsMs);
      const n = req.nodes && new Set(req.nodes);
      const j = req.jobs && new Set(req.jobs);
      return {
        nodes: n ? nodes.filter((v) => n.has(v.name)) : nodes,
        jobs: j ? jobs.filter((v) => j.has(v.nspace)) : jobs,
        events,
      };
    },
  };
}

export const shiftFromEnvironment = (): Shift => {
  const nodesMs = Number(process.env.PMIX_CONFORMANCE_SHIFT_MS ?? 250);
  return { nodesMs, eventsMs: Number(process.env.PMIX_CONFORMANCE_EVENT_SHIFT_MS ?? nodesMs * 1.5) };
};

export function createImplementation(): Implementation {
  const inner = process.env.PMIX_CONFORMANCE_SHIFTED_ADAPTER ?? 'adapters/reference';
  const mod = require(path.isAbsolute(inner) ? inner : path.resolve(process.cwd(), inner)) as AdapterModule;
  // Virtual time unless asked otherwise: the suite's waits then cost nothing (seam/clock.ts).
  if (process.env.PMIX_CONFORMANCE_REAL_TIME !== '1' && !inVirtualTime()) useVirtualTime();
  return timeShifted(mod.createImplementation(), shiftFromEnvironment());
}
