/** Each job starts one node further round the candidate list than the last job did. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'maps by node, each job starting one node further on than the previous job',
  permittedBy:
    'elastic_dvm_spec.rst, Scope: mapping "is the responsibility of the resource manager and the existing allocation and mapping machinery, and is unchanged"; the specification constrains only the candidate set.',
};

export const createImplementation = engineWith({ mapping: 'round-robin' }, 'round-robin-mapping');
