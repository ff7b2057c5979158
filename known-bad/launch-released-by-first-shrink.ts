/**
 * With two shrinks in progress, lets the jobs parked at the launch boundary
 * go when the first of them completes instead of the last: the launch hold
 * is released per campaign, not when no shrink is left.
 */
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'ED.conc.admit-after-all',
  what: 'a job parked at the launch boundary launches when the first of two shrinks completes, while the other is still in progress',
};

export const createImplementation = wrap((inner) => {
  /** Jobs shown as launched although the engine still parks them (until it launches them itself). */
  const early = new Set<string>();
  const shrinks = async () => ((await inner.inspect!()).elastic?.campaigns ?? []).filter((c) => c.kind === 'shrink').map((c) => c.id);
  return {
    daemon: async (req) => {
      if (!inner.inspect) return inner.daemon(req);
      const before = await shrinks();
      const ack = await inner.daemon(req);
      const view = (await inner.inspect()).elastic;
      const after = (view?.campaigns ?? []).filter((c) => c.kind === 'shrink').map((c) => c.id);
      // One shrink completed while another is still in progress: its completion releases the launch hold.
      if (before.some((id) => !after.includes(id)) && after.length > 0) for (const ns of view?.parkedAtLaunch ?? []) early.add(ns);
      return ack;
    },
    observe: async (req) => {
      const snap = await inner.observe(req);
      return {
        ...snap,
        jobs: snap.jobs.map((j) =>
          early.has(j.nspace) && j.state === 'WAITING_FOR_DAEMONS' ? { ...j, state: 'RUNNING' as const, procs: j.procs.map((p) => ({ ...p, running: true })) } : j,
        ),
      };
    },
  };
});
