/** Job and tool namespaces with no visible structure. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'names jobs and tools with namespaces that have no visible structure',
  permittedBy: 'no document gives namespaces a format; the PMIx standard treats a namespace as an opaque string.',
};

export const createImplementation = engineWith({ nspaceFormat: 'opaque' }, 'opaque-namespaces');
