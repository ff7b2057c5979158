/** The last valid entry of a PMIX_SPAWN_TARGET list is the job's primary session. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'the last valid PMIX_SPAWN_TARGET entry becomes the primary session (reading primary-target=last)',
  permittedBy: 'node-reservation-spec.rst, Spawn targeting behavior, does not say which target is primary (IP-READING-PRIMARY-TARGET).',
};

export const createImplementation = engineWith({ primaryTarget: 'last' }, 'primary-target-last');
