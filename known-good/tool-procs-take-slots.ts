/** A tool app's processes take a slot like any other process. */
import { engineWith, type KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'counts the processes of a tool app against the node\'s slots (reading tool-process-slots=counted)',
  permittedBy: 'no document says whether a tool\'s processes occupy slots; slot accounting is part of the mapping machinery elastic_dvm_spec.rst, Scope, leaves unchanged.',
};

export const createImplementation = engineWith({ toolProcsTakeSlots: true }, 'tool-procs-take-slots');
