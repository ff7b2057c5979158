/**
 * Every PMIX_DVM_IS_READY is delivered twice (ED.deliver.exactly-one): each
 * completion event the engine sends is followed by a copy of it.
 */
import type { EventView } from '../../../seam/messages';
import { Status } from '../../../seam/pmix';
import { wrap } from './wrap';
export const createImplementation = () =>
  wrap(({ base }) => ({
    observe: async (req) => {
      const snap = await base.observe(req);
      const events: EventView[] = [];
      for (const e of snap.events) {
        events.push({ ...e, seq: events.length + 1 });
        if (e.code === Status.PMIX_DVM_IS_READY) events.push({ ...e, seq: events.length + 1 });
      }
      return { ...snap, events };
    },
  }));
