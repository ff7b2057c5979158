/**
 * A failed grow aborts every job parked at the map-eligible boundary, not only those
 * that parked while that grow was in progress (the plans' rule, rejected by
 * IP-ELASTIC-GROW-FAILURE-SCOPE / ED.conformance.4): after a grow target
 * crashes or fails to start, every job still parked at the map-eligible boundary is
 * withdrawn and shown NEVER_LAUNCHED.
 */
import { wrap } from './wrap';
export const createImplementation = () => {
  const aborted = new Set<string>();
  return wrap(({ base }) => ({
    daemon: async (req) => {
      const grows = (await base.inspect!()).elastic?.campaigns.filter((c) => c.kind === 'grow') ?? [];
      const failing = (req.event === 'crash' || req.event === 'fail-to-start') && grows.some((c) => c.targets.includes(req.node ?? ''));
      const r = await base.daemon(req);
      if (failing) {
        for (const ns of (await base.inspect!()).elastic?.parkedAtMap ?? []) {
          aborted.add(ns);
          await base.terminateJob({ nspace: ns });
        }
      }
      return r;
    },
    observe: async (req) => {
      const snap = await base.observe(req);
      return { ...snap, jobs: snap.jobs.map((j) => (aborted.has(j.nspace) ? { ...j, state: 'NEVER_LAUNCHED' as const } : j)) };
    },
  }));
};
