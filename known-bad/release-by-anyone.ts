/** Lets any process release any reservation (no ownership check on PMIX_ALLOC_RELEASE). */
import { Directive, Status } from '../seam/pmix';
import { schedulerOf, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.trigger.owner-release', what: 'a non-owner may release a reservation' };

export const createImplementation = wrap((inner) => {
  const sched = schedulerOf(inner);
  return {
    start: sched.start,
    allocate: async (req) => {
      const r = await inner.allocate(req);
      if (req.directive === Directive.PMIX_ALLOC_RELEASE && r.status === Status.PMIX_ERR_NO_PERMISSIONS && sched.get()) return inner.allocate({ ...req, requester: sched.get()! });
      return r;
    },
  };
});
