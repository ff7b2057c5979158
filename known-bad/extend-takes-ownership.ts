/**
 * A co-owner's EXTEND makes it the owning namespace: its termination then
 * fires the disposition (here NONE: the nodes go back to the scheduler), and
 * the original owner's does not. Emulated around the reference engine: the
 * wrapper remembers who extended last and, when that job ends, releases the
 * allocation on the scheduler's authority.
 */
import { Directive, Key, Status } from '../seam/pmix';
import { allocIdOf, infoValue, schedulerOf, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.own.single-owning-namespace', what: 'a co-owner that extends a reservation becomes its owning namespace' };

export const createImplementation = wrap((inner) => {
  const scheduler = schedulerOf(inner);
  const takenOverBy = new Map<string, string>(); // job namespace -> allocation it "owns" now
  return {
    start: scheduler.start,
    allocate: async (req) => {
      const r = await inner.allocate(req);
      const id = allocIdOf(r) ?? (infoValue(req.info, Key.PMIX_ALLOC_ID) as string | undefined);
      if (req.directive === Directive.PMIX_ALLOC_EXTEND && r.status === Status.PMIX_SUCCESS && id) takenOverBy.set(req.requester.nspace, id);
      return r;
    },
    terminateJob: async (req) => {
      const ack = await inner.terminateJob(req);
      const id = takenOverBy.get(req.nspace);
      const proc = scheduler.get();
      if (id && proc) await inner.allocate({ requester: proc, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] });
      return ack;
    },
  };
});
