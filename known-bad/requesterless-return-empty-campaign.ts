/**
 * A return of nodes to the scheduler that no process asked for (a NONE or
 * CHILD disposition firing, a scheduler reclaim) opens a shrink campaign
 * even when it removes no daemon. With no target ever to depart, the empty
 * campaign never completes, and every job that reaches the launch boundary
 * afterwards is parked for good: 004's "an empty campaign would never drain
 * … wedging every later job at the LAUNCH_APPS hold".
 */
import type { Implementation } from '../seam/implementation';
import { Directive, Inheritance, Key, Status } from '../seam/pmix';
import { allocIdOf, infoValue, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'SH.campaign.none-without-daemons',
  what: 'a requesterless return that removes no daemon opens an empty shrink campaign that holds every later job at the launch boundary',
};

const RETURNS: readonly unknown[] = [Inheritance.PMIX_ALLOC_INHERIT_NONE, Inheritance.PMIX_ALLOC_INHERIT_CHILD];

export const createImplementation = wrap((inner) => {
  let elastic = false;
  /** The disposition each allocation was given (absent: DEFAULT). */
  const disposition = new Map<string, unknown>();
  /** An empty campaign is in progress (it never completes). */
  let wedged = false;
  const held: string[] = [];

  /** Run a requesterless trigger; an allocation it returned with none of its nodes leaving opens the empty campaign. */
  const trigger = async <T>(reclaimed: string | undefined, act: () => Promise<T>): Promise<T> => {
    if (!elastic || !inner.inspect) return act();
    const before = (await inner.inspect()).allocations;
    const result = await act();
    const after = new Set((await inner.inspect()).allocations.map((a) => a.allocId));
    const nodes = await inner.observe({});
    for (const a of before) {
      if (after.has(a.allocId)) continue;
      const returned = a.allocId === reclaimed || RETURNS.includes(disposition.get(a.allocId));
      const noneLeave = a.nodes.every((n) => nodes.nodes.some((v) => v.name === n && v.daemon !== 'leaving'));
      if (returned && a.nodes.length > 0 && noneLeave) wedged = true;
    }
    return result;
  };

  const overrides: Partial<Implementation> = {
    start: async (s) => {
      elastic = s.elastic;
      return inner.start(s);
    },
    allocate: async (req) => {
      const r = await inner.allocate(req);
      const grow = req.directive === Directive.PMIX_ALLOC_NEW || req.directive === Directive.PMIX_ALLOC_EXTEND;
      if (grow && r.status === Status.PMIX_SUCCESS) {
        const id = allocIdOf(r) ?? (infoValue(req.info, Key.PMIX_ALLOC_ID) as string | undefined);
        const inh = infoValue(req.info, Key.PMIX_ALLOC_INHERITANCE);
        if (id !== undefined && (inh !== undefined || req.directive === Directive.PMIX_ALLOC_NEW)) disposition.set(id, inh);
      }
      return r;
    },
    terminateJob: (req) => trigger(undefined, () => inner.terminateJob(req)),
    disconnectTool: (req) => trigger(undefined, () => inner.disconnectTool(req)),
    scheduler: (req) => trigger(req.action === 'reclaim' ? req.allocId : undefined, () => inner.scheduler(req)),
    advanceJob: async (req) => {
      const reachesLaunch = req.to === 'launch' || req.holdBeforeLaunch !== true;
      if (!wedged || !reachesLaunch) return inner.advanceJob(req);
      // The job goes on up to the launch boundary and is parked there, behind the empty campaign.
      const before = (await inner.observe({ jobs: [req.nspace] })).jobs[0];
      const mapped = before !== undefined && before.procs.length > 0;
      const ack = mapped ? { status: Status.PMIX_SUCCESS } : await inner.advanceJob({ nspace: req.nspace, to: 'map', holdBeforeLaunch: true });
      const job = (await inner.observe({ jobs: [req.nspace] })).jobs[0];
      if (ack.status === Status.PMIX_SUCCESS && job?.state === 'PENDING' && job.procs.length > 0) held.push(req.nspace);
      return ack;
    },
    observe: async (req) => {
      const snap = await inner.observe(req);
      return { ...snap, jobs: snap.jobs.map((j) => (held.includes(j.nspace) && j.state === 'PENDING' ? { ...j, state: 'WAITING_FOR_DAEMONS' as const } : j)) };
    },
  };
  return overrides;
});
