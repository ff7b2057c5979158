/** A failed grow aborts every job parked at the map-eligible boundary. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'a failed grow aborts every job parked at the map-eligible boundary (reading grow-failure-aborts=all-parked-at-map)',
  permittedBy: 'elastic_dvm_spec.rst, Failure semantics, does not say which parked jobs a failed grow takes down (IP-READING-GROW-FAILURE-ABORTS).',
};

export const createImplementation = engineWith({ growFailureAborts: 'all-parked-at-map' }, 'grow-failure-aborts-all-parked');
