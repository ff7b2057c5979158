/** Maps an untargeted job onto reserved nodes too once the default pool is full (no isolation). */
import { Key, Status } from '../seam/pmix';
import { allocIdOf, schedulerOf, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.spawn.default-excludes-reserved', what: 'a default-session job spills onto reserved nodes' };

export const createImplementation = wrap((inner) => {
  const ids: string[] = [];
  const sched = schedulerOf(inner);
  return {
    start: sched.start,
    allocate: async (req) => {
      const r = await inner.allocate(req);
      const id = allocIdOf(r);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
      return r;
    },
    spawn: async (req) => {
      const r = await inner.spawn(req);
      const targeted = req.info.some((i) => [Key.PMIX_SPAWN_TARGET, Key.PMIX_ALLOC_ID, Key.PMIX_ALLOC_REQ_ID, Key.PMIX_SESSION_ID].includes(i.key as never));
      if (r.status !== Status.PMIX_ERR_OUT_OF_RESOURCE || targeted || !sched.get()) return r;
      // Out of room in the default pool: use every reservation too, on the scheduler's authority.
      return inner.spawn({ ...req, requester: sched.get()!, info: [...req.info, { key: Key.PMIX_SPAWN_TARGET, value: ['', ...ids] }] });
    },
  };
});
