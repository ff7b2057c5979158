/** Allocation responses carry PMIX_ALLOC_ID (and the echoed request id) but no PMIX_SESSION_ID. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'omits PMIX_SESSION_ID from allocation responses (reading session-id-in-response=omitted)',
  permittedBy:
    'node-reservation-spec.rst, Reporting the result: "A successful allocation response returns the destination\'s PMIX_ALLOC_ID … When the request supplied a PMIX_ALLOC_REQ_ID, that id is echoed back"; PMIX_SESSION_ID is not required there.',
};

export const createImplementation = engineWith({ sessionIdInResponse: false }, 'no-session-id-in-response');
