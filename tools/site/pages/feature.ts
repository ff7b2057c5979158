/** Living documentation: a page per feature file (its prose, background, rules and scenarios, each linked to its clauses with its outcome per implementation), and the list of features. */
import type { FeatureDoc, ScenarioDoc } from '../features';
import { allScenarios } from '../features';
import { a, esc, markdownBlock, paths, table, type Linker } from '../html';
import { tagged, type SiteData } from '../load';
import { COUNTS_LEGEND_PLAIN, countsCell, outcomeBadge, scenarioGherkin, stepsHtml, tagsHtml } from './common';

function scenarioSection(site: SiteData, s: ScenarioDoc, from: string, linker: Linker): string {
  const impls = site.implementations;
  const clauses = tagged(s.effectiveTags, 'clause');
  const clauseList = clauses.length > 0 ? `<div class="muted">Clauses: ${clauses.map((c) => (site.registry.clauses.has(c) ? a(from, paths.clause(c), esc(c), 'clause') : `<code>${esc(c)}</code>`)).join(', ')}</div>` : '';
  const outline = s.examples.length > 0;
  const outcomes = !outline && impls.length > 0 ? `<div class="outcomes">${impls.map((i) => `${esc(i.name)}: ${outcomeBadge(i, s.ids[0])}`).join(' &nbsp; ')}</div>` : '';
  return `<section class="scenario" id="L${s.line}"><h3>${linker.prose(s.name, from)}</h3>${clauseList}${outcomes}${scenarioGherkin(s, from, linker, outline ? impls : [], true)}</section>`;
}

export function featurePage(site: SiteData, f: FeatureDoc, linker: Linker): { title: string; body: string } {
  const from = paths.feature(f.uri);
  const parts: string[] = [`<p class="muted"><code>${esc(f.uri)}</code>${f.tags.length > 0 ? ` — ${tagsHtml(f.tags, from, linker)}` : ''}</p>`];
  if (f.description) parts.push(`<div class="prose">${markdownBlock(f.description, from, linker)}</div>`);
  const summary = summaryTable(site, f);
  if (summary) parts.push('<h2>Outcomes</h2>', summary);
  if (f.background) parts.push('<h2>Background</h2>', `<div class="gherkin">${stepsHtml(f.background, from, linker)}</div>`);
  if (f.scenarios.length > 0) parts.push(f.rules.length > 0 ? '<h2>Scenarios</h2>' : `<h2>Scenarios (${f.scenarios.length})</h2>`, ...f.scenarios.map((s) => scenarioSection(site, s, from, linker)));
  for (const r of f.rules) {
    parts.push(`<h2>Rule: ${linker.prose(r.name, from)}</h2>`);
    if (r.tags.length > 0) parts.push(`<div class="tag">${tagsHtml(r.tags, from, linker)}</div>`);
    if (r.description) parts.push(`<div class="prose">${markdownBlock(r.description, from, linker)}</div>`);
    if (r.background) parts.push(`<div class="gherkin"><div><span class="kw">Background:</span></div>${stepsHtml(r.background, from, linker)}</div>`);
    parts.push(...r.scenarios.map((s) => scenarioSection(site, s, from, linker)));
  }
  return { title: `Feature: ${f.name}`, body: parts.join('\n') };
}

function summaryTable(site: SiteData, f: FeatureDoc): string {
  const impls = site.implementations;
  if (impls.length === 0) return '';
  const ids = allScenarios(f).flatMap((s) => s.ids);
  return table(
    ['Implementation', 'passed', 'failed', 'skipped', 'errored', 'not run'],
    impls.map((i) => {
      const counts = { passed: 0, failed: 0, skipped: 0, errored: 0, absent: 0 };
      for (const id of ids) counts[i.latest.byId.get(id)?.outcome ?? 'absent'] += 1;
      return [esc(i.name), String(counts.passed), String(counts.failed), String(counts.skipped), String(counts.errored), String(counts.absent)];
    }),
    'feature-outcomes',
  );
}

export function featuresIndexPage(site: SiteData, linker: Linker): { title: string; body: string } {
  const from = 'features.html';
  const byFolder = new Map<string, FeatureDoc[]>();
  for (const f of site.features) {
    const folder = f.uri.split('/').slice(1, -1).join('/') || '.';
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), f]);
  }
  const parts = ['<p>The Gherkin features are the contract made executable, and written to be read: each page renders one feature file, its scenarios linked to the clauses they check and showing their outcome in each implementation.</p>', COUNTS_LEGEND_PLAIN];
  for (const [folder, list] of byFolder) {
    parts.push(`<h2>${esc(folder)}</h2>`);
    parts.push(
      table(
        ['Feature', 'Scenarios', ...site.implementations.map((i) => esc(i.name))],
        list.map((f) => {
          const ids = allScenarios(f).flatMap((s) => s.ids);
          return [
            `${a(from, paths.feature(f.uri), linker.prose(f.name, from))}<br><span class="muted">${esc(f.uri)}</span>`,
            String(ids.length),
            ...site.implementations.map((i) => {
              const c = { passed: 0, failed: 0, skipped: 0, errored: 0 };
              for (const id of ids) {
                const o = i.latest.byId.get(id)?.outcome;
                if (o) c[o] += 1;
              }
              return countsCell(c);
            }),
          ];
        }),
      ),
    );
  }
  return { title: 'Features', body: parts.join('\n') };
}
