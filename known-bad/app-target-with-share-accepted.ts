/** Checks PMIX_ALLOC_SHARE before PMIX_ALLOC_TARGET, as PRRTE's code does: an application's TARGET + SHARE=true is accepted. */
import { Key } from '../seam/pmix';
import { infoValue, without, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.route.app-target-rejected', what: "an application's PMIX_ALLOC_TARGET with PMIX_ALLOC_SHARE=true is accepted into the default session" };

export const createImplementation = wrap((inner) => ({
  allocate: async (req) => {
    const isApp = (await inner.observe({ jobs: [req.requester.nspace] })).jobs.length > 0;
    if (isApp && infoValue(req.info, Key.PMIX_ALLOC_SHARE) === true) return inner.allocate({ ...req, info: without(req.info, Key.PMIX_ALLOC_TARGET) });
    return inner.allocate(req);
  },
}));
