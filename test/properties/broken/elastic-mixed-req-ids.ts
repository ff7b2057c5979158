/**
 * Declares no completion-request-id reading, and takes neither: of the
 * completion events whose driving and creating request ids differ, every
 * other one carries the creating request's id, the rest the driving one's.
 * Each event on its own is allowed by one value; together they are neither
 * reading (an implementation takes one value).
 */
import type { EventView } from '../../../seam/messages';
import { Directive, Key, Status } from '../../../seam/pmix';
import { declaring } from './declared';

export const createImplementation = () => {
  const impl = declaring({}, { 'completion-request-id': undefined }, 'elastic-mixed-req-ids');
  /** The request id each allocation was created under. */
  const created = new Map<string, string | undefined>();
  /** Events already rewritten, or left alone, by seq: decided once. */
  const decided = new Map<number, boolean>();
  const value = (e: EventView, key: string) => e.info.find((i) => i.key === key)?.value;
  return {
    ...impl,
    allocate: async (req: Parameters<typeof impl.allocate>[0]) => {
      const r = await impl.allocate(req);
      const id = r.info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value;
      if (req.directive === Directive.PMIX_ALLOC_NEW && typeof id === 'string' && !created.has(id)) created.set(id, req.info.find((i) => i.key === Key.PMIX_ALLOC_REQ_ID)?.value as string | undefined);
      return r;
    },
    observe: async (req: Parameters<typeof impl.observe>[0]) => {
      const s = await impl.observe(req);
      const events = s.events.map((e) => {
        if (e.code !== Status.PMIX_DVM_IS_READY && e.code !== Status.PMIX_ERR_DVM_MOD) return e;
        const creation = created.get(value(e, Key.PMIX_ALLOC_ID) as string);
        if (value(e, Key.PMIX_ALLOC_REQ_ID) === creation) return e;
        if (!decided.has(e.seq)) decided.set(e.seq, [...decided.values()].filter((x) => x).length < [...decided.values()].filter((x) => !x).length);
        if (!decided.get(e.seq)) return e;
        const info = e.info.filter((i) => i.key !== Key.PMIX_ALLOC_REQ_ID);
        return { ...e, info: creation === undefined ? info : [...info, { key: Key.PMIX_ALLOC_REQ_ID, value: creation }] };
      });
      return { ...s, events };
    },
  };
};
