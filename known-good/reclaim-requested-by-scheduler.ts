/** The shrink a scheduler reclaim causes is the scheduler's own request: the scheduler gets the completion event. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'a reclaim\'s shrink has the scheduler as its requester (reading reclaim-requester=scheduler)',
  permittedBy:
    'elastic_dvm_spec.rst: "No requester, no directed event" covers "a scheduler-driven push"; whether a reclaim has a requester is not said (IP-READING-RECLAIM-REQUESTER).',
};

export const createImplementation = engineWith({ reclaimRequester: 'scheduler' }, 'reclaim-requested-by-scheduler');
