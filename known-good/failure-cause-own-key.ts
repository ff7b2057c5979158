/** PMIX_ERR_DVM_MOD carries its cause under another key than the default engine's. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'carries the cause of PMIX_ERR_DVM_MOD under the key "pmix.evstatus" instead of PMIX_JOB_TERM_STATUS',
  permittedBy:
    'elastic_dvm_spec.rst, Failure event: the underlying cause is "conveyed in the event\'s info array so the requester can distinguish what went wrong"; no key is named.',
};

export const createImplementation = engineWith({ failureCauseKey: 'pmix.evstatus' }, 'failure-cause-own-key');
