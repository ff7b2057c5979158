/**
 * Helpers for variants that get the CHILD drain wrong: they watch the spawn
 * relation through the seam and end CHILD reservations themselves (as a
 * scheduler release, which returns the nodes as CHILD would) by their own
 * wrong rule, after every termination.
 */
import type { Implementation } from '../../../seam/implementation';
import type { AllocationView } from '../../../seam/messages';
import { Directive, Inheritance, Key } from '../../../seam/pmix';
import { wrap, type Wrapped } from './wrap';

export interface Genealogy {
  /** Spawn descendants of a namespace, at any depth. */
  descendants(ns: string): string[];
  running(ns: string): Promise<boolean>;
}

/** `due(a, g)`: whether this (wrong) rule ends CHILD allocation `a` now. */
export function endChildWhen(due: (a: AllocationView, g: Genealogy) => Promise<boolean>): Implementation {
  const children = new Map<string, string[]>();
  const gone = new Set<string>();
  return wrap((w: Wrapped) => {
    const { base } = w;
    const g: Genealogy = {
      descendants(ns) {
        const out: string[] = [];
        const stack = [...(children.get(ns) ?? [])];
        while (stack.length > 0) {
          const j = stack.pop()!;
          out.push(j);
          stack.push(...(children.get(j) ?? []));
        }
        return out;
      },
      async running(ns) {
        if (ns === w.scheduler().nspace) return true;
        const job = (await base.observe({})).jobs.find((j) => j.nspace === ns);
        return job ? job.state === 'RUNNING' : !gone.has(ns);
      },
    };
    const sweep = async () => {
      for (const a of (await base.inspect!()).allocations) {
        if (a.inheritance === Inheritance.PMIX_ALLOC_INHERIT_CHILD && (await due(a, g))) {
          await base.allocate({ requester: w.scheduler(), directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: a.allocId }] });
        }
      }
    };
    return {
      spawn: async (req) => {
        const r = await base.spawn(req);
        if (r.nspace) children.set(req.requester.nspace, [...(children.get(req.requester.nspace) ?? []), r.nspace]);
        return r;
      },
      terminateJob: async (req) => {
        const r = await base.terminateJob(req);
        await sweep();
        return r;
      },
      disconnectTool: async (req) => {
        gone.add(req.proc.nspace);
        const r = await base.disconnectTool(req);
        await sweep();
        return r;
      },
    };
  });
}
