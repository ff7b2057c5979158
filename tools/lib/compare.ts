/**
 * What changed between two conformance reports: two runs of one
 * implementation (a regression, a fix), or two implementations. Per scenario
 * and per clause: newly failing, newly passing, any other change of outcome.
 */
import type { Outcome } from './outcomes';
import type { ClauseVerdict, ConformanceReport, ScenarioEntry } from './report';
import { compareIds } from './run';

const BAD: ReadonlySet<Outcome> = new Set(['failed', 'errored']);

export interface ScenarioChange {
  id: string;
  name: string;
  from: Outcome | 'absent';
  to: Outcome | 'absent';
  /** What B observed, for a newly failing scenario. */
  observed?: string;
}

export interface ClauseChange {
  id: string;
  paraphrase: string;
  from: ClauseVerdict;
  to: ClauseVerdict;
}

export interface Comparison {
  a: string;
  b: string;
  totals: { outcome: Outcome; a: number; b: number }[];
  scenarios: { newlyFailing: ScenarioChange[]; newlyPassing: ScenarioChange[]; changed: ScenarioChange[]; added: ScenarioChange[]; removed: ScenarioChange[] };
  clauses: { newlyViolated: ClauseChange[]; noLongerViolated: ClauseChange[]; changed: ClauseChange[] };
}

const label = (r: ConformanceReport) => `${r.implementation.name} ${r.implementation.version}${r.run.startedAt ? ` (run ${r.run.startedAt})` : ''}`;

const observed = (s: ScenarioEntry) => s.failure?.observed ?? s.message;

export function compareReports(a: ConformanceReport, b: ConformanceReport): Comparison {
  const before = new Map(a.scenarios.map((s) => [s.id, s]));
  const after = new Map(b.scenarios.map((s) => [s.id, s]));
  const sc: Comparison['scenarios'] = { newlyFailing: [], newlyPassing: [], changed: [], added: [], removed: [] };
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort(compareIds);
  for (const id of ids) {
    const x = before.get(id);
    const y = after.get(id);
    const change: ScenarioChange = { id, name: (y ?? x)!.name, from: x?.outcome ?? 'absent', to: y?.outcome ?? 'absent' };
    if (!x) sc.added.push(change);
    else if (!y) sc.removed.push(change);
    else if (x.outcome === y.outcome) continue;
    else if (BAD.has(y.outcome) && !BAD.has(x.outcome)) {
      const o = observed(y);
      sc.newlyFailing.push(o ? { ...change, observed: o } : change);
    } else if (y.outcome === 'passed') sc.newlyPassing.push(change);
    else sc.changed.push(change);
  }

  const cl: Comparison['clauses'] = { newlyViolated: [], noLongerViolated: [], changed: [] };
  const verdictsBefore = new Map(a.clauses.map((c) => [c.id, c]));
  for (const c of b.clauses) {
    const old = verdictsBefore.get(c.id);
    if (!old || old.verdict === c.verdict) continue;
    const change: ClauseChange = { id: c.id, paraphrase: c.paraphrase, from: old.verdict, to: c.verdict };
    if (c.verdict === 'violated') cl.newlyViolated.push(change);
    else if (old.verdict === 'violated') cl.noLongerViolated.push(change);
    else cl.changed.push(change);
  }

  const outcomes: Outcome[] = ['passed', 'failed', 'skipped', 'errored'];
  return {
    a: label(a),
    b: label(b),
    totals: outcomes.map((outcome) => ({ outcome, a: a.totals[outcome], b: b.totals[outcome] })),
    scenarios: sc,
    clauses: cl,
  };
}

export function renderComparison(c: Comparison): string {
  const out: string[] = [`A: ${c.a}`, `B: ${c.b}`, ''];
  const delta = (n: number) => (n === 0 ? '' : n > 0 ? ` (+${n})` : ` (${n})`);
  out.push(`totals: ${c.totals.map((t) => `${t.outcome} ${t.a} -> ${t.b}${delta(t.b - t.a)}`).join(', ')}`, '');
  const s = c.scenarios;
  const nothing = [s.newlyFailing, s.newlyPassing, s.changed, s.added, s.removed, c.clauses.newlyViolated, c.clauses.noLongerViolated, c.clauses.changed].every((l) => l.length === 0);
  if (nothing) {
    out.push('No scenario and no clause changed outcome.');
    return out.join('\n');
  }
  const section = (title: string, list: ScenarioChange[]) => {
    if (list.length === 0) return;
    out.push(`${title} (${list.length}):`);
    for (const x of list) {
      out.push(`  ${x.id}  ${x.from} -> ${x.to}  ${x.name}`);
      if (x.observed) out.push(...x.observed.split('\n').map((l) => `      ${l}`));
    }
    out.push('');
  };
  section('Scenarios newly failing or erroring in B', s.newlyFailing);
  section('Scenarios newly passing in B', s.newlyPassing);
  section('Scenarios with another change of outcome', s.changed);
  section('Scenarios only in B', s.added);
  section('Scenarios only in A', s.removed);
  const clauses = (title: string, list: ClauseChange[]) => {
    if (list.length === 0) return;
    out.push(`${title} (${list.length}):`);
    for (const x of list) out.push(`  ${x.id}  ${x.from} -> ${x.to}  ${x.paraphrase}`);
    out.push('');
  };
  clauses('Clauses newly violated in B', c.clauses.newlyViolated);
  clauses('Clauses no longer violated in B', c.clauses.noLongerViolated);
  clauses('Clauses with another change of verdict', c.clauses.changed);
  return out.join('\n').trimEnd();
}
