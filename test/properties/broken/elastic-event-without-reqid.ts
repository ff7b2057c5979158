/**
 * The completion event leaves out the request's PMIX_ALLOC_REQ_ID
 * (ED.event.ready-req-id, ED.event.mod-req-id, IP-ELASTIC-EVENT-IDS).
 */
import { Key, Status } from '../../../seam/pmix';
import { wrap } from './wrap';
export const createImplementation = () =>
  wrap(({ base }) => ({
    observe: async (req) => {
      const snap = await base.observe(req);
      const dvm = (code: number) => code === Status.PMIX_DVM_IS_READY || code === Status.PMIX_ERR_DVM_MOD;
      return { ...snap, events: snap.events.map((e) => (dvm(e.code) ? { ...e, info: e.info.filter((i) => i.key !== Key.PMIX_ALLOC_REQ_ID) } : e)) };
    },
  }));
