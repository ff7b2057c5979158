/** A scheduler reclaim is acknowledged but does nothing. */
import { wrap } from './wrap';
export const createImplementation = () =>
  wrap(({ base }) => ({
    scheduler: async (req) => (req.action === 'reclaim' ? { status: 0 } : base.scheduler(req)),
  }));
