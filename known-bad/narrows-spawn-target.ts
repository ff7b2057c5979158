/** Narrows a PMIX_SPAWN_TARGET to the entries it may use instead of refusing the spawn. */
import { Key, Status } from '../seam/pmix';
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.own.no-narrowing', what: 'a spawn with one bad PMIX_SPAWN_TARGET entry runs on the good ones' };

export const createImplementation = wrap((inner) => ({
  spawn: async (req) => {
    const first = await inner.spawn(req);
    const target = req.info.find((i) => i.key === Key.PMIX_SPAWN_TARGET);
    if (first.status === Status.PMIX_SUCCESS || !target || !Array.isArray(target.value)) return first;
    // Keep the entries that work on their own (a refusal has no effect, so trying is harmless).
    const ok: string[] = [];
    for (const entry of target.value) {
      const probe = await inner.spawn({ ...req, apps: [{ cmd: 'probe', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: entry }], hold: 'map' });
      if (probe.nspace) await inner.terminateJob({ nspace: probe.nspace });
      if (probe.status === Status.PMIX_OPERATION_IN_PROGRESS || probe.status === Status.PMIX_SUCCESS) ok.push(entry);
    }
    if (ok.length === 0) return first;
    return inner.spawn({ ...req, info: req.info.map((i) => (i === target ? { ...i, value: ok } : i)) });
  },
}));
