/**
 * Observations are sets. No document orders the nodes, jobs or processes an
 * implementation reports, nor the owners of an allocation, so before a step
 * compares or prints an observation it puts every list into one canonical
 * order. Events are ordered by their sequence numbers, which may have gaps:
 * only their relative order means anything.
 */
import type { Introspection, Snapshot } from '../../seam/messages';

const by = <T>(key: (t: T) => string | number) => (a: T, b: T) => {
  const x = key(a);
  const y = key(b);
  return x < y ? -1 : x > y ? 1 : 0;
};
const sorted = (xs: string[]) => [...xs].sort();

export function canonicalSnapshot(s: Snapshot): Snapshot {
  return {
    nodes: [...s.nodes].sort(by((n) => n.name)),
    jobs: [...s.jobs].sort(by((j) => j.nspace)).map((j) => ({ ...j, procs: [...j.procs].sort(by((p) => p.rank)) })),
    events: [...s.events].sort(by((e) => e.seq)),
  };
}

export function canonicalIntrospection(i: Introspection): Introspection {
  return {
    allocations: [...i.allocations]
      .sort(by((a) => a.allocId))
      .map((a) => ({ ...a, owners: sorted(a.owners), nodes: sorted(a.nodes), forwardedToScheduler: [...a.forwardedToScheduler].sort(by((f) => f.key)) })),
    ...(i.elastic
      ? {
          elastic: {
            ...i.elastic,
            campaigns: [...i.elastic.campaigns].sort(by((c) => c.id)).map((c) => ({ ...c, targets: sorted(c.targets), pending: sorted(c.pending) })),
            parkedAtMap: sorted(i.elastic.parkedAtMap),
            parkedAtLaunch: sorted(i.elastic.parkedAtLaunch),
          },
        }
      : {}),
  };
}
