/**
 * A job parked at the map-eligible boundary is released when the grow
 * completes, and then never starts: what PRRTE master does (docs/prrte.md,
 * "A job parked during a grow is never launched"; the catch-up at the grow's
 * VM_READY leaves every daemon a copy of the job without processes, and the
 * launch's copy is dropped). The engine admits and launches the job; this
 * shows it as still parked, its processes never running, for good.
 */
import type { Implementation } from '../seam/implementation';
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'ED.grow.success-admits',
  what: 'a job parked at the map-eligible boundary during a grow never starts once the grow succeeds: it stays parked, no process runs',
};

export const createImplementation = wrap((inner) => {
  /** Every job the engine has parked at the map-eligible boundary, at any point. */
  const parked = new Set<string>();
  const noting = <K extends 'spawn' | 'allocate' | 'daemon' | 'scheduler'>(op: K): Implementation[K] =>
    (async (req: never) => {
      const out = await (inner[op] as (r: never) => Promise<unknown>)(req);
      for (const ns of (await inner.inspect?.())?.elastic?.parkedAtMap ?? []) parked.add(ns);
      return out;
    }) as Implementation[K];
  return {
    spawn: noting('spawn'),
    allocate: noting('allocate'),
    daemon: noting('daemon'),
    scheduler: noting('scheduler'),
    observe: async (req) => {
      const snap = await inner.observe(req);
      return {
        ...snap,
        jobs: snap.jobs.map((j) =>
          parked.has(j.nspace) && j.state !== 'NEVER_LAUNCHED'
            ? { ...j, state: 'WAITING_FOR_DAEMONS' as const, procs: j.procs.map((p) => ({ ...p, running: false })) }
            : j,
        ),
      };
    },
  };
});
