/**
 * Counts a shrink target once on its "acknowledgement" and again on its
 * departure — 004's abandoned design: the first departure report of one
 * target also counts another target of the same campaign, so the campaign
 * completes while a daemon is still present.
 */
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'SH.count.idempotent', what: 'a shrink completes before every targeted daemon has departed (double counting)' };

export const createImplementation = wrap((inner) => ({
  daemon: async (req) => {
    if ((req.event === 'exit' || req.event === 'crash') && req.node !== undefined && inner.inspect) {
      const camp = (await inner.inspect()).elastic?.campaigns.find((c) => c.kind === 'shrink' && c.pending.includes(req.node!));
      const ack = await inner.daemon(req);
      // The same daemon's second report counts against another, still present, target.
      const other = camp?.pending.find((n) => n !== req.node);
      if (other !== undefined) await inner.daemon({ event: 'exit', node: other });
      return ack;
    }
    return inner.daemon(req);
  },
}));
