/**
 * Comparisons across implementations (each implementation's latest run): a
 * scenario or clause that fails in exactly one implementation while another
 * passes it and none other fails it.
 */
import type { Outcome } from '../lib/outcomes';
import type { ClauseVerdict, Counts } from '../lib/report';
import { isBad, type Implementation, type SiteData } from './load';

export interface OnlyHere {
  kind: 'scenario' | 'clause';
  id: string;
  name: string;
  /** The one implementation it fails in. */
  impl: string;
  /** What it is elsewhere: implementation -> outcome or verdict. */
  elsewhere: Record<string, string>;
}

const BAD_VERDICT: ReadonlySet<ClauseVerdict> = new Set(['violated', 'errored']);

export function failsOnlyHere(site: SiteData): OnlyHere[] {
  const impls = site.implementations;
  if (impls.length < 2) return [];
  const out: OnlyHere[] = [];
  const ids = new Set(impls.flatMap((i) => [...i.latest.byId.keys()]));
  for (const id of ids) {
    const outcomes = new Map<string, Outcome>();
    let name = '';
    for (const i of impls) {
      const s = i.latest.byId.get(id);
      if (s) {
        outcomes.set(i.name, s.outcome);
        name = s.name;
      }
    }
    const bad = [...outcomes].filter(([, o]) => isBad(o));
    if (bad.length === 1 && [...outcomes.values()].includes('passed')) {
      out.push({ kind: 'scenario', id, name, impl: bad[0][0], elsewhere: Object.fromEntries([...outcomes].filter(([n]) => n !== bad[0][0])) });
    }
  }
  for (const c of site.clauses) {
    const verdicts = new Map<string, ClauseVerdict>();
    for (const i of impls) {
      const v = clauseOf(i, c.id)?.verdict;
      if (v) verdicts.set(i.name, v);
    }
    const bad = [...verdicts].filter(([, v]) => BAD_VERDICT.has(v));
    if (bad.length === 1 && [...verdicts.values()].includes('conforms')) {
      out.push({ kind: 'clause', id: c.id, name: c.text, impl: bad[0][0], elsewhere: Object.fromEntries([...verdicts].filter(([n]) => n !== bad[0][0])) });
    }
  }
  return out;
}

export const clauseOf = (i: Implementation, id: string) => i.latest.report.clauses.find((c) => c.id === id);

export const zero = (): Counts => ({ passed: 0, failed: 0, skipped: 0, errored: 0 });

export function addCounts(a: Counts, b: Counts): Counts {
  return { passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped, errored: a.errored + b.errored };
}
