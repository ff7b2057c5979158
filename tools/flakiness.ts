/**
 * Do several runs of one implementation agree? Reads N conformance reports
 * (reports/.../conformance.json) and lists every scenario whose outcome was
 * not the same in all of them, with its outcome and what was observed in
 * each run; prints each run's totals and how many scenarios agreed.
 *
 *   node -r ./tools/register.js tools/flakiness.ts run-1/conformance.json run-2/conformance.json ... [--markdown out.md]
 *
 * Informational: exits 0 whether or not the runs agree (2 if a file is
 * unreadable, or fewer than two are given).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readReport } from './compare-reports';
import type { ConformanceReport, ScenarioEntry } from './lib/report';
import { compareIds } from './lib/run';

export interface Disagreement {
  id: string;
  name: string;
  outcomes: string[];
  /** Per run: the message of a failed or errored outcome (first line), else ''. */
  observed: string[];
}

export interface Agreement {
  runs: { label: string; totals: Record<string, number>; durationMs?: number }[];
  scenarios: number;
  agreeing: number;
  disagreements: Disagreement[];
}

const firstLine = (s: ScenarioEntry | undefined) => (s && (s.outcome === 'failed' || s.outcome === 'errored') ? (s.failure?.observed ?? s.message ?? '').split('\n')[0].slice(0, 200) : '');

export function agreement(reports: ConformanceReport[], labels: string[]): Agreement {
  const byRun = reports.map((r) => new Map(r.scenarios.map((s) => [s.id, s])));
  const ids = [...new Set(reports.flatMap((r) => r.scenarios.map((s) => s.id)))].sort(compareIds);
  const disagreements: Disagreement[] = [];
  for (const id of ids) {
    const entries = byRun.map((m) => m.get(id));
    const outcomes = entries.map((e) => e?.outcome ?? 'absent');
    if (new Set(outcomes).size > 1) disagreements.push({ id, name: entries.find((e) => e)!.name, outcomes, observed: entries.map(firstLine) });
  }
  return {
    runs: reports.map((r, i) => {
      const totals: Record<string, number> = {};
      for (const s of r.scenarios) totals[s.outcome] = (totals[s.outcome] ?? 0) + 1;
      return { label: labels[i], totals, ...(r.run.durationMs !== undefined ? { durationMs: r.run.durationMs } : {}) };
    }),
    scenarios: ids.length,
    agreeing: ids.length - disagreements.length,
    disagreements,
  };
}

export function renderAgreement(a: Agreement): string {
  const out = [`# Agreement of ${a.runs.length} runs`, '', `${a.agreeing} of ${a.scenarios} scenarios had the same outcome in every run; ${a.disagreements.length} did not.`, '', '| run | passed | failed | skipped | errored | wall |', '|---|---|---|---|---|---|'];
  for (const r of a.runs) out.push(`| ${r.label} | ${r.totals.passed ?? 0} | ${r.totals.failed ?? 0} | ${r.totals.skipped ?? 0} | ${r.totals.errored ?? 0} | ${r.durationMs !== undefined ? `${Math.round(r.durationMs / 1000)} s` : '?'} |`);
  if (a.disagreements.length > 0) {
    out.push('', '## Scenarios whose outcome differed', '', `| scenario | ${a.runs.map((_, i) => `run ${i + 1}`).join(' | ')} |`, `|---|${a.runs.map(() => '---').join('|')}|`);
    for (const d of a.disagreements) out.push(`| ${d.id} ${d.name.replace(/\|/g, '\\|')} | ${d.outcomes.join(' | ')} |`);
    out.push('', '## What each run observed there (failed or errored runs)', '');
    for (const d of a.disagreements) {
      out.push(`- **${d.id}** ${d.name}`);
      d.observed.forEach((o, i) => o && out.push(`  - run ${i + 1} (${d.outcomes[i]}): ${o.replace(/\|/g, '\\|')}`));
    }
  }
  return `${out.join('\n')}\n`;
}

/** The report files and the --markdown output, from the command line. */
export function parseArgs(args: string[]): { files: string[]; markdown?: string } {
  const mdAt = args.indexOf('--markdown');
  const markdown = mdAt >= 0 ? args[mdAt + 1] : undefined;
  const files = args.filter((a, i) => a !== '--help' && (mdAt < 0 || (i !== mdAt && i !== mdAt + 1)));
  return { files, ...(markdown !== undefined ? { markdown } : {}) };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const { files, markdown } = parseArgs(args);
  if (files.length < 2 || args.includes('--help')) {
    console.error('usage: tools/flakiness.ts A/conformance.json B/conformance.json [...] [--markdown out.md]');
    process.exit(args.includes('--help') ? 0 : 2);
  }
  try {
    // A run is named by its folder (reports/prrte/run-3/conformance.json: run-3).
    const text = renderAgreement(agreement(files.map(readReport), files.map((f) => path.basename(path.dirname(path.resolve(f))))));
    if (markdown) fs.writeFileSync(markdown, text);
    console.log(text);
  } catch (e) {
    console.error(`flakiness: ${(e as Error).message}`);
    process.exit(2);
  }
}
