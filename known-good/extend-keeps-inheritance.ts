/** PMIX_ALLOC_INHERITANCE on an EXTEND leaves the disposition selected at creation. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'an EXTEND does not change the disposition selected at creation (reading extend-inheritance=keep)',
  permittedBy:
    'node-reservation-spec.rst: the disposition is "selected at creation" (IP-READING-EXTEND-INHERITANCE), though the key is honoured on NEW and EXTEND.',
};

export const createImplementation = engineWith({ extendInheritance: 'keep' }, 'extend-keeps-inheritance');
