/** Delivers PMIX_ALLOC_TIMEOUT_WARNING to every process it knows, not only to the requester. */
import type { ProcId } from '../seam/messages';
import { Status } from '../seam/pmix';
import { renumber, sameProc, wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'NR.warn.directed', what: 'the timeout warning is broadcast to every running job and tool' };

export const createImplementation = wrap((inner) => {
  const tools: ProcId[] = [];
  return {
    connectTool: async (req) => {
      const r = await inner.connectTool(req);
      tools.push(r.proc);
      return r;
    },
    observe: async (req) => {
      const snap = await inner.observe(req);
      const all = await inner.observe({});
      const everyone: ProcId[] = [...tools, ...all.jobs.filter((j) => j.state === 'RUNNING').map((j) => ({ nspace: j.nspace, rank: 0 }))];
      const events = snap.events.flatMap((e) =>
        e.code !== Status.PMIX_ALLOC_TIMEOUT_WARNING ? [e] : [e, ...everyone.filter((p) => !sameProc(p, e.to)).map((to) => ({ ...e, to }))],
      );
      return { ...snap, events: renumber(events) };
    },
  };
});
