/** An ended allocation's id still resolves: as a spawn target it silently means the default session. */
import { wrap } from './wrap';
import { Key } from '../../../seam/pmix';
export const createImplementation = () => {
  const ever = new Set<string>();
  return wrap(({ base }) => ({
    allocate: async (req) => {
      const r = await base.allocate(req);
      for (const i of r.info) if (i.key === Key.PMIX_ALLOC_ID && typeof i.value === 'string') ever.add(i.value);
      return r;
    },
    spawn: async (req) => {
      const live = new Set((await base.inspect!()).allocations.map((a) => a.allocId));
      const stale = (e: string) => e !== '' && ever.has(e) && !live.has(e);
      const info = req.info.map((i) => {
        if (i.key !== Key.PMIX_SPAWN_TARGET) return i;
        const v = i.value;
        if (typeof v === 'string') return { ...i, value: stale(v) ? '' : v };
        if (Array.isArray(v)) return { ...i, value: v.map((e) => (stale(e) ? '' : e)) };
        return i;
      });
      return base.spawn({ ...req, info });
    },
  }));
};
