/** Places processes past a node's slot count once every candidate node is full, instead of refusing the spawn. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'oversubscribes the candidate nodes when they are full instead of refusing the spawn',
  permittedBy:
    'node-reservation-spec.rst restricts a job to its candidate nodes ("mapping onto exactly the union" of its target sessions) and never says a full session refuses a spawn; oversubscription is a mapping policy, which elastic_dvm_spec.rst, Scope, leaves to "the existing allocation and mapping machinery".',
};

export const createImplementation = engineWith({ oversubscribe: true }, 'oversubscribes');
