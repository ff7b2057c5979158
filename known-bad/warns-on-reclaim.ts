/** Warns the requester itself, with nothing left, when the scheduler reclaims its allocation: a warning the scheduler never issued. */
import type { ProcId } from '../seam/messages';
import { Key, Status } from '../seam/pmix';
import { allocIdOf, withExtraEvents, wrap, type ExtraEvent, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'NR.warn.relay-only',
  what: 'when the scheduler reclaims an allocation, the runtime first sends its requester a PMIX_ALLOC_TIMEOUT_WARNING of its own (PMIX_TIME_REMAINING 0)',
  frame: true,
};

export const createImplementation = wrap((inner) => {
  const requesters = new Map<string, ProcId>();
  const extra: ExtraEvent[] = [];
  return {
    allocate: async (req) => {
      const r = await inner.allocate(req);
      const id = allocIdOf(r);
      if (id !== undefined && !requesters.has(id)) requesters.set(id, req.requester);
      return r;
    },
    scheduler: async (action) => {
      const to = action.action === 'reclaim' ? requesters.get(action.allocId) : undefined;
      if (action.action === 'reclaim' && to) {
        const after = (await inner.observe({})).events.length;
        const info = [
          { key: Key.PMIX_ALLOC_ID, value: action.allocId },
          { key: Key.PMIX_TIME_REMAINING, value: 0 },
        ];
        extra.push({ after, event: { code: Status.PMIX_ALLOC_TIMEOUT_WARNING, to, info } });
      }
      return inner.scheduler(action);
    },
    observe: async (req) => {
      const snap = await inner.observe(req);
      return { ...snap, events: withExtraEvents(snap.events, extra) };
    },
  };
});
