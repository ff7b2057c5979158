/** When a grow completes, the runtime ends the running jobs that have no process on the new nodes ("rebalancing"), though none of their nodes left. */
import type { Implementation } from '../seam/implementation';
import { Status } from '../seam/pmix';
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'NR.mapped.teardown-never-kills',
  what: 'a completed grow ends the running jobs with no process on its new nodes',
  frame: true,
};

const readyCount = async (inner: Implementation) => (await inner.observe({})).events.filter((e) => e.code === Status.PMIX_DVM_IS_READY).length;

/** Run `op`; if a grow completed during it, end the running jobs that have no process on a node that was not ready before. */
async function thenRebalance<T>(inner: Implementation, op: () => Promise<T>): Promise<T> {
  const before = await inner.observe({});
  const readyBefore = before.events.filter((e) => e.code === Status.PMIX_DVM_IS_READY).length;
  const result = await op();
  if ((await readyCount(inner)) === readyBefore) return result;
  const old = new Set(before.nodes.filter((n) => n.daemon === 'ready').map((n) => n.name));
  for (const job of (await inner.observe({})).jobs) {
    if (job.state === 'RUNNING' && job.procs.every((p) => old.has(p.node))) await inner.terminateJob({ nspace: job.nspace });
  }
  return result;
}

export const createImplementation = wrap((inner) => ({
  allocate: (req) => thenRebalance(inner, () => inner.allocate(req)),
  daemon: (req) => thenRebalance(inner, () => inner.daemon(req)),
  scheduler: (action) => thenRebalance(inner, () => inner.scheduler(action)),
}));
