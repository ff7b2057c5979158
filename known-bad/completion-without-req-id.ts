/**
 * Declares no reading and, when a size change was driven by a request other
 * than the one that created the allocation (an EXTEND or a RELEASE with its
 * own PMIX_ALLOC_REQ_ID), sends its PMIX_DVM_IS_READY with no request id at
 * all (PMIX_ERR_DVM_MOD is left alone: one clause broken, not two). Which
 * of the two ids it carries is a reading (IP-READING-COMPLETION-REQ-ID), but
 * under both it carries one: this is wrong whatever the reading. Before readings had a reading-independent
 * part, every scenario where the two ids differ was tagged with a value of
 * that reading, so an implementation declaring none was never asked.
 */
import type { Implementation } from '../seam/implementation';
import type { AllocateRequest, Info } from '../seam/messages';
import { ACCEPTED_STATUSES, Directive, Key, Status } from '../seam/pmix';
import { allocIdOf, declaringNoReadings, infoValue, without, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'ED.event.ready-req-id',
  what: 'declares no reading; the PMIX_DVM_IS_READY of a size change driven by another request than the creating one carries no PMIX_ALLOC_REQ_ID',
};

export const createImplementation = wrap((inner: Implementation) => {
  /** The request id each allocation was created under. */
  const created = new Map<string, unknown>();
  return {
    describe: declaringNoReadings(inner),
    allocate: async (req: AllocateRequest) => {
      const r = await inner.allocate(req);
      const id = allocIdOf(r);
      if (req.directive === Directive.PMIX_ALLOC_NEW && ACCEPTED_STATUSES.includes(r.status) && id !== undefined) created.set(id, infoValue(req.info, Key.PMIX_ALLOC_REQ_ID));
      return r;
    },
    observe: async (req) => {
      const s = await inner.observe(req);
      const drivenByAnother = (info: Info[]) => {
        const reqId = infoValue(info, Key.PMIX_ALLOC_REQ_ID);
        return reqId !== undefined && reqId !== created.get(infoValue(info, Key.PMIX_ALLOC_ID) as string);
      };
      return { ...s, events: s.events.map((e) => (e.code === Status.PMIX_DVM_IS_READY && drivenByAnother(e.info) ? { ...e, info: without(e.info, Key.PMIX_ALLOC_REQ_ID) } : e)) };
    },
  };
});
