/**
 * Answers every observation with its lists in a different order on each
 * call (rotated by a call counter, so the run stays deterministic): nodes,
 * jobs, a job's processes, and events (whose sequence numbers still order
 * them).
 */
import { createImplementation as reference } from '../reference/adapter';
import type { Implementation } from '../seam/implementation';
import type { KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'returns the nodes, jobs, processes and events of an observation in a different order on every call',
  permittedBy: 'no document orders these lists; an observation reports sets (events carry their own order in seq).',
};

const rotate = <T>(xs: T[], k: number): T[] => (xs.length === 0 ? xs : [...xs.slice(k % xs.length), ...xs.slice(0, k % xs.length)].reverse());

export function createImplementation(): Implementation {
  const inner = reference({}, 'reference engine, known-good variant "observations-in-any-order"');
  let calls = 0;
  return {
    ...inner,
    observe: async (req) => {
      const snap = await inner.observe(req);
      calls += 1;
      return {
        nodes: rotate(snap.nodes, calls),
        jobs: rotate(snap.jobs, calls).map((j) => ({ ...j, procs: rotate(j.procs, calls) })),
        events: rotate(snap.events, calls),
      };
    },
  };
}
