/** Fills the candidate nodes in the reverse of the default engine's order. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'maps by slot over the candidate nodes in reverse order',
  permittedBy:
    'elastic_dvm_spec.rst, Scope: mapping "is the responsibility of the resource manager and the existing allocation and mapping machinery"; no document orders a session\'s nodes.',
};

export const createImplementation = engineWith({ mapping: 'reversed' }, 'reversed-mapping');
