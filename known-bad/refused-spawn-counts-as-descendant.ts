/**
 * Counts a refused spawn's would-be job as a descendant of the requester:
 * the job is counted before its PMIX_SPAWN_TARGET is resolved, and the path
 * that refuses a target naming no session (PMIX_ERR_NOT_FOUND) never undoes
 * the count (the ownership refusal does). The would-be job never runs and
 * never ends, so a CHILD-flavoured reservation whose owner, or a derived
 * child, made such a spawn waits for it for ever. Here the would-be job is a
 * real job of the engine, held before the map-eligible boundary and hidden
 * from every observation.
 */
import { Key, PMIX_NSPACE_INVALID, Status } from '../seam/pmix';
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'NR.reject.spawn-no-effect',
  what: "a spawn refused for a PMIX_SPAWN_TARGET naming no session leaves its would-be job counted as a descendant of its requester, so a CHILD-flavoured reservation is never returned",
};

export const createImplementation = wrap((inner) => {
  const hidden = new Set<string>();
  return {
    spawn: async (req) => {
      const r = await inner.spawn(req);
      if (r.status === Status.PMIX_ERR_NOT_FOUND) {
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
