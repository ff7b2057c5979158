/** Sends PMIX_DVM_IS_READY for an accepted allocation request that grew nothing (as PRRTE does for a redundant grow). */
import { Directive, Key, Status } from '../seam/pmix';
import { allocIdOf, withExtraEvents, wrap, type ExtraEvent, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'ED.deliver.no-event-no-change', what: 'an accepted NEW/EXTEND that adds no daemon still gets PMIX_DVM_IS_READY' };

export const createImplementation = wrap((inner) => {
  const extra: ExtraEvent[] = [];
  let elastic = false;
  return {
    start: async (s) => {
      elastic = s.elastic;
      return inner.start(s);
    },
    allocate: async (req) => {
      const before = (await inner.observe({})).nodes.filter((n) => n.daemon === 'joining').length;
      const r = await inner.allocate(req);
      const grow = req.directive === Directive.PMIX_ALLOC_NEW || req.directive === Directive.PMIX_ALLOC_EXTEND;
      const snap = await inner.observe({});
      if (elastic && grow && r.status === Status.PMIX_SUCCESS && snap.nodes.filter((n) => n.daemon === 'joining').length === before) {
        extra.push({ after: snap.events.length, event: { code: Status.PMIX_DVM_IS_READY, to: req.requester, info: [{ key: Key.PMIX_ALLOC_ID, value: allocIdOf(r) ?? '' }] } });
      }
      return r;
    },
    observe: async (req) => {
      const snap = await inner.observe(req);
      return { ...snap, events: withExtraEvents(snap.events, extra) };
    },
  };
});
