/**
 * Declares no reading and, once an EXTEND with a request id of its own has
 * been accepted, relays the timeout warning with no request id at all.
 * Whether it carries the creating request's id or the latest one is a
 * reading (IP-READING-WARNING-REQ-ID), but under both it carries one: this
 * is wrong whatever the reading. Before readings had a reading-independent
 * part, every scenario with such an EXTEND was tagged with a value of that
 * reading, so an implementation declaring none was never asked.
 */
import type { Implementation } from '../seam/implementation';
import type { AllocateRequest } from '../seam/messages';
import { ACCEPTED_STATUSES, Directive, Key, Status } from '../seam/pmix';
import { declaringNoReadings, infoValue, without, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'NR.warn.payload-req-id',
  what: 'declares no reading; after an EXTEND with its own PMIX_ALLOC_REQ_ID, PMIX_ALLOC_TIMEOUT_WARNING carries no PMIX_ALLOC_REQ_ID',
};

export const createImplementation = wrap((inner: Implementation) => {
  /** Allocations an accepted EXTEND with a request id of its own has named. */
  const extended = new Set<unknown>();
  return {
    describe: declaringNoReadings(inner),
    allocate: async (req: AllocateRequest) => {
      const r = await inner.allocate(req);
      if (req.directive === Directive.PMIX_ALLOC_EXTEND && ACCEPTED_STATUSES.includes(r.status) && infoValue(req.info, Key.PMIX_ALLOC_REQ_ID) !== undefined) {
        extended.add(infoValue(req.info, Key.PMIX_ALLOC_ID));
      }
      return r;
    },
    observe: async (req) => {
      const s = await inner.observe(req);
      const strip = (e: (typeof s.events)[number]) => e.code === Status.PMIX_ALLOC_TIMEOUT_WARNING && extended.has(infoValue(e.info, Key.PMIX_ALLOC_ID));
      return { ...s, events: s.events.map((e) => (strip(e) ? { ...e, info: without(e.info, Key.PMIX_ALLOC_REQ_ID) } : e)) };
    },
  };
});
