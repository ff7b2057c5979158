/** PMIX_ALLOC_IDs with no visible structure (no owner namespace, no session number). */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'mints PMIX_ALLOC_IDs with no visible structure',
  permittedBy:
    'node-reservation-spec.rst, Reporting the result: the response "returns the destination\'s PMIX_ALLOC_ID so the requester can later target the reservation"; the id is a handle, and no document gives it a format.',
};

export const createImplementation = engineWith({ allocIdFormat: 'opaque' }, 'opaque-alloc-ids');
