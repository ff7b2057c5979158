/** A shrink still pending at DVM teardown ends with PMIX_ERR_DVM_MOD. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'a shrink pending at teardown gets PMIX_ERR_DVM_MOD (reading teardown-pending-shrink=dvm-mod)',
  permittedBy:
    'elastic_dvm_spec.rst requires "exactly one of PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD" per accepted operation and is silent on teardown (IP-READING-TEARDOWN-PENDING-SHRINK).',
};

export const createImplementation = engineWith({ teardownPendingShrink: 'dvm-mod' }, 'teardown-fails-pending-shrink');
