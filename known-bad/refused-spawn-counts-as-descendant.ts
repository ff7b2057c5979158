/**
 * Counts a refused spawn's would-be job as a descendant of the requester:
 * the job is created and counted before the spawn is refused, and the count
 * is never undone. It never runs and never ends, so a CHILD-flavoured
 * reservation whose owner (or a derived child) made the refused spawn waits
 * for it for ever. Here the would-be job is a real job of the engine, held
 * before the map-eligible boundary and hidden from every observation.
 */
import { Key, PMIX_NSPACE_INVALID, Status } from '../seam/pmix';
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'NR.reject.spawn-no-effect',
  what: "a refused spawn's would-be job stays counted as a descendant of its requester, so a CHILD-flavoured reservation is never returned",
};

export const createImplementation = wrap((inner) => {
  const hidden = new Set<string>();
  return {
    spawn: async (req) => {
      const r = await inner.spawn(req);
      if (r.status < 0 && r.status !== Status.PMIX_OPERATION_IN_PROGRESS && r.status !== Status.PMIX_OPERATION_SUCCEEDED) {
        const ghost = await inner.spawn({ requester: req.requester, apps: [{ cmd: 'would-be', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: PMIX_NSPACE_INVALID }], hold: 'map' });
        if (ghost.nspace !== undefined) hidden.add(ghost.nspace);
      }
      return r;
    },
    observe: async (req) => {
      const snap = await inner.observe(req);
      return { ...snap, jobs: snap.jobs.filter((j) => !hidden.has(j.nspace)) };
    },
  };
});
