/**
 * A repeated departure report is counted again (ED.fail.duplicate-failure-event,
 * ED.conc.no-consume-by-unrelated): a report from a daemon that has already
 * left the DVM is taken as the departure of a target of a shrink in progress.
 */
import { wrap } from './wrap';
export const createImplementation = () =>
  wrap(({ base }) => ({
    daemon: async (req) => {
      if ((req.event !== 'exit' && req.event !== 'crash') || req.node === undefined) return base.daemon(req);
      const gone = (await base.observe({ nodes: [req.node] })).nodes.length === 0;
      const r = await base.daemon(req);
      if (gone) {
        const shrink = (await base.inspect!()).elastic?.campaigns.find((c) => c.kind === 'shrink' && c.pending.length > 0);
        if (shrink) await base.daemon({ event: 'exit', node: shrink.pending[0] });
      }
      return r;
    },
  }));
