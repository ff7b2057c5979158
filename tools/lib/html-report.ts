/**
 * reports/report.html: one self-contained page (no script, no external
 * asset) generated from conformance.json, that leads with the verdict — who
 * was tested, what it declared, whether the run matches its expectations —
 * then the failing clauses (paraphrase, operation, expected, observed), the
 * mismatches with the expectations, errored scenarios, per-area bars and the
 * skipped scenarios grouped by what would unlock them. Cucumber's own HTML
 * (conformance.html) stays as the step-by-step drill-down.
 */
import { skippedGroups, varyingNote, type ClauseEntry, type ConformanceReport, type ScenarioEntry } from './report';

const esc = (s: unknown) =>
  String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:1080px;margin:0 auto;padding:24px}
.verdict{padding:20px 24px;border-radius:10px;color:#fff;margin-bottom:16px}
.verdict.pass{background:#1e7d3a}.verdict.fail{background:#b3261e}
.verdict h1{margin:0 0 6px;font-size:26px}.verdict p{margin:2px 0}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;background:#fff;border:1px solid #ddd;border-radius:8px;padding:12px 16px}
.facts dt{font-weight:600}.facts dd{margin:0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;background:#f0f0f0;padding:0 3px;border-radius:3px}
section{background:#fff;border:1px solid #ddd;border-radius:8px;padding:12px 16px;margin-top:16px}
h2{font-size:19px;margin:4px 0 10px}
.clause{border-left:4px solid #b3261e;padding:6px 12px;margin:10px 0;background:#fff7f6}
.clause.expected{border-color:#a0a0a0;background:#f6f6f6}
.obs{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;font-size:14px;margin:6px 0 10px}
.obs b{color:#555}
.bar{display:flex;height:14px;border-radius:3px;overflow:hidden;background:#eee;min-width:200px}
.bar span{display:block}.p{background:#2e9e4f}.f{background:#c62828}.s{background:#b0bec5}.e{background:#ef6c00}
table{border-collapse:collapse;width:100%}td,th{padding:4px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
.muted{color:#666}
`;

export function renderHtml(r: ConformanceReport, links: { cucumberHtml?: string } = {}): string {
  const t = r.totals;
  const impl = r.implementation;
  const ok = r.verdict.matchesExpectations;
  const titles = new Map(r.documents.map((d) => [d.document, d.title]));
  const byId = new Map(r.scenarios.map((s) => [s.id, s]));
  const violated = r.clauses.filter((c) => c.verdict === 'violated').sort((a, b) => Number(a.expected ?? false) - Number(b.expected ?? false));
  const out: string[] = [];
  out.push(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(`${ok ? 'PASS' : 'FAIL'}: ${impl.name} ${impl.version} — PMIx dynamic-resource conformance`)}</title><style>${STYLE}</style></head><body><main>`);
  out.push(
    `<div class="verdict ${ok ? 'pass' : 'fail'}" id="verdict"><h1>${ok ? 'PASS' : 'FAIL'}: ${esc(impl.name)} ${esc(impl.version)}</h1>` +
      `<p>${ok ? 'Every outcome matches the expectations.' : esc(r.verdict.problems.join('; '))}</p>` +
      `<p>${t.passed} passed, ${t.failed} failed, ${t.errored} errored, ${t.skipped} skipped of ${t.scenarios} scenarios; ${violated.length} clause(s) violated.</p></div>`,
  );
  out.push('<dl class="facts">');
  out.push(`<dt>implementation</dt><dd>${esc(impl.name)} ${esc(impl.version)}${impl.adapter ? ` (adapter <code>${esc(impl.adapter)}</code>)` : ''}</dd>`);
  out.push(`<dt>capabilities</dt><dd>${impl.capabilities.length ? impl.capabilities.map((c) => `<code>${esc(c)}</code>`).join(' ') : 'none declared'}</dd>`);
  const readings = (impl as { readings?: Record<string, string> }).readings;
  out.push(`<dt>readings</dt><dd>${readings && Object.keys(readings).length ? Object.entries(readings).map(([k, v]) => `<code>${esc(k)}=${esc(v)}</code>`).join(' ') : 'none declared'}</dd>`);
  const varying = varyingNote(r);
  out.push(`<dt>expectations</dt><dd>${r.expectations.file ? `<code>${esc(r.expectations.file)}</code> (${r.expectations.entries} listed${varying ? `; ${esc(varying)}` : ''})` : 'none: every scenario must pass or be skipped'}</dd>`);
  out.push(`<dt>run</dt><dd>${esc(r.run.startedAt ?? '?')}${r.run.durationMs !== undefined ? `, ${(r.run.durationMs / 1000).toFixed(1)} s` : ''}${r.run.complete ? '' : ' <b>(interrupted)</b>'}; suite ${esc(r.run.suiteVersion)}</dd>`);
  if (r.run.processesStarted !== undefined) out.push(`<dt>processes</dt><dd>${r.run.processesStarted} implementation process(es) started (${r.run.processesStarted - 1} restart(s) after faults)</dd>`);
  if (links.cucumberHtml) out.push(`<dt>every step</dt><dd><a href="${esc(links.cucumberHtml)}">cucumber's report</a> (use its filter to hide the passed scenarios)</dd>`);
  out.push('</dl>');

  out.push(`<section id="failing"><h2>Failing clauses (${violated.length})</h2>`);
  if (violated.length === 0) out.push('<p>None.</p>');
  for (const c of violated) out.push(clauseHtml(c, byId, titles.get(c.document) ?? c.document));
  out.push('</section>');

  if (r.verdict.unexpected.length > 0 || r.verdict.invalidExpectations.length > 0) {
    out.push(`<section id="mismatches"><h2>Against the expectations</h2><table><tr><th>scenario</th><th>outcome</th><th>expected</th></tr>`);
    for (const u of r.verdict.unexpected) out.push(`<tr><td><code>${esc(u.id)}</code> ${esc(u.name)}</td><td>${esc(u.outcome)}</td><td>${esc(u.expected)}${u.reason ? `: ${esc(u.reason)}` : ''}</td></tr>`);
    for (const i of r.verdict.invalidExpectations) out.push(`<tr><td><code>${esc(i.id)}</code></td><td colspan="2">invalid expectation: ${esc(i.problem)}</td></tr>`);
    out.push('</table></section>');
  }

  const errored = r.scenarios.filter((s) => s.outcome === 'errored');
  if (errored.length > 0) {
    out.push(`<section id="errored"><h2>Errored (${errored.length}): could not be judged</h2><table>`);
    for (const s of errored.slice(0, 50)) out.push(`<tr><td><code>${esc(s.id)}</code> ${esc(s.name)}</td><td class="muted">${esc((s.message ?? '').split('\n')[0])}</td></tr>`);
    if (errored.length > 50) out.push(`<tr><td colspan="2">… and ${errored.length - 50} more (conformance.json)</td></tr>`);
    out.push('</table></section>');
  }

  out.push('<section id="areas"><h2>By area</h2><table>');
  for (const a of r.areas) {
    const n = a.passed + a.failed + a.skipped + a.errored || 1;
    const w = (k: number) => `${((100 * k) / n).toFixed(1)}%`;
    out.push(`<tr><td>${esc(a.area)}</td><td><div class="bar" title="${a.passed} passed, ${a.failed} failed, ${a.errored} errored, ${a.skipped} skipped"><span class="p" style="width:${w(a.passed)}"></span><span class="f" style="width:${w(a.failed)}"></span><span class="e" style="width:${w(a.errored)}"></span><span class="s" style="width:${w(a.skipped)}"></span></div></td><td class="muted">${a.passed}/${n} passed</td></tr>`);
  }
  out.push('</table></section>');

  const skipped = skippedGroups(r);
  if (skipped.total > 0) {
    out.push(`<section id="skipped"><h2>Skipped (${skipped.total}): would run with</h2><table>`);
    for (const [k, n] of skipped.groups) out.push(`<tr><td>${k.split(' + ').map((c) => `<code>${esc(c)}</code>`).join(' + ')}</td><td>${n}</td></tr>`);
    out.push('</table></section>');
  }

  out.push('<section id="documents"><h2>Clauses per document</h2><table><tr><th>document</th><th>conforms</th><th>violated</th><th>errored</th><th>not claimed</th><th>not run</th></tr>');
  for (const d of r.documents) {
    const v = d.verdicts;
    out.push(`<tr><td>${esc(d.title)} <span class="muted">(${esc(d.prefix)})</span></td><td>${v.conforms}</td><td>${v.violated}</td><td>${v.errored}</td><td>${v['not-claimed']}</td><td>${v['not-run']}</td></tr>`);
  }
  out.push('</table></section></main></body></html>\n');
  return out.join('\n');
}

function clauseHtml(c: ClauseEntry, byId: Map<string, ScenarioEntry>, title: string): string {
  const failed = c.scenarios.filter((s) => s.outcome === 'failed');
  const parts = [`<div class="clause${c.expected ? ' expected' : ''}"><b><code>${esc(c.id)}</code></b>${c.expected ? ' <span class="muted">(expected)</span>' : ''} — ${esc(c.paraphrase)}<div class="muted">${esc(title)}, ${esc(c.section)}</div>`];
  for (const ref of failed.slice(0, 3)) {
    const s = byId.get(ref.id);
    if (!s) continue;
    parts.push(`<div class="obs"><b>scenario</b><span><code>${esc(s.id)}</code> ${esc(s.name)}</span>`);
    if (s.failure?.operation) parts.push(`<b>operation</b><span>${esc(s.failure.operation)}</span>`);
    if (s.failure?.expected) parts.push(`<b>expected</b><span>${esc(s.failure.expected)}</span>`);
    if (s.failure?.observed) parts.push(`<b>observed</b><span>${esc(s.failure.observed)}</span>`);
    if (!s.failure && s.message) parts.push(`<b>message</b><span>${esc(s.message.split('\n')[0])}</span>`);
    parts.push('</div>');
  }
  if (failed.length > 3) parts.push(`<div class="muted">… and ${failed.length - 3} more failing scenario(s)</div>`);
  parts.push('</div>');
  return parts.join('');
}
