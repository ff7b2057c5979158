/**
 * Delivers each phase-two completion event once, as it should, and then the
 * same event again a moment later: a check that counts the events straight
 * after the size change sees exactly one.
 */
import type { EventView } from '../seam/messages';
import { Status } from '../seam/pmix';
import { clock } from '../seam/clock';
import { LATE_MS, renumber, wrapTrailing, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'ED.deliver.exactly-one', what: 'a moment after each PMIX_DVM_IS_READY / PMIX_ERR_DVM_MOD, the same event is delivered again' };

const TERMINAL: readonly number[] = [Status.PMIX_DVM_IS_READY, Status.PMIX_ERR_DVM_MOD];

export const createImplementation = wrapTrailing((inner) => {
  /** When each completion event (by its seq in the engine) was first delivered. */
  const delivered = new Map<number, number>();
  return {
    observe: async (req) => {
      const snap = await inner.observe(req);
      const now = clock.now();
      const again: EventView[] = [];
      for (const e of snap.events) {
        if (!TERMINAL.includes(e.code)) continue;
        if (!delivered.has(e.seq)) delivered.set(e.seq, now);
        if (delivered.get(e.seq)! + LATE_MS <= now) again.push({ ...e });
      }
      return { ...snap, events: renumber([...snap.events, ...again]) };
    },
  };
});
