/** Holds jobs at the launch boundary while a grow is in progress too (keyed on the fence, not on shrinks). */
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'SH.invariant.launch-hold-shrink-only', what: 'a job reaching the launch boundary during a grow is parked' };

export const createImplementation = wrap((inner) => {
  const held: string[] = [];
  const growing = async () => (await inner.observe({})).nodes.some((n) => n.daemon === 'joining');
  const flush = async () => {
    if (await growing()) return;
    for (const ns of held.splice(0)) await inner.advanceJob({ nspace: ns, to: 'launch' });
  };
  return {
    advanceJob: async (req) => {
      const job = (await inner.observe({ jobs: [req.nspace] })).jobs[0];
      if (req.to === 'launch' && job?.state === 'PENDING' && job.procs.length > 0 && (await growing())) {
        held.push(req.nspace);
        return { status: 0 };
      }
      return inner.advanceJob(req);
    },
    daemon: async (req) => {
      const ack = await inner.daemon(req);
      await flush();
      return ack;
    },
    observe: async (req) => {
      const snap = await inner.observe(req);
      return { ...snap, jobs: snap.jobs.map((j) => (held.includes(j.nspace) ? { ...j, state: 'WAITING_FOR_DAEMONS' as const } : j)) };
    },
  };
});
