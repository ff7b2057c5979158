/** Treats an allocation without PMIX_ALLOC_INHERITANCE as PMIX_ALLOC_INHERIT_NONE (the legacy behaviour). */
import { Directive, Inheritance, Key } from '../seam/pmix';
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.disp.absent-is-default', what: 'absent inheritance releases the nodes to the scheduler when the owner ends' };

export const createImplementation = wrap((inner) => ({
  allocate: async (req) => {
    if (req.directive !== Directive.PMIX_ALLOC_NEW || req.info.some((i) => i.key === Key.PMIX_ALLOC_INHERITANCE)) return inner.allocate(req);
    return inner.allocate({ ...req, info: [...req.info, { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_NONE }] });
  },
}));
