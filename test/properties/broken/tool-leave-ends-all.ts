/**
 * A tool's disconnect also ends the reservations it asked for on behalf of
 * another namespace (PMIX_ALLOC_TARGET): the reservation ends "on another
 * event" than its owner's termination (the owner is the TARGET job).
 */
import { wrap } from './wrap';
import { Directive, Key } from '../../../seam/pmix';
export const createImplementation = () =>
  wrap(({ base, scheduler }) => ({
    disconnectTool: async (req) => {
      const made = (await base.inspect!()).allocations.filter((a) => a.requester.nspace === req.proc.nspace && a.owner !== req.proc.nspace);
      for (const a of made) await base.allocate({ requester: scheduler(), directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: a.allocId }] });
      return base.disconnectTool(req);
    },
  }));
