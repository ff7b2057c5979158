/**
 * Writes the conformance report from a finished run:
 *
 *   node -r ./tools/register.js tools/report.ts [--ndjson reports/conformance.ndjson] [--out reports] [--expect expectations/x.json]
 *
 * reports/conformance.json (schemas/reports/conformance-report.schema.json)
 * and reports/summary.md. Exit status 0 only when every outcome matches the
 * expectations (no expectations file: every scenario passed or was skipped).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadExpectations, NO_EXPECTATIONS } from './lib/expectations';
import { loadRegistry } from './lib/registry';
import { assertValidReport, buildReport, type ConformanceReport } from './lib/report';
import { readRun } from './lib/run';
import { loadScenarios } from './lib/scenarios';
import { renderHtml } from './lib/html-report';
import { renderSummary } from './lib/summary';

const ROOT = path.resolve(__dirname, '..');

export interface ReportOptions {
  ndjson: string;
  outDir: string;
  expect?: string;
  /** What the report names as its source (default: the ndjson path, relative to the current directory). */
  source?: string;
}

export interface Written {
  report: ConformanceReport;
  json: string;
  summary: string;
  html: string;
}

export function writeReports(o: ReportOptions): Written {
  if (!fs.existsSync(o.ndjson)) throw new Error(`no message stream at ${o.ndjson}: did the cucumber run start? (it is written by cucumber's message formatter)`);
  const expectations = o.expect ? loadExpectations(o.expect) : NO_EXPECTATIONS;
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const report = buildReport(readRun(o.ndjson), {
    registry: loadRegistry(ROOT),
    // Parsing every feature only serves to check the expectations' ids.
    suite: expectations.expected.length > 0 ? loadScenarios(ROOT) : [],
    expectations,
    expectationsFile: o.expect ? relative(o.expect) : null,
    source: o.source ?? relative(o.ndjson),
    suiteVersion: pkg.version,
  });
  assertValidReport(report);
  fs.mkdirSync(o.outDir, { recursive: true });
  const json = path.join(o.outDir, 'conformance.json');
  const summary = path.join(o.outDir, 'summary.md');
  const html = path.join(o.outDir, 'report.html');
  fs.writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(summary, renderSummary(report));
  // Link cucumber's page only when this run wrote it (tools/report.ts may be run on a bare message stream).
  const cucumberHtml = fs.existsSync(path.join(o.outDir, 'conformance.html')) ? 'conformance.html' : undefined;
  fs.writeFileSync(html, renderHtml(report, cucumberHtml ? { cucumberHtml } : {}));
  return { report, json, summary, html };
}

/** One paragraph for the terminal, after cucumber's own output. */
export function verdictText(w: Written): string {
  const { report: r } = w;
  const t = r.totals;
  const lines = [
    `conformance of ${r.implementation.name} ${r.implementation.version}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t.errored} errored (${t.scenarios} scenarios)`,
    `expectations: ${r.expectations.file ?? 'none'}${classText(r)}; clauses violated: ${r.clauses.filter((c) => c.verdict === 'violated').length}`,
  ];
  if (r.verdict.matchesExpectations) lines.push('RESULT: every outcome matches the expectations');
  else {
    lines.push(`RESULT: FAILS: ${r.verdict.problems.join('; ')}`);
    for (const u of r.verdict.unexpected.slice(0, 10)) {
      lines.push(`  ${u.match}: ${u.id} (${u.name})`);
      if (u.reason) lines.push(`    listed as ${u.class ?? 'unclassified'}: ${u.reason.length > 160 ? `${u.reason.slice(0, 157)}...` : u.reason}`);
      if (u.observed) lines.push(`    observed: ${u.observed.split('\n')[0].slice(0, 200)}`);
    }
    if (r.verdict.unexpected.length > 10) lines.push(`  … and ${r.verdict.unexpected.length - 10} more (see the summary)`);
    for (const i of r.verdict.invalidExpectations) lines.push(`  invalid expectation ${i.id}: ${i.problem}`);
  }
  if (t.scenarios > 0 && t.errored === t.scenarios) lines.push('every scenario errored: the harness itself is likely broken; diagnose it with `pmix-conformance smoke --command "<harness>"`');
  lines.push(`report: ${relative(w.html)} (open in a browser: verdict first), ${relative(w.summary)}, ${relative(w.json)}`);
  return lines.join('\n');
}

/** "(109 listed: 102 divergence, 4 harness-limitation, 3 runtime-fault; classes read from the reasons)" */
function classText(r: ConformanceReport): string {
  const c = r.expectations.classes;
  if (!c) return '';
  const inferred = r.expectations.classesInferred ?? 0;
  return ` (${r.expectations.entries} listed: ${Object.entries(c).map(([k, n]) => `${n} ${k}`).join(', ')}${inferred ? `; ${inferred} class(es) read from the reason's first words` : ''})`;
}

const relative = (p: string) => {
  const r = path.relative(process.cwd(), path.resolve(p));
  return r.startsWith('..') ? path.resolve(p) : r;
};

export function parseReportArgs(argv: string[]): ReportOptions {
  const o: ReportOptions = { ndjson: 'reports/conformance.ndjson', outDir: 'reports' };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return v;
    };
    switch (argv[i]) {
      case '--ndjson':
        o.ndjson = value();
        break;
      case '--out':
        o.outDir = value();
        break;
      case '--expect':
        o.expect = value();
        break;
      default:
        throw new Error(`unknown argument ${argv[i]} (usage: tools/report.ts [--ndjson file] [--out dir] [--expect file])`);
    }
  }
  if (!o.expect && process.env.PMIX_CONFORMANCE_EXPECT) o.expect = process.env.PMIX_CONFORMANCE_EXPECT;
  return o;
}

if (require.main === module) {
  try {
    const written = writeReports(parseReportArgs(process.argv.slice(2)));
    console.log(verdictText(written));
    process.exitCode = written.report.verdict.matchesExpectations ? 0 : 1;
  } catch (e) {
    console.error(`report: ${(e as Error).message}`);
    process.exitCode = 2;
  }
}
