/** Answers an accepted grow or shrink request with PMIX_OPERATION_IN_PROGRESS. */
import { Status } from '../seam/pmix';
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'confirms an accepted request that starts a grow or shrink with PMIX_OPERATION_IN_PROGRESS instead of PMIX_SUCCESS',
  permittedBy:
    'elastic_dvm_spec.rst, Asynchronous size-change completion: "This response confirms only that the request was accepted and the DVM operation has begun"; no status is named for it.',
};

export const createImplementation = engineWith({ sizeChangeAcceptStatus: Status.PMIX_OPERATION_IN_PROGRESS }, 'accepts-size-change-in-progress');
