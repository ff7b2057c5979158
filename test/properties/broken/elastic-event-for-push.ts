/**
 * A scheduler push gets a completion event (ED.deliver.no-requester-no-event):
 * the push is carried out as the scheduler's own shared PMIX_ALLOC_NEW of the
 * pushed nodes, so the scheduler process is told when they are ready.
 */
import { Directive, Key } from '../../../seam/pmix';
import { wrap } from './wrap';
export const createImplementation = () =>
  wrap(({ base, scheduler }) => ({
    scheduler: async (req) => {
      if (req.action !== 'add-nodes') return base.scheduler(req);
      const r = await base.allocate({
        requester: scheduler(),
        directive: Directive.PMIX_ALLOC_NEW,
        info: [
          { key: Key.PMIX_ALLOC_NODE_LIST, value: req.nodes.join(','), required: true },
          { key: Key.PMIX_ALLOC_SHARE, value: true },
        ],
      });
      return { status: r.status };
    },
  }));
