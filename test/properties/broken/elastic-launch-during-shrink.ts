/**
 * A job parked at the launch boundary is let go while a shrink is still in
 * progress (ED.shrink.park-launch-iff-shrink, ED.admit.hazard-departing):
 * every launch-parked job is shown RUNNING on the mapping it has, processes
 * started, and no longer among the parked, until the engine really admits it.
 */
import { wrap } from './wrap';
export const createImplementation = () =>
  wrap(({ base }) => {
    const early = async () => new Set((await base.inspect!()).elastic?.parkedAtLaunch ?? []);
    return {
      observe: async (req) => {
        const let_go = await early();
        const snap = await base.observe(req);
        return {
          ...snap,
          jobs: snap.jobs.map((j) => (let_go.has(j.nspace) ? { ...j, state: 'RUNNING' as const, procs: j.procs.map((p) => ({ ...p, running: true })) } : j)),
        };
      },
      inspect: async () => {
        const r = await base.inspect!();
        return r.elastic ? { ...r, elastic: { ...r.elastic, parkedAtLaunch: [] } } : r;
      },
    };
  });
