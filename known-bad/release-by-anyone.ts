/** Lets any process release any reservation (no ownership check on PMIX_ALLOC_RELEASE). */
import { Directive, Status } from '../seam/pmix';
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.trigger.owner-release', what: 'a non-owner may release a reservation' };

export const createImplementation = wrap((inner) => {
  let scheduler: { nspace: string; rank: number } | undefined;
  return {
    start: async (s) => {
      const r = await inner.start(s);
      scheduler = r.scheduler;
      return r;
    },
    allocate: async (req) => {
      const r = await inner.allocate(req);
      if (req.directive === Directive.PMIX_ALLOC_RELEASE && r.status === Status.PMIX_ERR_NO_PERMISSIONS && scheduler) return inner.allocate({ ...req, requester: scheduler });
      return r;
    },
  };
});
