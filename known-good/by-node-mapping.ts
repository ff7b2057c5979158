/** Lays a job's processes out one per node in turn instead of filling each node first. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'maps processes by node (one per candidate node in turn) instead of by slot',
  permittedBy:
    'elastic_dvm_spec.rst, Scope: "Node selection — which physical nodes are added or removed — is the responsibility of the resource manager and the existing allocation and mapping machinery, and is unchanged"; node-reservation-spec.rst governs which nodes a job may use (its sessions), never the layout on them.',
};

export const createImplementation = engineWith({ mapping: 'by-node' }, 'by-node-mapping');
