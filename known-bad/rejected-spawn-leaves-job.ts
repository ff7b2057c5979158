/** A spawn refused for its targets still launches the job, untargeted: a partial effect. */
import { Key, Status } from '../seam/pmix';
import { without, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.reject.spawn-no-effect', what: 'a refused spawn leaves a job running in the default session' };

export const createImplementation = wrap((inner) => ({
  spawn: async (req) => {
    const r = await inner.spawn(req);
    if (r.status === Status.PMIX_ERR_NOT_FOUND || r.status === Status.PMIX_ERR_NO_PERMISSIONS) {
      await inner.spawn({ ...req, info: without(req.info, Key.PMIX_SPAWN_TARGET) });
    }
    return r;
  },
}));
