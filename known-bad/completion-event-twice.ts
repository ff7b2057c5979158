/** Sends the phase-two completion event twice. */
import { Status } from '../seam/pmix';
import { renumber, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'ED.deliver.exactly-one', what: 'every PMIX_DVM_IS_READY / PMIX_ERR_DVM_MOD is delivered twice' };

const TERMINAL: readonly number[] = [Status.PMIX_DVM_IS_READY, Status.PMIX_ERR_DVM_MOD];

export const createImplementation = wrap((inner) => ({
  observe: async (req) => {
    const snap = await inner.observe(req);
    return { ...snap, events: renumber(snap.events.flatMap((e) => (TERMINAL.includes(e.code) ? [e, { ...e }] : [e]))) };
  },
}));
