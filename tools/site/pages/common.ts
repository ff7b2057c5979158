/** Pieces several pages share: outcome counts, Gherkin, an implementation's outcome of one scenario. */
import type { Counts } from '../../lib/report';
import type { ScenarioDoc, Step } from '../features';
import { a, badge, esc, paths, type Linker } from '../html';
import { matchFor, noteFor, type ExpectationNote, type Implementation } from '../load';
import { UPSTREAM_BASE, UPSTREAM_DOCS } from '../upstream';

/** passed / failed / skipped / errored, each with its number (zeros muted), and the numbers as data attributes. */
export function countsCell(c: Counts): string {
  const n = (cls: string, v: number, title: string) => `<span class="${v === 0 ? 'z' : cls}" title="${title}">${v}</span>`;
  return `<span class="counts" data-passed="${c.passed}" data-failed="${c.failed}" data-skipped="${c.skipped}" data-errored="${c.errored}">${n('p', c.passed, 'passed')}${n('f', c.failed, 'failed')}${n('s', c.skipped, 'skipped')}${n('e', c.errored, 'errored')}</span>`;
}

const LEGEND = 'Each cell: <span class="counts"><span class="p">passed</span> <span class="f">failed</span> <span class="s">skipped</span> <span class="e">errored</span></span> scenarios.';
export const COUNTS_LEGEND_PLAIN = `<p class="legend">${LEGEND}</p>`;
export const COUNTS_LEGEND = `<p class="legend">${LEGEND} <span class="only">only here</span>: fails in this implementation alone while another passes it.</p>`;

function stepHtml(s: Step, from: string, linker: Linker): string {
  let out = `<div class="step"><span class="kw">${esc(s.keyword)}</span> ${linker.prose(s.text, from)}</div>`;
  if (s.table) out += gherkinTable(s.table, from, linker);
  if (s.docString !== undefined) out += `<pre>${esc(s.docString)}</pre>`;
  return out;
}

export function gherkinTable(rows: string[][], from: string, linker: Linker): string {
  return `<table class="datatable">${rows.map((r) => `<tr>${r.map((c) => `<td>${linker.prose(c, from)}</td>`).join('')}</tr>`).join('')}</table>`;
}

export function stepsHtml(steps: Step[], from: string, linker: Linker): string {
  return steps.map((s) => stepHtml(s, from, linker)).join('');
}

/** Tags as links where they name a clause or an interpretation point. */
export function tagsHtml(tags: string[], from: string, linker: Linker): string {
  return tags
    .map((t) => {
      const [kind, value] = [t.slice(1, t.indexOf(':') > 0 ? t.indexOf(':') : undefined), t.includes(':') ? t.slice(t.indexOf(':') + 1) : ''];
      if (kind === 'clause') return `@clause:${a(from, paths.clause(value), esc(value), 'clause')}`;
      if (kind === 'interpretation') return `@interpretation:${linker.prose(value, from)}`;
      return esc(t);
    })
    .join(' ');
}

/**
 * A scenario rendered as Gherkin: tags, keyword and name, steps with their
 * tables, and Examples as HTML tables (with, per row, the outcome in each
 * implementation when `impls` is given).
 */
export function scenarioGherkin(s: ScenarioDoc, from: string, linker: Linker, impls: Implementation[] = [], anchors = false): string {
  let out = '<div class="gherkin">';
  if (s.tags.length > 0) out += `<div class="tag">${tagsHtml(s.tags, from, linker)}</div>`;
  out += `<div><span class="kw">${esc(s.keyword)}:</span> ${linker.prose(s.name, from)}</div>`;
  if (s.description) out += `<div class="prose muted">${linker.prose(s.description, from)}</div>`;
  out += stepsHtml(s.steps, from, linker);
  for (const e of s.examples) {
    if (e.tags.length > 0) out += `<div class="tag">${tagsHtml(e.tags, from, linker)}</div>`;
    out += `<div><span class="kw">Examples:</span> ${linker.prose(e.name, from)}</div>`;
    const head = [...e.header.map((h) => `<th>${esc(h)}</th>`), ...impls.map((i) => `<th class="impl">${esc(i.name)}</th>`)].join('');
    const rows = e.rows.map((r) => `<tr${anchors ? ` id="L${r.line}"` : ''}>${r.cells.map((c) => `<td>${linker.prose(c, from)}</td>`).join('')}${impls.map((i) => `<td>${outcomeBadge(i, r.id)}</td>`).join('')}</tr>`).join('');
    out += `<table class="examples"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
  }
  return `${out}</div>`;
}

export function outcomeBadge(i: Implementation, id: string): string {
  const s = i.latest.byId.get(id);
  return s ? badge(s.outcome) : '<span class="muted">not run</span>';
}

/** One implementation's outcome of one scenario, with expected vs observed and what the expectations say. */
export function outcomeDetail(i: Implementation, id: string, from: string, linker: Linker): string {
  const s = i.latest.byId.get(id);
  if (!s) return '<span class="muted">not run</span>';
  const parts = [badge(s.outcome)];
  const match = matchFor(i, s);
  if (match !== 'as-expected') parts.push(`<span class="muted">${esc(match)}</span>`);
  if (s.failure?.expected || s.failure?.observed) {
    if (s.failure.operation) parts.push(`<div><strong>operation</strong> ${linker.prose(s.failure.operation, from)}</div>`);
    parts.push(`<div><strong>expected</strong> <span class="msg">${linker.prose(s.failure.expected ?? '', from)}</span></div>`);
    parts.push(`<div><strong>observed</strong> <span class="msg">${linker.prose(s.failure.observed ?? '', from)}</span></div>`);
  } else if (s.message) parts.push(`<pre class="msg">${linker.prose(s.message, from)}</pre>`);
  if (s.skip) parts.push(`<div class="muted">${linker.prose(s.skip.reason, from)}</div>`);
  const note = noteFor(i, i.latest, id);
  if (note) parts.push(`<div class="note">${noteHtml(note, from, linker)}</div>`);
  return parts.join(' ');
}

/** An expectation: its class (marked when inferred from the reason), the outcome expected, the reason, the evidence. */
export function noteHtml(n: ExpectationNote, from: string, linker: Linker, withOutcome = true): string {
  const cls = n.class ? `<span class="cls" title="${n.classInferred ? 'class inferred from the reason' : 'class given by the entry'}">${esc(n.class)}${n.classInferred ? '?' : ''}</span>` : '';
  const ev = n.evidence;
  const evidence = ev
    ? `<div class="muted">evidence: ${[
        ev.spec ? `spec ${specLink(ev.spec)}` : '',
        ev.source?.length ? `source ${ev.source.map((x) => `<code>${esc(x)}</code>`).join(', ')}` : '',
        ev.interpretation ? linker.prose(ev.interpretation, from) : '',
      ]
        .filter(Boolean)
        .join('; ')}</div>`
    : '';
  return `${cls}${withOutcome ? `expected ${esc(n.outcome ?? 'failed')}: ` : ''}${linker.prose(n.reason, from)}${evidence}`;
}

/** "node-reservation-spec.rst:120-124": a link to those lines of the upstream document when it is one; else the text. */
export function specLink(spec: string): string {
  const m = /^(?:upstream\/)?([\w.-]+\.rst):(\d+)(?:-(\d+))?$/.exec(spec.trim());
  if (!m || !UPSTREAM_DOCS.has(m[1])) return `<code>${esc(spec)}</code>`;
  return `<a href="${esc(`${UPSTREAM_BASE}${m[1]}?plain=1#L${m[2]}${m[3] ? `-L${m[3]}` : ''}`)}" class="upstream">${esc(spec)}</a>`;
}
