/** A page per implementation: its runs, capabilities and readings, outcomes by area, failures, skipped scenarios by what would unlock them, and a trend over three or more runs. */
import type { ScenarioEntry } from '../../lib/report';
import { a, badge, esc, paths, table, type Linker } from '../html';
import { matchFor, noteFor, type Implementation, type SiteData } from '../load';
import { COUNTS_LEGEND_PLAIN, countsCell, noteHtml } from './common';
import { scenarioLink } from './index';

export function implPage(site: SiteData, impl: Implementation, linker: Linker): { title: string; body: string } {
  const from = paths.impl(impl.name);
  const r = impl.latest.report;
  const parts: string[] = [];
  parts.push(
    `<table class="kv"><tr><th>Implementation</th><td>${esc(r.implementation.name)} ${esc(r.implementation.version)}${r.implementation.declared ? '' : ' <span class="muted">(it never described itself)</span>'}</td></tr>` +
      `<tr><th>Adapter</th><td>${r.implementation.adapter ? `<code>${esc(r.implementation.adapter)}</code>` : '<span class="muted">—</span>'}</td></tr>` +
      `<tr><th>Latest run</th><td>${esc(impl.latest.label)} <span class="muted">${esc(impl.latest.file)}</span>; suite ${esc(r.run.suiteVersion)}${r.run.complete ? '' : ' <strong>(incomplete)</strong>'}</td></tr>` +
      `<tr><th>Expectations</th><td>${impl.expectationsFile ? `<code>${esc(impl.expectationsFile)}</code> (given to the site)` : r.expectations.file ? `<code>${esc(r.expectations.file)}</code> (${r.expectations.entries} entries, as the run recorded them)` : '<span class="muted">none</span>'}</td></tr>` +
      `<tr><th>Verdict</th><td>${r.verdict.matchesExpectations ? 'every outcome as expected' : esc(r.verdict.problems.join('; '))}</td></tr></table>`,
  );

  const run = impl.latest;
  if (run.moved > 0 || run.unknown.length > 0) {
    parts.push(
      `<p class="note">This run predates edits to the feature files: ${run.moved} of its scenario ids had moved and are shown under their current ids (matched by feature file and scenario name)${run.unknown.length > 0 ? `; ${run.unknown.length} name no scenario of the current features` : ''}.</p>`,
    );
    if (run.unknown.length > 0) parts.push(`<details><summary>Scenarios of this run the current features do not have (${run.unknown.length})</summary><ul class="compact">${run.unknown.map((s) => `<li>${esc(s.id)} ${esc(s.name)} ${badge(s.outcome)}</li>`).join('')}</ul></details>`);
  }
  parts.push('<h2>Capabilities</h2>');
  parts.push(r.implementation.capabilities.length > 0 ? `<p class="caps">${r.implementation.capabilities.map((c) => `<code>${esc(c)}</code>`).join(' ')}</p>` : '<p class="muted">none declared</p>');
  parts.push('<h2>Readings</h2>');
  const readings = Object.entries(r.implementation.readings ?? {});
  parts.push(readings.length > 0 ? table(['Reading', 'Value'], readings.map(([k, v]) => [`<code>${esc(k)}</code>`, `<code>${esc(v)}</code>`])) : '<p class="muted">none declared</p>');

  parts.push('<h2>Outcomes by area</h2>', COUNTS_LEGEND_PLAIN);
  parts.push(table(['Area', 'Outcomes'], [...r.areas.map((x) => [esc(x.area), countsCell(x)]), ['<strong>all</strong>', countsCell(r.totals)]], 'areas'));

  const bad = impl.latest.scenarios.filter((s) => s.outcome === 'failed' || s.outcome === 'errored');
  parts.push(`<h2>Failed and errored (${bad.length})</h2>`);
  parts.push(bad.length > 0 ? table(['Scenario', 'Outcome', 'Observed', 'Expectations'], bad.map((s) => [scenarioLink(site, from, s.id, s.name, linker) + clauseLinks(s, from), badge(s.outcome), `<span class="msg">${linker.prose(s.failure?.observed ?? s.message ?? '', from)}</span>`, note(impl, s, from, linker)])) : '<p class="muted">none</p>');

  const skipped = impl.latest.scenarios.filter((s) => s.outcome === 'skipped');
  const groups = new Map<string, ScenarioEntry[]>();
  for (const s of skipped) {
    const k = s.skip?.capabilities?.join(' + ') ?? s.skip?.capability ?? s.skip?.reason ?? 'no reason given';
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  parts.push(`<h2>Skipped, by what would unlock them (${skipped.length})</h2>`);
  if (skipped.length === 0) parts.push('<p class="muted">none</p>');
  for (const [k, list] of [...groups].sort((x, y) => y[1].length - x[1].length)) {
    parts.push(`<h3>${esc(k)} <span class="muted">(${list.length})</span></h3><ul class="compact">${list.map((s) => `<li>${scenarioLink(site, from, s.id, s.name, linker).replace('<br>', ' ')}</li>`).join('')}</ul>`);
  }

  if (impl.runs.length > 1) {
    parts.push('<h2>Runs</h2>');
    parts.push(
      table(
        ['Run #', 'Run', 'Scenarios', 'Outcomes', 'Change'],
        impl.runs.map((run, k) => [`#${run.index + 1}`, esc(run.label), String(run.report.totals.scenarios), countsCell(run.report.totals), k > 0 ? a(from, paths.diff(impl.name, k), 'diff with the run before') : '']),
        'runs',
      ),
    );
  }
  if (impl.runs.length >= 3) {
    const areas = [...new Set(impl.runs.flatMap((run) => run.report.areas.map((x) => x.area)))].sort();
    parts.push('<h2 id="trend">Trend</h2><p class="legend">Passed / failed+errored per run, in the order the runs were given.</p>');
    const cell = (c: { passed: number; failed: number; errored: number } | undefined) => (c ? `<span class="counts"><span class="p">${c.passed}</span><span class="f">${c.failed + c.errored}</span></span>` : '<span class="muted">—</span>');
    parts.push(
      table(
        ['Area', ...impl.runs.map((run) => `run #${run.index + 1}<br><span class="muted">${esc(run.report.implementation.version)}</span>`)],
        [...areas.map((area) => [esc(area), ...impl.runs.map((run) => cell(run.report.areas.find((x) => x.area === area)))]), ['<strong>all</strong>', ...impl.runs.map((run) => cell(run.report.totals))]],
        'trend',
      ),
    );
  }
  return { title: `${impl.name} ${r.implementation.version}`, body: parts.join('\n') };
}

function clauseLinks(s: ScenarioEntry, from: string): string {
  const list = s.charged ?? s.clauses;
  return list.length > 0 ? `<br>${list.map((c) => a(from, paths.clause(c), esc(c), 'clause')).join(' ')}` : '';
}

function note(impl: Implementation, s: ScenarioEntry, from: string, linker: Linker): string {
  const n = noteFor(impl, impl.latest, s.id);
  if (!n) return `<span class="muted">${esc(matchFor(impl, s))}</span>`;
  return `${noteHtml(n, from, linker, false)} <span class="muted">(${esc(matchFor(impl, s))})</span>`;
}
