/** A timeout warning carries the request id of the latest NEW or EXTEND. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'timeout warnings carry the latest request\'s PMIX_ALLOC_REQ_ID (reading warning-request-id=latest)',
  permittedBy:
    'node-reservation-spec.rst relays the warning to "the process that requested the allocation" and names no request id for it; after an EXTEND the requester is the latest one (IP-READING-WARNING-REQ-ID).',
};

export const createImplementation = engineWith({ warningRequestId: 'latest' }, 'warning-carries-latest-req-id');
