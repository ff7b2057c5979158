/** Leaves PMIX_ALLOC_REQ_ID out of the allocation response. */
import { Key } from '../seam/pmix';
import { without, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.report.req-id-echo', what: 'the response does not echo the PMIX_ALLOC_REQ_ID the request supplied' };

export const createImplementation = wrap((inner) => ({
  allocate: async (req) => {
    const r = await inner.allocate(req);
    return { ...r, info: without(r.info, Key.PMIX_ALLOC_REQ_ID) };
  },
}));
