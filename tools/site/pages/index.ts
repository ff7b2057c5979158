/** The index: the runs, the matrix of implementations × spec areas and clauses, and what fails in one implementation only. */
import type { OnlyHere } from '../analysis';
import { clauseOf, failsOnlyHere } from '../analysis';
import { a, badge, esc, paths, table, type Linker } from '../html';
import type { SiteData } from '../load';
import { COUNTS_LEGEND, countsCell } from './common';

export function indexPage(site: SiteData, linker: Linker): { title: string; body: string } {
  const from = paths.index();
  const impls = site.implementations;
  const only = failsOnlyHere(site);
  const onlyKey = (kind: string, id: string, impl: string) => `${kind}\u0000${id}\u0000${impl}`;
  const onlySet = new Set(only.map((o) => onlyKey(o.kind, o.id, o.impl)));
  const mark = '<span class="only" title="fails here only: another implementation passes it">only here</span>';

  const runs = table(
    ['Implementation', 'Run', 'Scenarios', 'passed / failed / skipped / errored', 'Matches its expectations'],
    impls.flatMap((i) =>
      i.runs.map((r) => [
        a(from, paths.impl(i.name), esc(i.name)),
        `${esc(r.label)}${r === i.latest && i.runs.length > 1 ? ' <span class="muted">(latest: shown in the matrix)</span>' : ''}<br><span class="muted">${esc(r.file)}</span>`,
        String(r.report.totals.scenarios),
        countsCell(r.report.totals),
        r.report.verdict.matchesExpectations ? badge('passed').replace('>passed<', '>yes<') : `${badge('failed').replace('>failed<', '>no<')} <span class="muted">${esc(r.report.verdict.problems.join('; '))}</span>`,
      ]),
    ),
  );

  const head = ['Spec area', ...impls.map((i) => `${a(from, paths.impl(i.name), esc(i.name))}<br><span class="muted">${esc(i.latest.report.implementation.version)}</span>`)];
  const areas = [...new Set(impls.flatMap((i) => i.latest.report.areas.map((x) => x.area)))].sort();
  const onlyInArea = (impl: string, area: string) => only.filter((o) => o.kind === 'scenario' && o.impl === impl && impls.find((i) => i.name === impl)!.latest.byId.get(o.id)?.area === area).length;
  const areaRows = areas.map((area) => [
    esc(area),
    ...impls.map((i) => {
      const c = i.latest.report.areas.find((x) => x.area === area);
      if (!c) return '<span class="muted">not run</span>';
      const n = onlyInArea(i.name, area);
      return `${countsCell(c)}${n > 0 ? `<span class="only" title="${n} scenario(s) fail here only">${n} only here</span>` : ''}`;
    }),
  ]);
  const totalRow = `<tr class="total"><td><strong>all areas</strong></td>${impls.map((i) => `<td class="cell">${countsCell(i.latest.report.totals)}</td>`).join('')}</tr>`;
  const areaTable = `<table class="matrix areas" id="areas"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${areaRows.map((r, k) => `<tr data-area="${esc(areas[k])}">${r.map((c, j) => `<td${j > 0 ? ' class="cell"' : ''}>${c}</td>`).join('')}</tr>`).join('')}${totalRow}</tbody></table>`;

  let clauseRows = '';
  for (const d of site.registry.documents) {
    const list = site.clauses.filter((c) => c.prefix === d.prefix);
    if (list.length === 0) continue;
    clauseRows += `<tr class="doc"><th colspan="${impls.length + 1}">${esc(d.title)} <span class="muted">(${esc(d.document)}, ${esc(d.authority)})</span></th></tr>`;
    for (const c of list) {
      const cells = impls.map((i) => {
        const e = clauseOf(i, c.id);
        if (!e) return '<td class="cell"><span class="muted">—</span></td>';
        const ran = e.counts.passed + e.counts.failed + e.counts.skipped + e.counts.errored > 0;
        return `<td class="cell" data-impl="${esc(i.name)}" data-verdict="${esc(e.verdict)}">${badge(e.verdict)} ${ran ? countsCell(e.counts) : ''}${onlySet.has(onlyKey('clause', c.id, i.name)) ? mark : ''}</td>`;
      });
      clauseRows += `<tr data-clause="${esc(c.id)}"><td class="clause">${a(from, paths.clause(c.id), esc(c.id))}<span class="para">${linker.prose(c.text, from)}</span></td>${cells.join('')}</tr>`;
    }
  }
  const clauseTable = `<table class="matrix clauses" id="clauses"><thead><tr>${['Clause', ...head.slice(1)].map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${clauseRows}</tbody></table>`;

  const onlyList = (kind: OnlyHere['kind']) => {
    const list = only.filter((o) => o.kind === kind);
    if (list.length === 0) return `<p class="muted">No ${kind} fails in exactly one implementation while another passes it.</p>`;
    return table(
      [kind === 'scenario' ? 'Scenario' : 'Clause', 'Fails only in', 'Elsewhere'],
      list.map((o) => [
        kind === 'scenario' ? scenarioLink(site, from, o.id, o.name, linker) : `${a(from, paths.clause(o.id), esc(o.id))}<br><span class="muted">${linker.prose(o.name, from)}</span>`,
        `${a(from, paths.impl(o.impl), esc(o.impl))} ${mark}`,
        Object.entries(o.elsewhere).map(([n, v]) => `${esc(n)}: ${badge(v)}`).join('<br>'),
      ]),
      `only-here ${kind}`,
    );
  };

  const diffs = impls.flatMap((i) => i.runs.slice(1).map((r, k) => `<li>${a(from, paths.diff(i.name, k + 1), `${esc(i.name)}: run #${i.runs[k].index + 1} → run #${r.index + 1}`)} <span class="muted">(${esc(i.runs[k].report.implementation.version)} → ${esc(r.report.implementation.version)})</span></li>`));
  const body = [
    `<p>${impls.length} implementation(s), ${impls.reduce((n, i) => n + i.runs.length, 0)} run(s). Read the ${a(from, 'features.html', 'features')} as documentation, and the ${a(from, paths.interpretations(), 'interpretation points')} where the documents disagree or are silent.</p>`,
    '<h2>Runs</h2>',
    runs,
    diffs.length > 0 ? `<h2>Changes between runs</h2><ul class="compact">${diffs.join('')}</ul>` : '',
    '<h2>Outcomes by spec area</h2>',
    COUNTS_LEGEND,
    areaTable,
    `<h2 id="only-here">Fails only here (${only.length})</h2><p>A scenario or clause that fails (or errors) in exactly one implementation while another passes it: the first place to look for a bug of that implementation.</p><h3>Scenarios</h3>${onlyList('scenario')}<h3>Clauses</h3>${onlyList('clause')}`,
    '<h2>Clauses</h2><p class="legend">Each clause\'s verdict in each implementation, and the outcomes of the scenarios charged to it.</p>',
    clauseTable,
  ].join('\n');
  return { title: 'Conformance matrix', body };
}

export function scenarioLink(site: SiteData, from: string, id: string, name: string, linker: Linker): string {
  const doc = site.scenarioOf.get(id);
  const target = doc ? paths.feature(doc.uri, Number(id.split(':').pop())) : undefined;
  return `${target ? a(from, target, linker.prose(name, from)) : linker.prose(name, from)}<br><span class="muted">${esc(id)}</span>`;
}
