/**
 * reports/summary.md: the conformance report for people. First whether the
 * run matched its expectations and why not, then the outcomes per spec
 * area, then each failing clause with its paraphrase and what was observed.
 */
import { CLASS_WORDS, type ExpectationClass, type Match } from './expectations';
import { groupByCause, overruledNote, skippedGroups, varyingNote, type ClauseEntry, type ConformanceReport, type ScenarioEntry } from './report';

const MATCH_WORDS: Record<Match, string> = {
  'as-expected': 'as expected',
  'expected-failure': 'expected failure',
  'expected-error': 'expected error',
  'expected-variation': 'known to vary, took a listed outcome',
  'expected-but-skipped': 'expected to fail, skipped',
  'unexpected-failure': 'UNEXPECTED FAILURE',
  'unexpected-error': 'UNEXPECTED ERROR',
  'unexpected-pass': 'UNEXPECTED PASS',
  'unexpected-outcome': 'UNEXPECTED OUTCOME',
};

/** Markdown table cells: one line, no pipes. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
/** Inline code that survives backticks in the text. */
const code = (s: string) => (s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``);
const quote = (s: string) => s.split('\n').map((l) => `    ${l}`).join('\n');

/** How many failing scenarios a clause shows in the summary (all are in conformance.json). */
const SCENARIOS_PER_CLAUSE = 3;

export function renderSummary(r: ConformanceReport): string {
  const out: string[] = [];
  const impl = r.implementation;
  out.push(`# Conformance: ${impl.declared ? `${impl.name} ${impl.version}` : '(implementation unknown: it never described itself)'}`, '');
  out.push(r.verdict.matchesExpectations ? '**Result: every outcome matches the expectations.**' : `**Result: FAILS: ${r.verdict.problems.join('; ')}.**`, '');
  const varying = varyingNote(r);
  const classes = classLine(r);
  const exp = r.expectations.file ? `${code(r.expectations.file)} (${r.expectations.entries} listed${classes ? `: ${classes}` : ''}${varying ? `; ${varying}` : ''})` : 'none (every scenario is expected to pass or be skipped)';
  out.push(
    `- implementation: ${impl.declared ? `${impl.name} ${impl.version}` : 'unknown (it never described itself)'}${impl.adapter ? `, adapter ${code(impl.adapter)}` : ''}`,
    `- declared capabilities: ${impl.capabilities.length ? impl.capabilities.map(code).join(', ') : 'none'}`,
    `- declared readings (features/INTERPRETATIONS.md): ${impl.readings && Object.keys(impl.readings).length ? Object.entries(impl.readings).map(([k, v]) => `${code(k)}=${code(v)}`).join(', ') : 'none'}`,
    ...(impl.undeclaredReadings ?? []).map((u) => `  - reading ${code(u.name)} not declared (${u.question}): ${u.skipped} scenario(s) that hold under one value only were skipped; what holds under every value ran`),
    `- expectations: ${exp}`,
    ...(r.run.processesStarted !== undefined ? [`- implementation processes started: ${r.run.processesStarted} (${r.run.processesStarted - 1} restart(s) after faults)`] : []),
    `- run: ${r.run.startedAt ?? '?'}${r.run.durationMs !== undefined ? `, ${(r.run.durationMs / 1000).toFixed(1)} s` : ''}${r.run.complete ? '' : ' (INTERRUPTED)'}; suite ${r.run.suiteVersion}, cucumber ${r.run.cucumber ?? '?'}, ${r.run.runtime ?? ''}`,
    '',
  );

  const t = r.totals;
  out.push('## Outcomes', '', '| | passed | failed | skipped | errored | scenarios |', '|---|---:|---:|---:|---:|---:|');
  for (const a of r.areas) out.push(`| ${cell(a.area)} | ${a.passed} | ${a.failed} | ${a.skipped} | ${a.errored} | ${a.passed + a.failed + a.skipped + a.errored} |`);
  out.push(`| **all** | **${t.passed}** | **${t.failed}** | **${t.skipped}** | **${t.errored}** | **${t.scenarios}** |`, '');
  out.push('*failed*: the implementation broke a clause. *errored*: it crashed, hung or answered garbage. *skipped*: it does not declare a capability the scenario needs.', '');

  if (!r.verdict.matchesExpectations) {
    out.push('## What makes the run fail', '');
    if (r.run.stoppedEarly) out.push(`- the run stopped early: ${r.run.stoppedEarly}`);
    for (const u of r.verdict.unexpected) {
      out.push(`- ${MATCH_WORDS[u.match]}: ${code(u.id)} ${u.name} (outcome ${u.outcome}, expected ${u.expected}${u.reason ? `; listed as ${u.class ?? 'unclassified'}: ${u.reason}` : ''})`);
      if (u.observed) out.push(`  - observed: ${u.observed.split('\n').slice(0, 6).join(' / ')}`);
    }
    for (const i of r.verdict.invalidExpectations) out.push(`- invalid expectation ${code(i.id)}: ${i.problem}`);
    if (!r.run.complete) out.push('- the run did not finish');
    out.push('');
  }

  const byId = new Map(r.scenarios.map((s) => [s.id, s]));
  // The ones that fail the run first; registry order otherwise.
  const violated = r.clauses.filter((c) => c.verdict === 'violated').sort((a, b) => Number(a.expected ?? false) - Number(b.expected ?? false));
  out.push(`## Failing clauses (${violated.length})`, '');
  if (violated.length === 0) out.push('None.', '');
  const titles = new Map(r.documents.map((d) => [d.document, d.title]));
  for (const c of violated) out.push(...clauseSection(c, byId, titles.get(c.document) ?? c.document));

  const legend = classLegend(r);
  if (legend.length > 0) {
    out.push(`## Listed in the expectations, by class`, '', '| class | entries | meaning |', '|---|---:|---|');
    for (const [k, n, words] of legend) out.push(`| ${code(k)} | ${n} | ${cell(words)} |`);
    out.push('', "Each entry's class and reason are given where its scenario appears above and below.", '');
  }

  const errored = r.scenarios.filter((s) => s.outcome === 'errored');
  if (errored.length > 0) {
    out.push(`## Errored scenarios (${errored.length}): the implementation could not be judged`, '');
    // One fault often takes many scenarios down the same way: say it once (process ids aside).
    for (const g of groupByCause(errored)) {
      out.push(`${g.scenarios.length === 1 ? 'One scenario' : `${g.scenarios.length} scenarios`}${g.kind ? ` [${g.kind}]` : ''}:`, '');
      if (g.cause) out.push(quote(g.cause), '');
      for (const s of g.scenarios) out.push(`- ${code(s.id)} ${s.name}: ${MATCH_WORDS[s.match]}${s.expectation ? ` (${s.expectation.class ?? 'unclassified'}: ${s.expectation.reason})` : ''}`);
      out.push('');
    }
  }

  const skipped = skippedGroups(r);
  if (skipped.total > 0) {
    out.push(`## Skipped scenarios (${skipped.total}): not claimed`, '', '| would run with (capabilities or readings not declared) | scenarios |', '|---|---:|');
    for (const [k, n] of skipped.groups) out.push(`| ${code(k)} | ${n} |`);
    out.push('');
  }

  out.push('## Clauses per document', '', '| document | conforms | violated | errored | not claimed | not run | not testable |', '|---|---:|---:|---:|---:|---:|---:|');
  for (const d of r.documents) {
    const v = d.verdicts;
    out.push(`| ${cell(d.title)} (${d.prefix}) | ${v.conforms} | ${v.violated} | ${v.errored} | ${v['not-claimed']} | ${v['not-run']} | ${v['not-testable']} |`);
  }
  const overruled = overruledNote(r);
  if (overruled) out.push('', overruled);
  out.push('', `Details: \`conformance.json\` (every clause and scenario), \`conformance.html\` (every step).`, '');
  return out.join('\n');
}

const isOk = (s: ScenarioEntry | undefined) => s === undefined || !s.match.startsWith('unexpected');

/** "109 listed: 102 divergence, 4 harness-limitation, 3 runtime-fault (classes read from the reasons' first words)". */
function classLine(r: ConformanceReport): string {
  const c = r.expectations.classes;
  if (!c) return '';
  const text = Object.entries(c).map(([k, n]) => `${n} ${k}`).join(', ');
  const inferred = r.expectations.classesInferred ?? 0;
  return `${text}${inferred > 0 ? ` (${inferred === r.expectations.entries ? 'every class' : `${inferred} of the classes`} read from the reasons' first words)` : ''}`;
}

/** The classes, with what each means, for the expectations section. */
export function classLegend(r: ConformanceReport): [string, number, string][] {
  return Object.entries(r.expectations.classes ?? {}).map(([k, n]) => [k, n, CLASS_WORDS[k as ExpectationClass | 'unclassified'] ?? '']);
}

function clauseSection(c: ClauseEntry, byId: Map<string, ScenarioEntry>, title: string): string[] {
  const out = [`### ${c.id}${c.expected ? ' (expected)' : ''}`, '', `*${title}*, ${c.section}, ${c.kind}: ${c.paraphrase}`, ''];
  // The ones that fail the run first.
  const failed = c.scenarios.filter((s) => s.outcome === 'failed').sort((a, b) => Number(isOk(byId.get(a.id))) - Number(isOk(byId.get(b.id))));
  // Enough to act on; the rest are named below, and in conformance.json.
  for (const ref of failed.slice(0, SCENARIOS_PER_CLAUSE)) {
    const s = byId.get(ref.id);
    if (!s) continue;
    out.push(`- ${code(s.id)} ${s.name} (${MATCH_WORDS[s.match]}${s.expectation ? `; ${s.expectation.class ?? 'unclassified'}: ${s.expectation.reason}` : ''})`);
    if (s.failure) {
      if (s.failure.operation) out.push(`  - operation: ${s.failure.operation}`);
      if (s.failure.expected) out.push(`  - expected: ${s.failure.expected}`);
      if (s.failure.observed) out.push(`  - observed: ${s.failure.observed.replace(/\n/g, ' / ')}`);
    } else if (s.message) {
      out.push('', quote(s.message), '');
    }
  }
  if (failed.length > SCENARIOS_PER_CLAUSE) {
    const rest = failed.slice(SCENARIOS_PER_CLAUSE).map((ref) => byId.get(ref.id)).filter((s): s is ScenarioEntry => s !== undefined);
    out.push(`- … and ${rest.length} more failing scenario(s): ${rest.map((s) => `${code(s.id)}${isOk(s) ? '' : ` (${MATCH_WORDS[s.match]})`}`).join(', ')}`);
  }
  out.push('');
  return out;
}
