/** EXTEND with PMIX_ALLOC_SHARE=true skips the EXTEND checks and just adds shared nodes (as PRRTE does today). */
import { Directive, Key, Status } from '../seam/pmix';
import { infoValue, without, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.error.extend-not-owner', what: 'an EXTEND with PMIX_ALLOC_SHARE=true succeeds for a non-owner (and for unknown ids)' };

export const createImplementation = wrap((inner) => ({
  allocate: async (req) => {
    const r = await inner.allocate(req);
    if (req.directive !== Directive.PMIX_ALLOC_EXTEND || infoValue(req.info, Key.PMIX_ALLOC_SHARE) !== true || r.status === Status.PMIX_SUCCESS) return r;
    return inner.allocate({ ...req, directive: Directive.PMIX_ALLOC_NEW, info: without(without(req.info, Key.PMIX_ALLOC_ID), Key.PMIX_ALLOC_REQ_ID) });
  },
}));
