/**
 * Known-bad implementations: each wraps the reference engine and breaks
 * exactly one documented rule. The self-test (tools/self-test.ts) runs the
 * whole suite against each and requires at least one failing scenario that
 * cites the broken clause — proof that the suite can tell.
 */
import type { Implementation } from '../seam/implementation';
import type { AllocateResult, EventView, Info, ProcId } from '../seam/messages';
import { createImplementation as reference } from '../reference/adapter';
import { Key } from '../seam/pmix';

export interface KnownBad {
  /** The clause it breaks (must be registered). */
  breaks: string;
  /** One line: what it does wrong. */
  what: string;
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
