/** Session ids that advance by 7, not 1. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'numbers sessions sparsely (PMIX_SESSION_ID advances by 7)',
  permittedBy: 'no document says how session ids are chosen, only that a reservation is its own session with its own id.',
};

export const createImplementation = engineWith({ sessionIdStride: 7 }, 'sparse-session-ids');
