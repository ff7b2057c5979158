/**
 * reports/report.html: one self-contained page (no script, no external
 * asset) generated from conformance.json. It leads with the verdict — who
 * was tested, whether the run matches its expectations — then what decides
 * the exit status (the outcomes that differ from the expectations, each with
 * what was observed), then the failing clauses (paraphrase, operation,
 * expected, observed; identical causes said once with a count, every
 * scenario reachable), the errored scenarios grouped by fault with the
 * implementation's last stderr lines, the expectations by class, per-area
 * bars, the skipped scenarios grouped by what would unlock them, and every
 * scenario. A "failures only" switch (CSS, no script) hides what passed.
 * Cucumber's own HTML (conformance.html) is linked only when the run wrote it.
 */
import { CLASS_WORDS, type ExpectationClass } from './expectations';
import { groupByCause, overruledNote, skippedGroups, varyingNote, type ClauseEntry, type ConformanceReport, type ScenarioEntry } from './report';

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
pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px;background:#f4f4f4;padding:8px;border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}
section{background:#fff;border:1px solid #ddd;border-radius:8px;padding:12px 16px;margin-top:16px}
h2{font-size:19px;margin:4px 0 10px}
.clause{border-left:4px solid #b3261e;padding:6px 12px;margin:10px 0;background:#fff7f6}
.clause.expected{border-color:#a0a0a0;background:#f6f6f6}
.obs{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;font-size:14px;margin:6px 0 10px}
.obs b{color:#555}
.bad{color:#b3261e;font-weight:700}
.cls{display:inline-block;font-size:12px;border:1px solid #999;border-radius:9px;padding:0 6px;margin-right:4px;color:#333;background:#fff}
.bar{display:flex;height:14px;border-radius:3px;overflow:hidden;background:#eee;min-width:200px}
.bar span{display:block}.p{background:#2e9e4f}.f{background:#c62828}.s{background:#b0bec5}.e{background:#ef6c00}
table{border-collapse:collapse;width:100%}td,th{padding:4px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
details>summary{cursor:pointer;color:#1a4f9c}
.muted{color:#666}
#failures-only:checked ~ main .ok,.fo-on,#failures-only:checked ~ main .fo-off{display:none}
#failures-only:checked ~ main .fo-on{display:inline}
`;

export interface HtmlLinks {
  /** Cucumber's own page (every step), relative to report.html; only when the run wrote it. */
  cucumberHtml?: string;
}

export function renderHtml(r: ConformanceReport, links: HtmlLinks = {}): string {
  const t = r.totals;
  const impl = r.implementation;
  const ok = r.verdict.matchesExpectations;
  const titles = new Map(r.documents.map((d) => [d.document, d.title]));
  const byId = new Map(r.scenarios.map((s) => [s.id, s]));
  const ref = scenarioRef(links);
  const violated = r.clauses.filter((c) => c.verdict === 'violated').sort((a, b) => Number(a.expected ?? false) - Number(b.expected ?? false));
  const out: string[] = [];
  out.push(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(`${ok ? 'PASS' : 'FAIL'}: ${impl.name} ${impl.version} — PMIx dynamic-resource conformance`)}</title><style>${STYLE}</style></head><body>`);
  // The switch precedes <main> so that CSS alone can hide what passed (#failures-only:checked ~ main .ok).
  out.push('<input type="checkbox" id="failures-only" hidden>');
  out.push('<main>');
  out.push(
    `<div class="verdict ${ok ? 'pass' : 'fail'}" id="verdict"><h1>${ok ? 'PASS' : 'FAIL'}: ${esc(impl.declared ? `${impl.name} ${impl.version}` : 'the implementation never described itself')}</h1>` +
      `<p>${ok ? 'Every outcome matches the expectations.' : esc(r.verdict.problems.join('; '))}</p>` +
      `<p>${t.passed} passed, ${t.failed} failed, ${t.errored} errored, ${t.skipped} skipped of ${t.scenarios} scenarios; ${violated.length} clause(s) violated.</p></div>`,
  );
  out.push(`<p><label for="failures-only" style="cursor:pointer"><span class="fo-off">☐</span><span class="fo-on">☑</span> <u>failures only</u></label> <span class="muted">(hides what passed or was skipped)</span></p>`);
  out.push('<dl class="facts">');
  out.push(`<dt>implementation</dt><dd>${esc(impl.name)} ${esc(impl.version)}${impl.adapter ? ` (adapter <code>${esc(impl.adapter)}</code>)` : ''}</dd>`);
  out.push(`<dt>capabilities</dt><dd>${impl.capabilities.length ? impl.capabilities.map((c) => `<code>${esc(c)}</code>`).join(' ') : 'none declared'}</dd>`);
  const readings = (impl as { readings?: Record<string, string> }).readings;
  out.push(`<dt>readings</dt><dd>${readings && Object.keys(readings).length ? Object.entries(readings).map(([k, v]) => `<code>${esc(k)}=${esc(v)}</code>`).join(' ') : 'none declared'}</dd>`);
  for (const u of impl.undeclaredReadings ?? []) {
    out.push(`<dt>reading not declared</dt><dd class="undeclared-reading"><code>${esc(u.name)}</code> (${esc(u.question)}): ${u.skipped} scenario(s) that hold under one value only were skipped; what holds under every value ran</dd>`);
  }
  const varying = varyingNote(r);
  const classes = r.expectations.classes ? Object.entries(r.expectations.classes).map(([k, n]) => `${n} ${k}`).join(', ') : '';
  out.push(`<dt>expectations</dt><dd>${r.expectations.file ? `<code>${esc(r.expectations.file)}</code> (${r.expectations.entries} listed${classes ? `: ${esc(classes)}` : ''}${varying ? `; ${esc(varying)}` : ''})` : 'none: every scenario must pass or be skipped'}</dd>`);
  out.push(`<dt>run</dt><dd>${esc(r.run.startedAt ?? '?')}${r.run.durationMs !== undefined ? `, ${(r.run.durationMs / 1000).toFixed(1)} s` : ''}${r.run.complete ? '' : ' <b>(interrupted)</b>'}; suite ${esc(r.run.suiteVersion)}</dd>`);
  if (r.run.stoppedEarly) out.push(`<dt>stopped early</dt><dd class="bad">${esc(r.run.stoppedEarly)}</dd>`);
  if (r.run.processesStarted !== undefined) out.push(`<dt>processes</dt><dd>${r.run.processesStarted} implementation process(es) started (${r.run.processesStarted - 1} restart(s) after faults)</dd>`);
  if (links.cucumberHtml) out.push(`<dt>every step</dt><dd><a href="${esc(links.cucumberHtml)}">cucumber's report</a> (<a href="${esc(`${links.cucumberHtml}?hide=passed&hide=skipped`)}">failures only</a>)</dd>`);
  out.push('</dl>');

  // What decides the exit status comes first.
  if (!ok) {
    out.push(`<section id="mismatches"><h2>What makes the run fail (${r.verdict.unexpected.length + r.verdict.invalidExpectations.length + (r.run.stoppedEarly ? 1 : 0) + (r.run.complete ? 0 : 1)})</h2>`);
    out.push('<p class="muted">These decide the exit status: each outcome here differs from the expectations.</p>');
    if (r.run.stoppedEarly) out.push(`<p class="bad">The run stopped early: ${esc(r.run.stoppedEarly)}.</p>`);
    if (!r.run.complete) out.push('<p class="bad">The run did not finish: cucumber was interrupted or crashed.</p>');
    for (const u of r.verdict.unexpected) {
      const s = byId.get(u.id);
      out.push(`<div class="clause"><span class="bad">${esc(u.match.replace(/-/g, ' ').toUpperCase())}</span> ${ref(u.id, u.name)} ${esc(u.name)}`);
      out.push(`<div class="obs"><b>outcome</b><span>${esc(u.outcome)}</span><b>expected</b><span>${esc(u.expected)}${u.reason ? ` — listed as ${classBadge(u.class)}${esc(u.reason)}` : ''}</span>`);
      if (s) out.push(...observation(s));
      out.push('</div></div>');
    }
    if (r.verdict.invalidExpectations.length > 0) {
      out.push('<table>');
      for (const i of r.verdict.invalidExpectations) out.push(`<tr><td><code>${esc(i.id)}</code></td><td>invalid expectation: ${esc(i.problem)}</td></tr>`);
      out.push('</table>');
    }
    out.push('</section>');
  }

  out.push(`<section id="failing"><h2>Failing clauses (${violated.length})</h2>`);
  if (violated.length === 0) out.push('<p>None.</p>');
  for (const c of violated) out.push(clauseHtml(c, byId, titles.get(c.document) ?? c.document, ref));
  out.push('</section>');

  const errored = r.scenarios.filter((s) => s.outcome === 'errored');
  if (errored.length > 0) {
    out.push(`<section id="errored"><h2>Errored (${errored.length}): could not be judged</h2>`);
    // One fault often takes many scenarios down the same way: said once, with the count and every scenario.
    for (const g of groupByCause(errored)) {
      const unexpected = g.scenarios.filter((s) => s.match.startsWith('unexpected')).length;
      out.push(`<div class="clause${unexpected === 0 ? ' expected' : ''}"><b>${g.scenarios.length === 1 ? 'One scenario' : `${g.scenarios.length} scenarios`}</b>${g.kind ? ` <span class="muted">[${esc(g.kind)}]</span>` : ''}${unexpected ? ` <span class="bad">(${unexpected} unexpected)</span>` : ''}`);
      out.push(`<pre>${esc(g.cause)}</pre>`);
      out.push(scenarioList(g.scenarios, ref));
      out.push('</div>');
    }
    out.push('</section>');
  }

  if (r.expectations.classes) {
    const listed = r.scenarios.filter((s) => s.expectation);
    out.push(`<section id="expectations"><h2>Listed in the expectations (${r.expectations.entries}), by class</h2><table><tr><th>class</th><th>entries</th><th>meaning</th></tr>`);
    for (const [k, n] of Object.entries(r.expectations.classes)) out.push(`<tr><td>${classBadge(k)}</td><td>${n}</td><td class="muted">${esc(CLASS_WORDS[k as ExpectationClass | 'unclassified'] ?? '')}</td></tr>`);
    out.push('</table>');
    if ((r.expectations.classesInferred ?? 0) > 0) out.push(`<p class="muted">${r.expectations.classesInferred} of these entries give no <code>class</code>: it was read from the first words of the reason.</p>`);
    out.push(`<details><summary>the ${listed.length} listed scenario(s) of this run, with class, reason and evidence</summary><table>`);
    for (const s of listed) {
      const x = s.expectation!;
      const ev = x.evidence ? [x.evidence.spec && `spec ${x.evidence.spec}`, x.evidence.source?.length && `source ${x.evidence.source.join(', ')}`, x.evidence.interpretation && `interpretation ${x.evidence.interpretation}`].filter(Boolean).join('; ') : '';
      out.push(`<tr class="${s.outcome === 'passed' || s.outcome === 'skipped' ? 'ok' : ''}"><td>${ref(s.id, s.name)}<br><span class="muted">${esc(s.outcome)}</span></td><td>${classBadge(x.class)}${esc(x.reason)}${ev ? `<br><span class="muted">evidence: ${esc(ev)}</span>` : ''}</td></tr>`);
    }
    out.push('</table></details></section>');
  }

  out.push('<section id="areas" class="ok"><h2>By area</h2><table>');
  for (const a of r.areas) {
    const n = a.passed + a.failed + a.skipped + a.errored || 1;
    const w = (k: number) => `${((100 * k) / n).toFixed(1)}%`;
    out.push(`<tr><td>${esc(a.area)}</td><td><div class="bar" title="${a.passed} passed, ${a.failed} failed, ${a.errored} errored, ${a.skipped} skipped"><span class="p" style="width:${w(a.passed)}"></span><span class="f" style="width:${w(a.failed)}"></span><span class="e" style="width:${w(a.errored)}"></span><span class="s" style="width:${w(a.skipped)}"></span></div></td><td class="muted">${a.passed}/${n} passed</td></tr>`);
  }
  out.push('</table></section>');

  const skipped = skippedGroups(r);
  if (skipped.total > 0) {
    out.push(`<section id="skipped" class="ok"><h2>Skipped (${skipped.total}): would run with</h2><table>`);
    for (const [k, n] of skipped.groups) out.push(`<tr><td>${k.split(' + ').map((c) => `<code>${esc(c)}</code>`).join(' + ')}</td><td>${n}</td></tr>`);
    out.push('</table></section>');
  }

  out.push('<section id="documents" class="ok"><h2>Clauses per document</h2><table><tr><th>document</th><th>conforms</th><th>violated</th><th>errored</th><th>not claimed</th><th>not run</th></tr>');
  for (const d of r.documents) {
    const v = d.verdicts;
    const overruled = r.clauses.filter((c) => c.document === d.document && c.verdict === 'not-run' && c.overruledBy).length;
    out.push(`<tr><td>${esc(d.title)} <span class="muted">(${esc(d.prefix)})</span></td><td>${v.conforms}</td><td>${v.violated}</td><td>${v.errored}</td><td>${v['not-claimed']}</td><td>${v['not-run']}${overruled ? ` <span class="muted">(${overruled} overruled)</span>` : ''}</td></tr>`);
  }
  out.push('</table>');
  const overruled = overruledNote(r);
  if (overruled) out.push(`<p class="muted">${esc(overruled)}</p>`);
  out.push('</section>');

  out.push(`<section id="scenarios"><h2>Every scenario (${r.scenarios.length})</h2><details><summary>show the table (with "failures only", just the failed and errored ones)</summary><table><tr><th>scenario</th><th>outcome</th><th>against the expectations</th></tr>`);
  for (const s of r.scenarios) {
    const fine = s.outcome === 'passed' || s.outcome === 'skipped';
    out.push(`<tr class="${fine ? 'ok' : ''}"><td>${ref(s.id, s.name)} ${esc(s.name)}</td><td>${esc(s.outcome)}</td><td${s.match.startsWith('unexpected') ? ' class="bad"' : ''}>${esc(s.match)}</td></tr>`);
  }
  out.push('</table></details></section>');
  out.push('</main></body></html>\n');
  return out.join('\n');
}

/** A scenario id, linked to its scenario in cucumber's page (its search) when that page was written; plain otherwise. */
function scenarioRef(links: HtmlLinks): (id: string, name: string) => string {
  return (id, name) => (links.cucumberHtml ? `<a href="${esc(`${links.cucumberHtml}?query=${encodeURIComponent(name)}`)}" title="this scenario's steps in cucumber's report"><code>${esc(id)}</code></a>` : `<code>${esc(id)}</code>`);
}

const classBadge = (c: string | undefined) => `<span class="cls">${esc(c ?? 'unclassified')}</span>`;

/** operation / expected / observed, or the whole message (a fault: with the implementation's last stderr lines). */
function observation(s: ScenarioEntry): string[] {
  const parts: string[] = [];
  if (s.failure?.operation) parts.push(`<b>operation</b><span>${esc(s.failure.operation)}</span>`);
  if (s.failure?.expected) parts.push(`<b>wanted</b><span>${esc(s.failure.expected)}</span>`);
  if (s.failure?.observed) parts.push(`<b>observed</b><span>${esc(s.failure.observed)}</span>`);
  if (!s.failure && s.message) parts.push(`<b>message</b><pre>${esc(s.message)}</pre>`);
  return parts;
}

/** Scenario lines; past three, the rest behind a <details> so that every one is reachable. */
function scenarioList(list: readonly ScenarioEntry[], ref: (id: string, name: string) => string): string {
  const line = (s: ScenarioEntry) => `<li>${ref(s.id, s.name)} ${esc(s.name)}${s.match.startsWith('unexpected') ? ` <span class="bad">${esc(s.match.replace(/-/g, ' ').toUpperCase())}</span>` : s.expectation ? ` <span class="muted">— ${classBadge(s.expectation.class)}${esc(s.expectation.reason)}</span>` : ''}</li>`;
  const sorted = [...list].sort((a, b) => Number(!a.match.startsWith('unexpected')) - Number(!b.match.startsWith('unexpected')));
  const head = sorted.slice(0, 3).map(line).join('');
  const rest = sorted.slice(3);
  return `<ul>${head}</ul>${rest.length ? `<details><summary>… and ${rest.length} more scenario(s)</summary><ul>${rest.map(line).join('')}</ul></details>` : ''}`;
}

function clauseHtml(c: ClauseEntry, byId: Map<string, ScenarioEntry>, title: string, ref: (id: string, name: string) => string): string {
  const failed = c.scenarios.filter((s) => s.outcome === 'failed').map((s) => byId.get(s.id)).filter((s): s is ScenarioEntry => s !== undefined);
  const parts = [`<div class="clause${c.expected ? ' expected' : ''}"><b><code>${esc(c.id)}</code></b>${c.expected ? ' <span class="muted">(expected)</span>' : ''} — ${esc(c.paraphrase)}<div class="muted">${esc(title)}, ${esc(c.section)}</div>`];
  // Identical causes once, with their count; the groups holding an unexpected failure first.
  const groups = groupByCause(failed).sort((a, b) => Number(!a.scenarios.some((s) => s.match.startsWith('unexpected'))) - Number(!b.scenarios.some((s) => s.match.startsWith('unexpected'))));
  const card = (g: (typeof groups)[number]) => [`<div class="obs"><b>scenarios</b><span>${g.scenarios.length}${g.scenarios.length > 1 ? ' with this same observation' : ''}</span>`, ...observation(g.scenarios[0]), '</div>', scenarioList(g.scenarios, ref)].join('');
  for (const g of groups.slice(0, 3)) parts.push(card(g));
  const rest = groups.slice(3);
  if (rest.length > 0) {
    const n = rest.reduce((k, g) => k + g.scenarios.length, 0);
    parts.push(`<details><summary>… and ${n} more failing scenario(s) (${rest.length} other observation(s))</summary>${rest.map(card).join('')}</details>`);
  }
  parts.push('</div>');
  return parts.join('');
}
