/** A page per clause: what it says and where it comes from, its interpretation points, its scenarios as Gherkin, and each implementation's outcome. */
import type { Clause } from '../../lib/registry';
import { clauseOf } from '../analysis';
import { a, badge, esc, paths, table, type Linker } from '../html';
import type { SiteData } from '../load';
import { countsCell, outcomeDetail, scenarioGherkin } from './common';
import { UPSTREAM_BASE, UPSTREAM_COMMIT, UPSTREAM_DOCS } from '../upstream';


/** The link to the clause's source, when its document is an upstream one: to the line when the registry records one, else to the document. */
export function upstreamLink(c: Clause): string | undefined {
  if (!UPSTREAM_DOCS.has(c.document)) return undefined;
  const line = (c as Clause & { line?: unknown }).line;
  return `${UPSTREAM_BASE}${c.document}${typeof line === 'number' ? `?plain=1#L${line}` : ''}`;
}

export function clausePage(site: SiteData, c: Clause, linker: Linker): { title: string; body: string } {
  const from = paths.clause(c.id);
  const doc = site.registry.documents.find((d) => d.prefix === c.prefix);
  const up = upstreamLink(c);
  const source = `${esc(doc?.title ?? c.document)} — <code>${esc(c.document)}</code>, section “${esc(c.section)}”${(c as Clause & { line?: number }).line ? `, line ${esc((c as Clause & { line?: number }).line)}` : ''}${up ? ` — <a href="${esc(up)}" class="upstream">upstream at ${UPSTREAM_COMMIT}</a>` : ' <span class="muted">(not an upstream document: no link)</span>'}`;
  const ips = site.ipsOfClause.get(c.id) ?? [];
  const candidates = (c as Clause & { interpretations?: string[] }).interpretations ?? [];
  const kv: [string, string][] = [
    ['Clause', `<code>${esc(c.id)}</code>`],
    ['Says', linker.prose(c.text, from)],
    ['Kind', esc(c.kind) + (c.status ? ` (status <code>${esc(c.status)}</code>)` : '')],
    ['Source', source],
    ['Authority', esc(doc?.authority ?? '')],
  ];
  if (c.notTestable) kv.push(['Not testable', linker.prose(c.notTestable, from)]);
  if (c.overruledBy) kv.push(['Overruled by', linker.prose(c.overruledBy, from)]);
  kv.push(['Interpretation points', ips.length > 0 ? ips.map((ip) => `${a(from, paths.interpretations(ip), esc(ip), 'ip')} — ${esc(site.interpretations.entries.find((e) => e.id === ip)?.title ?? '')}`).join('<br>') : '<span class="muted">none</span>']);
  if (candidates.length > 0) kv.push(['Candidate interpretations', candidates.map((x) => `<code>${esc(x)}</code>`).join(', ') + ' <span class="muted">(clauses/CANDIDATE-INTERPRETATIONS.md)</span>']);

  const impls = site.implementations;
  const verdicts = table(
    ['Implementation', 'Verdict', 'Scenarios charged to it'],
    impls.map((i) => {
      const e = clauseOf(i, c.id);
      return [a(from, paths.impl(i.name), esc(i.latest.label)), e ? badge(e.verdict) + (e.expected ? ' <span class="muted">(expected)</span>' : '') : '<span class="muted">not in this report</span>', e ? countsCell(e.counts) : ''];
    }),
    'verdicts',
  );

  const scenarios = site.citing.get(c.id) ?? [];
  const sections = scenarios.map(({ doc: s, ids }) => {
    const rows = ids.flatMap((id) => {
      const row = s.examples.flatMap((e) => e.rows).find((r) => r.id === id);
      const name = impls.map((i) => i.latest.byId.get(id)?.name).find((n) => n !== undefined);
      const text = row ? (name ?? row.cells.join(' | ')) : 'the scenario';
      const head = `<td rowspan="${Math.max(impls.length, 1)}">${a(from, paths.feature(s.uri, row ? row.line : s.line), linker.prose(text, from))}<br><span class="muted">${esc(id)}</span></td>`;
      return impls.map((i, k) => `<tr data-scenario="${esc(id)}" data-impl="${esc(i.name)}">${k === 0 ? head : ''}<td>${esc(i.name)}</td><td>${outcomeDetail(i, id, from, linker)}</td></tr>`);
    });
    const outcomes = `<table class="outcomes"><thead><tr><th>${s.examples.length > 0 ? `Examples rows citing ${esc(c.id)}` : 'Scenario'}</th><th>Implementation</th><th>Outcome, expected vs observed, expectations</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
    return `<div class="scenario"><h3>${linker.prose(s.name, from)} <span class="muted">— ${a(from, paths.feature(s.uri, s.line), esc(`${s.uri}:${s.line}`))}</span></h3>${scenarioGherkin(s, from, linker)}${outcomes}</div>`;
  });

  const body = [
    `<table class="kv">${kv.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</table>`,
    '<h2>Verdicts</h2>',
    verdicts,
    `<h2>Scenarios citing it (${scenarios.length})</h2>`,
    scenarios.length > 0 ? sections.join('\n') : '<p class="muted">No scenario cites this clause.</p>',
  ].join('\n');
  return { title: c.id, body };
}
