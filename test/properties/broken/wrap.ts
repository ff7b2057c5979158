/**
 * Deliberately broken implementations, for showing that the lifecycle
 * property (../lifecycle.property.test.ts) has teeth. Each module in this
 * folder wraps the reference engine's adapter and misbehaves in one way;
 * none is a *.test.ts file, so the default test run never loads them.
 * Run the property against one with, for example:
 *
 *   PMIX_CONFORMANCE_ADAPTER=test/properties/broken/none-as-default \
 *     node --require ./tools/register.js --test test/properties/lifecycle.property.test.ts
 *
 * With PMIX_BROKEN_NO_INSPECT=1 the wrapper also hides `inspect`, so the
 * property must catch the bug from what a client observes alone. Every
 * variant must make the property fail:
 *
 *   for v in test/properties/broken/*.ts; do case $v in *wrap.ts|*child-tracking.ts) continue;; esac
 *     PMIX_CONFORMANCE_ADAPTER=${v%.ts} node --require ./tools/register.js \
 *       --test test/properties/lifecycle.property.test.ts >/dev/null && echo "NOT CAUGHT: $v"; done
 *
 * The variants: none-as-default, child-as-none, child-default-as-default,
 * default-returns-nodes (a disposition performed as another, introspection
 * still reporting the one asked for); child-genealogy-only,
 * child-without-owner (wrong CHILD drain rules); release-by-anyone (no
 * ownership check on RELEASE); reclaim-ignored; stale-id-is-default (an
 * ended id still resolves); tool-leave-ends-all (a reservation ends on
 * another event).
 */
import type { Implementation } from '../../../seam/implementation';
import type { Info, ProcId } from '../../../seam/messages';
import { Key } from '../../../seam/pmix';
import { createImplementation as reference } from '../../../reference/adapter';

export interface Wrapped {
  base: Implementation;
  /** The scheduler's process, once started. */
  scheduler(): ProcId;
}

/** The reference adapter with some methods replaced; `make` receives the original. */
export function wrap(make: (w: Wrapped) => Partial<Implementation>): Implementation {
  const base = reference();
  let sched: ProcId | undefined;
  const w: Wrapped = { base, scheduler: () => sched! };
  const over = make(w);
  const impl: Implementation = {
    ...base,
    start: async (setup) => {
      const r = await base.start(setup);
      sched = r.scheduler;
      return r;
    },
    ...over,
  };
  if (process.env.PMIX_BROKEN_NO_INSPECT === '1') delete impl.inspect;
  return impl;
}

/** Rewrite the value of one key in an info array. */
export function rewrite(info: Info[], key: string, f: (v: Info['value']) => Info['value']): Info[] {
  return info.map((i) => (i.key === key ? { ...i, value: f(i.value) } : i));
}

/**
 * Perform disposition `from` as `to` (rewriting PMIX_ALLOC_INHERITANCE on
 * every NEW), while introspection still reports the disposition asked for,
 * so only the behaviour betrays the bug.
 */
export function recordAs(from: number, to: number): Implementation {
  const asked = new Map<string, number>();
  return wrap(({ base }) => ({
    allocate: async (req) => {
      if (req.directive !== 1) return base.allocate(req);
      const r = await base.allocate({ ...req, info: rewrite(req.info, Key.PMIX_ALLOC_INHERITANCE, (v) => (v === from ? to : v)) });
      const id = r.info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value;
      if (typeof id === 'string' && req.info.some((i) => i.key === Key.PMIX_ALLOC_INHERITANCE && i.value === from)) asked.set(id, from);
      return r;
    },
    inspect: async () => {
      const r = await base.inspect!();
      return { allocations: r.allocations.map((a) => ({ ...a, inheritance: asked.get(a.allocId) ?? a.inheritance })) };
    },
  }));
}
