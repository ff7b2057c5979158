/** A shrink's completion event is also delivered to the scheduler's process, which asked for nothing (as if telling it its nodes are back). */
import type { ProcId } from '../seam/messages';
import { Directive, Status } from '../seam/pmix';
import { renumber, sameProc, schedulerOf, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'EP.event.directed',
  what: 'a copy of the completion event of every release also goes to the scheduler',
  // Once seen by the frame checks alone (frame: true); the release outlines
  // of completion-events.feature that look for the event wherever its
  // requester runs now see it too, with "no process but ... receives a
  // completion event".
};

const TERMINAL: readonly number[] = [Status.PMIX_DVM_IS_READY, Status.PMIX_ERR_DVM_MOD];

export const createImplementation = wrap((inner) => {
  const scheduler = schedulerOf(inner);
  const releasers: ProcId[] = [];
  return {
    start: scheduler.start,
    allocate: async (req) => {
      if (req.directive === Directive.PMIX_ALLOC_RELEASE) releasers.push(req.requester);
      return inner.allocate(req);
    },
    observe: async (req) => {
      const snap = await inner.observe(req);
      const to: ProcId | undefined = scheduler.get();
      if (!to) return snap;
      const copied = (e: (typeof snap.events)[number]) => TERMINAL.includes(e.code) && !sameProc(e.to, to) && releasers.some((r) => sameProc(r, e.to));
      return { ...snap, events: renumber(snap.events.flatMap((e) => (copied(e) ? [e, { ...e, to }] : [e]))) };
    },
  };
});
