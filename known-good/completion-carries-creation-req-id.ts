/** A completion event carries the request id of the request that created the allocation. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'completion events carry the creating request\'s PMIX_ALLOC_REQ_ID (reading completion-request-id=creation)',
  permittedBy:
    'elastic_dvm_spec.rst, Success event: PMIX_ALLOC_REQ_ID is "the requester\'s own request id, included whenever one was supplied on the original request" — "original" may be the allocation\'s creating request (IP-READING-COMPLETION-REQ-ID).',
};

export const createImplementation = engineWith({ completionRequestId: 'creation' }, 'completion-carries-creation-req-id');
