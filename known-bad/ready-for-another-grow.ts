/**
 * A grow that adds no daemon, accepted while another grow is in progress,
 * takes the other grow's completion as its own: its requester receives a
 * PMIX_DVM_IS_READY when the other grow completes.
 */
import type { ProcId } from '../seam/messages';
import { Directive, Key, Status } from '../seam/pmix';
import { allocIdOf, infoValue, withExtraEvents, wrap, type ExtraEvent, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'ED.deliver.no-event-no-change',
  what: 'an accepted NEW/EXTEND that adds no daemon gets PMIX_DVM_IS_READY when a concurrent grow completes',
};

export const createImplementation = wrap((inner) => {
  let elastic = false;
  /** Accepted no-change grows waiting for "their" completion: the next grow that completes. */
  const waiting: { to: ProcId; allocId: string; reqId?: string }[] = [];
  const extra: ExtraEvent[] = [];
  const joining = async () => (await inner.observe({})).nodes.filter((n) => n.daemon === 'joining').map((n) => n.name);
  return {
    start: async (s) => {
      elastic = s.elastic;
      return inner.start(s);
    },
    allocate: async (req) => {
      const before = await joining();
      const r = await inner.allocate(req);
      const grow = req.directive === Directive.PMIX_ALLOC_NEW || req.directive === Directive.PMIX_ALLOC_EXTEND;
      if (!elastic || !grow || r.status !== Status.PMIX_SUCCESS || before.length === 0) return r;
      const after = await joining();
      if (after.every((n) => before.includes(n))) {
        const reqId = infoValue(req.info, Key.PMIX_ALLOC_REQ_ID);
        waiting.push({ to: req.requester, allocId: allocIdOf(r) ?? '', ...(typeof reqId === 'string' ? { reqId } : {}) });
      }
      return r;
    },
    daemon: async (req) => {
      const seen = (await inner.observe({})).events.length;
      const ack = await inner.daemon(req);
      const events = (await inner.observe({})).events;
      if (events.slice(seen).some((e) => e.code === Status.PMIX_DVM_IS_READY)) {
        for (const w of waiting.splice(0)) {
          const info = [{ key: Key.PMIX_ALLOC_ID, value: w.allocId }, ...(w.reqId !== undefined ? [{ key: Key.PMIX_ALLOC_REQ_ID, value: w.reqId }] : [])];
          extra.push({ after: events.length, event: { code: Status.PMIX_DVM_IS_READY, to: w.to, info } });
        }
      }
      return ack;
    },
    observe: async (req) => {
      const snap = await inner.observe(req);
      return { ...snap, events: withExtraEvents(snap.events, extra) };
    },
  };
});
