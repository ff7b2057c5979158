/** On a PMIx without PMIX_ALLOC_INHERITANCE, silently ignores a non-default value instead of refusing it. */
import type { ClusterSetup } from '../seam/messages';
import { Inheritance, Key } from '../seam/pmix';
import { infoValue, without, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.error.inherit-unsupported', what: 'a non-default inheritance value the host cannot honour is dropped, not refused' };

export const createImplementation = wrap((inner) => {
  let setup: ClusterSetup | undefined;
  return {
    start: async (s) => {
      setup = s;
      return inner.start(s);
    },
    allocate: async (req) => {
      const v = infoValue(req.info, Key.PMIX_ALLOC_INHERITANCE);
      const lacksKey = setup?.withoutKeys.includes('PMIX_ALLOC_INHERITANCE') === true;
      if (v !== undefined && v !== Inheritance.PMIX_ALLOC_INHERIT_DEFAULT && lacksKey) return inner.allocate({ ...req, info: without(req.info, Key.PMIX_ALLOC_INHERITANCE) });
      return inner.allocate(req);
    },
  };
});
