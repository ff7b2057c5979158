/** The change between two runs of one implementation (tools/lib/compare.ts): new failures first, then new passes, then changed causes. */
import { compareReports, type ScenarioChange } from '../../lib/compare';
import { a, badge, esc, paths, table, type Linker } from '../html';
import { isBad, type Implementation, type Run, type SiteData } from '../load';
import { scenarioLink } from './index';

/** Scenarios failing (or erroring) in both runs whose observation changed. */
export function changedCauses(x: Run, y: Run): { id: string; name: string; outcome: string; before: string; after: string }[] {
  const out = [];
  for (const s of y.scenarios) {
    const old = x.byId.get(s.id);
    if (!old || !isBad(old.outcome) || !isBad(s.outcome)) continue;
    const before = old.failure?.observed ?? old.message ?? '';
    const after = s.failure?.observed ?? s.message ?? '';
    if (before !== after || old.outcome !== s.outcome) out.push({ id: s.id, name: s.name, outcome: `${old.outcome} → ${s.outcome}`, before, after });
  }
  return out;
}

export function diffPage(site: SiteData, impl: Implementation, to: number, linker: Linker): { title: string; body: string } {
  const from = paths.diff(impl.name, to);
  const x = impl.runs[to - 1];
  const y = impl.runs[to];
  // Compared under the current ids, so that a scenario whose line moved between the runs is not reported as removed and added.
  const c = compareReports({ ...x.report, scenarios: x.scenarios }, { ...y.report, scenarios: y.scenarios });
  const changes = (list: ScenarioChange[], cls: string, withObserved: boolean) =>
    list.length === 0
      ? '<p class="muted">none</p>'
      : table(
          ['Scenario', 'Before', 'After', ...(withObserved ? ['Observed now'] : [])],
          list.map((s) => [scenarioLink(site, from, s.id, s.name, linker), badge(s.from), badge(s.to), ...(withObserved ? [`<span class="msg">${linker.prose(s.observed ?? '', from)}</span>`] : [])]),
          cls,
        );
  const causes = changedCauses(x, y);
  const s = c.scenarios;
  const body = [
    `<p>A (before): ${esc(x.label)} <span class="muted">${esc(x.file)}</span><br>B (after): ${esc(y.label)} <span class="muted">${esc(y.file)}</span><br>${a(from, paths.impl(impl.name), `all runs of ${esc(impl.name)}`)}</p>`,
    table(['Outcome', 'A', 'B', 'Change'], c.totals.map((t) => [badge(t.outcome), String(t.a), String(t.b), t.b === t.a ? '' : t.b > t.a ? `+${t.b - t.a}` : String(t.b - t.a)]), 'totals'),
    `<h2 id="new-failures">New failures (${s.newlyFailing.length})</h2>`,
    changes(s.newlyFailing, 'new-failures', true),
    `<h2 id="new-passes">New passes (${s.newlyPassing.length})</h2>`,
    changes(s.newlyPassing, 'new-passes', false),
    `<h2 id="changed-causes">Changed causes (${causes.length})</h2><p class="legend">Failing or erroring in both runs, with another observation (or the other of the two outcomes).</p>`,
    causes.length === 0 ? '<p class="muted">none</p>' : table(['Scenario', 'Outcome', 'Observed before', 'Observed now'], causes.map((k) => [scenarioLink(site, from, k.id, k.name, linker), esc(k.outcome), `<span class="msg">${linker.prose(k.before, from)}</span>`, `<span class="msg">${linker.prose(k.after, from)}</span>`]), 'changed-causes'),
    `<h2>Other changes of outcome (${s.changed.length})</h2>`,
    changes(s.changed, 'changed', false),
    s.added.length + s.removed.length > 0 ? `<h2>Only in B (${s.added.length}) / only in A (${s.removed.length})</h2>${changes([...s.added, ...s.removed], 'added-removed', false)}` : '',
    `<h2>Clause verdicts</h2>`,
    [...c.clauses.newlyViolated, ...c.clauses.noLongerViolated, ...c.clauses.changed].length === 0
      ? '<p class="muted">No clause changed verdict.</p>'
      : table(['Clause', 'Before', 'After'], [...c.clauses.newlyViolated, ...c.clauses.noLongerViolated, ...c.clauses.changed].map((k) => [`${a(from, paths.clause(k.id), esc(k.id))}<br><span class="muted">${linker.prose(k.paraphrase, from)}</span>`, badge(k.from), badge(k.to)]), 'clause-changes'),
  ].join('\n');
  return { title: `${impl.name}: run #${x.index + 1} → run #${y.index + 1}`, body };
}
