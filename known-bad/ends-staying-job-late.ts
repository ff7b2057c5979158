/**
 * Releases a reservation of startup nodes correctly (they revert to the
 * default session), then, a moment after the answer, ends the jobs still
 * running on them: what PRRTE 52d5e4bb does (its release by id tears the
 * reservation's daemons down, ras_base_allocate.c:1844). Judged straight
 * after the answer it looks right; only a check made once the runtime has
 * finished reacting sees the jobs end.
 */
import type { Snapshot } from '../seam/messages';
import { Directive, Status } from '../seam/pmix';
import { clock } from '../seam/clock';
import { LATE_MS, wrapTrailing, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'NR.mapped.teardown-never-kills',
  what: 'a moment after a release whose startup nodes stay in the DVM, the jobs running on them are ended',
};

/** Nodes that were reserved before and are in the default session after: they stayed in the DVM. */
const reverted = (before: Snapshot, after: Snapshot): Set<string> =>
  new Set(after.nodes.filter((n) => n.availableTo === '' && before.nodes.some((b) => b.name === n.name && b.availableTo !== '')).map((n) => n.name));

export const createImplementation = wrapTrailing((inner) => {
  const due: { at: number; nspace: string }[] = [];
  const endDueJobs = async () => {
    const now = clock.now();
    for (const d of due.filter((x) => x.at <= now)) {
      due.splice(due.indexOf(d), 1);
      await inner.terminateJob({ nspace: d.nspace });
    }
  };
  return {
    allocate: async (req) => {
      await endDueJobs();
      const before = await inner.observe({});
      const r = await inner.allocate(req);
      if (req.directive === Directive.PMIX_ALLOC_RELEASE && r.status === Status.PMIX_SUCCESS) {
        const after = await inner.observe({});
        const stayed = reverted(before, after);
        for (const job of after.jobs) {
          if (job.procs.some((p) => p.running && stayed.has(p.node))) due.push({ at: clock.now() + LATE_MS, nspace: job.nspace });
        }
      }
      return r;
    },
    observe: async (req) => {
      await endDueJobs();
      return inner.observe(req);
    },
  };
});
