/**
 * A grow completes once its daemons have reported in, without waiting for
 * the head node's wireup (ED.def.grow-complete, ED.admit.hazard-not-ready):
 * every report is followed at once by a wireup.
 */
import { wrap } from './wrap';
export const createImplementation = () =>
  wrap(({ base }) => ({
    daemon: async (req) => {
      const r = await base.daemon(req);
      if (req.event === 'report') await base.daemon({ event: 'wireup' });
      return r;
    },
  }));
