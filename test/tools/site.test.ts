/**
 * pmix-conformance site: a site built from small synthetic runs (reports
 * built by tools/lib/report.ts over the real clause registry and two real
 * feature files, with outcomes chosen here) has its pages, the right counts
 * in the matrix, the "fails only here" list, escapes what it shows, links
 * nowhere outside except the upstream documents, and every link resolves.
 * When Chromium is installed, a headless Chromium renders the matrix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NO_EXPECTATIONS } from '../../tools/lib/expectations';
import type { Outcome } from '../../tools/lib/outcomes';
import { loadRegistry } from '../../tools/lib/registry';
import { assertValidReport, buildReport, type ConformanceReport } from '../../tools/lib/report';
import type { RunInfo, ScenarioRun } from '../../tools/lib/run';
import { loadScenarios, tagValues, type ScenarioInfo } from '../../tools/lib/scenarios';
import { buildSite, parseSiteArgs } from '../../tools/site/build';
import { UPSTREAM_BASE } from '../../tools/site/upstream';
import { paths } from '../../tools/site/html';

const ROOT = path.resolve(__dirname, '..', '..');
const FEATURES = ['features/reservation/allocation-routing.feature', 'features/lifecycle/timeout-warning.feature'];
const suite = loadScenarios(ROOT).filter((s) => FEATURES.includes(s.uri));
const registry = loadRegistry(ROOT);
const runnable = suite.filter((s) => tagValues(s.tags, 'needs').length === 0 && tagValues(s.tags, 'clause').length > 0);
// Three scenarios the synthetic runs disagree on, citing no clause in common (so each clause's verdict follows one of them).
const [X, Y, Z] = pickDistinct(runnable);
const HOSTILE = '<script>alert("x")</script> & \'quoted\'';

function pickDistinct(list: ScenarioInfo[]): ScenarioInfo[] {
  const out: ScenarioInfo[] = [];
  const used = new Set<string>();
  for (const s of list) {
    const cl = tagValues(s.tags, 'clause');
    if (cl.some((c) => used.has(c))) continue;
    cl.forEach((c) => used.add(c));
    out.push(s);
    if (out.length === 3) return out;
  }
  throw new Error('the two feature files no longer have three scenarios citing distinct clauses');
}

/** A run in which every scenario passes (or is skipped for a capability it needs), except those given. */
function report(name: string, version: string, outcomes: Map<string, Outcome>, start: number): ConformanceReport {
  const scenarios: ScenarioRun[] = suite.map((s) => {
    const needs = tagValues(s.tags, 'needs');
    const outcome = outcomes.get(s.id) ?? (needs.length > 0 ? 'skipped' : 'passed');
    const base = { id: s.id, uri: s.uri, name: s.name, tags: s.tags, outcome, durationMs: 3 };
    if (outcome === 'failed') return { ...base, exceptionType: 'ConformanceFailure', message: `observed ${HOSTILE}`, failure: { clauses: tagValues(s.tags, 'clause'), operation: 'allocate', expected: 'PMIX_ERR_NO_PERMISSIONS (-23)', observed: `PMIX_SUCCESS (0) ${HOSTILE}` } };
    if (outcome === 'errored') return { ...base, errorKind: 'implementation', exceptionType: 'ImplementationFault', message: 'the implementation exited with code 3' };
    if (outcome === 'skipped') return { ...base, skip: { reason: `${name} does not declare capability "${needs[0] ?? 'x'}"`, capability: needs[0], capabilities: needs } };
    return base;
  });
  const iso = (s: number) => new Date(Date.UTC(2026, 10, 1, 0, 0, s)).toISOString();
  const run: RunInfo = { implementation: { name, version, capabilities: ['PMIX_SPAWN_TARGET'], readings: { 'warning-request-id': 'creation' } }, complete: true, tool: {}, scenarios, startedAt: iso(start), finishedAt: iso(start + 5), durationMs: 5000 };
  const r = buildReport(run, { registry, suite, expectations: NO_EXPECTATIONS, expectationsFile: null, source: 'synthetic.ndjson', suiteVersion: '0.1.0', now: new Date(0) });
  assertValidReport(r);
  return r;
}

function writeRuns(dir: string) {
  const runs: [string, ConformanceReport][] = [
    ['alpha-1.json', report('alpha', '1.0', new Map([[Y.id, 'failed']]), 0)],
    ['beta.json', report('beta', '2.<0>', new Map([[Z.id, 'errored']]), 10)],
    ['alpha-2.json', report('alpha', '1.1', new Map([[Y.id, 'errored'], [X.id, 'failed']]), 20)],
    ['alpha-3.json', report('alpha', '1.2', new Map([[X.id, 'failed']]), 30)],
  ];
  // beta ran before an edit of the feature files: Z's id names another line now, and one scenario is gone.
  const beta = runs[1][1];
  beta.scenarios = beta.scenarios.map((s) => (s.id === Z.id ? { ...s, id: `${Z.uri}:9999${Z.id.split(':').length > 2 ? ':9998' : ''}` } : s));
  beta.scenarios.push({ ...beta.scenarios[0], id: 'features/gone.feature:3', name: 'a scenario since deleted' });
  assertValidReport(beta);
  for (const [f, r] of runs) fs.writeFileSync(path.join(dir, f), JSON.stringify(r));
  const expect = path.join(dir, 'alpha.expect.json');
  fs.writeFileSync(
    expect,
    JSON.stringify({
      implementation: 'alpha',
      expected: [
        { id: X.id, reason: `known: see IP-TARGET-UNKNOWN ${HOSTILE}`, class: 'divergence', evidence: { spec: 'node-reservation-spec.rst:120-124', source: ['src/alloc.c:42'] } },
        { id: Z.id, reason: 'alpha harness limitation: cannot observe it' },
      ],
    }),
  );
  return { files: runs.map(([f]) => path.join(dir, f)), expect };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-test-'));
const out = path.join(dir, 'site');
const { files, expect } = writeRuns(dir);
// alpha-1, beta, alpha-2, alpha-3: alpha's latest run is alpha-3 (X failed); beta errored on Z.
const built = buildSite({ out, runs: files, expect: new Map([['alpha', expect]]), now: new Date(0) });
const read = (rel: string) => fs.readFileSync(path.join(out, rel), 'utf8');

test('the site has its pages: index, features, interpretations, a page per clause, implementation, feature, and a diff per consecutive pair of runs', () => {
  for (const p of ['index.html', 'features.html', 'interpretations.html', 'impl/alpha.html', 'impl/beta.html', 'diff/alpha-1.html', 'diff/alpha-2.html', paths.clause(tagValues(X.tags, 'clause')[0]), paths.feature(FEATURES[0]), paths.feature(FEATURES[1])]) {
    assert.ok(fs.existsSync(path.join(out, p)), `${p} was not written`);
  }
  assert.ok(!fs.existsSync(path.join(out, 'diff/beta-1.html')), 'beta has one run: no diff');
  assert.equal(built.pages.filter((p) => p.startsWith('clause/')).length, [...registry.clauses.values()].filter((c) => !c.retired).length);
});

test('the matrix counts each implementation\'s latest run per area, and marks a failure no other implementation shares', () => {
  const html = read('index.html');
  const areaRow = (area: string) => new RegExp(`<tr data-area="${area}">(.*?)</tr>`).exec(html)?.[1] ?? '';
  const alpha = built.site.implementations.find((i) => i.name === 'alpha')!;
  assert.equal(alpha.runs.length, 3);
  const area = alpha.latest.byId.get(X.id)!.area;
  const expected = { passed: 0, failed: 0, skipped: 0, errored: 0 };
  for (const s of suite) {
    const r = alpha.latest.byId.get(s.id)!;
    if (r.area === area) expected[r.outcome] += 1;
  }
  const cells = [...areaRow(area).matchAll(/data-passed="(\d+)" data-failed="(\d+)" data-skipped="(\d+)" data-errored="(\d+)"/g)].map((m) => m.slice(1).map(Number));
  assert.equal(cells.length, 2, 'one cell per implementation');
  assert.deepEqual(cells[0], [expected.passed, expected.failed, expected.skipped, expected.errored]);
  assert.equal(expected.failed, 1);
  assert.match(areaRow(area), /1 only here/);
  // Fails only here: X in alpha (beta passes it), Z in beta (alpha passes it); Y fails nowhere now.
  const onlyScenarios = /<table class="only-here scenario">(.*?)<\/table>/s.exec(html)?.[1] ?? '';
  assert.match(onlyScenarios, new RegExp(X.id.replace(/[.]/g, '\\.')));
  assert.match(onlyScenarios, new RegExp(Z.id.replace(/[.]/g, '\\.')));
  assert.doesNotMatch(onlyScenarios, new RegExp(`${Y.id.replace(/[.]/g, '\\.')}<`));
  const onlyClauses = /<table class="only-here clause">(.*?)<\/table>/s.exec(html)?.[1] ?? '';
  for (const c of tagValues(X.tags, 'clause')) assert.match(onlyClauses, new RegExp(c.replace(/[.]/g, '\\.')));
  const clauseRow = new RegExp(`<tr data-clause="${tagValues(X.tags, 'clause')[0].replace(/[.]/g, '\\.')}">(.*?)</tr>`).exec(html)?.[1] ?? '';
  assert.match(clauseRow, /data-impl="alpha" data-verdict="violated">.*only here/);
  assert.match(clauseRow, /data-impl="beta" data-verdict="conforms"/);
});

test('a run older than the feature files is shown under the current ids (matched by name), and says so', () => {
  const beta = built.site.implementations.find((i) => i.name === 'beta')!.latest;
  assert.equal(beta.byId.get(Z.id)?.outcome, 'errored');
  assert.equal(beta.moved, 1);
  assert.deepEqual(beta.unknown.map((s) => s.id), ['features/gone.feature:3']);
  assert.match(read('impl/beta.html'), /1 of its scenario ids had moved[^<]*; 1 name no scenario of the current features/);
});

test('everything shown is escaped: a hostile observation, reason or version appears as text', () => {
  for (const p of built.pages) assert.doesNotMatch(read(p), /<script/i, `${p} has a script element`);
  const clause = read(paths.clause(tagValues(X.tags, 'clause')[0]));
  assert.match(clause, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &#39;quoted&#39;/);
  assert.match(clause, /<span class="cls" title="class given by the entry">divergence<\/span>/, 'the class from the expectations file is shown');
  assert.match(clause, /href="https:\/\/github\.com\/openpmix\/prrte\/blob\/c22fd181\/docs\/plans\/node-reservation-spec\.rst\?plain=1#L120-L124"/, 'evidence lines link upstream');
  assert.match(read(paths.clause(tagValues(Z.tags, 'clause')[0])), /<span class="cls" title="class inferred from the reason">harness-limitation\?<\/span>/, 'a class inferred from the reason is marked so');
  assert.match(clause, /<span class="muted">expected-failure<\/span>/, 'the outcome is judged against the --expect file');
  assert.match(clause, /<a href="\.\.\/interpretations\.html#IP-TARGET-UNKNOWN" class="ip">IP-TARGET-UNKNOWN<\/a>/, 'an IP id in a reason links to the interpretations page');
  assert.match(read('index.html'), /2\.&lt;0&gt;/);
});

test('no page links outside the site, except to the upstream documents at the pinned commit; no external asset', () => {
  for (const p of built.pages) {
    const html = read(p);
    for (const m of html.matchAll(/(?:href|src)="([^"]*)"/g)) {
      if (/^[a-z]+:/i.test(m[1]) || m[1].startsWith('//')) assert.ok(m[1].startsWith(UPSTREAM_BASE), `${p} links to ${m[1]}`);
    }
    assert.doesNotMatch(html, /<link\b|<script\b|<img\b|@import|url\(/i, `${p} loads something`);
  }
  const upstream = read(paths.clause('NR.route.tool-target'));
  assert.match(upstream, /href="https:\/\/github\.com\/openpmix\/prrte\/blob\/c22fd181\/docs\/plans\/node-reservation-spec\.rst"/);
  const ie = [...registry.clauses.values()].find((c) => c.document.endsWith('.txt'))!;
  assert.doesNotMatch(read(paths.clause(ie.id)), /github\.com/, 'a document that is not upstream is not linked');
});

test('every internal link resolves to a written file, and its #anchor to an id on that page', () => {
  const ids = new Map<string, Set<string>>();
  const idsOf = (p: string) => {
    if (!ids.has(p)) ids.set(p, new Set([...read(p).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])));
    return ids.get(p)!;
  };
  let checked = 0;
  for (const p of built.pages) {
    for (const m of read(p).matchAll(/href="([^"]*)"/g)) {
      const link = m[1].replace(/&amp;/g, '&');
      if (/^[a-z]+:/i.test(link)) continue;
      const [file, anchor] = link.split('#');
      const target = file === '' ? p : path.posix.normalize(path.posix.join(path.posix.dirname(p), file));
      assert.ok(built.pages.includes(target), `${p} links to ${link}, which is not a page`);
      if (anchor) assert.ok(idsOf(target).has(anchor), `${p} links to ${link}: no id "${anchor}" there`);
      checked += 1;
    }
  }
  assert.ok(checked > 1000, `only ${checked} links`);
});

test('clause, implementation, diff and feature pages say what they must', () => {
  const clause = read(paths.clause(tagValues(X.tags, 'clause')[0]));
  assert.match(clause, /<span class="kw">Scenario/);
  assert.match(clause, /PMIX_ERR_NO_PERMISSIONS \(-23\)/, 'expected vs observed');
  const impl = read('impl/alpha.html');
  assert.match(impl, /<h2 id="trend">Trend<\/h2>/, 'three runs: a trend');
  assert.match(impl, /Skipped, by what would unlock them/);
  assert.match(impl, /<h3>PMIX_ALLOC_WARN_TIMEOUT/);
  assert.doesNotMatch(read('impl/beta.html'), /id="trend"/);
  // alpha-1 -> alpha-2: X newly failed, Y failed -> errored (a changed cause); alpha-2 -> alpha-3: Y newly passes.
  const d1 = read('diff/alpha-1.html');
  const section = (html: string, id: string) => new RegExp(`<h2 id="${id}">(.*?)(?=<h2)`, 's').exec(html)?.[1] ?? '';
  assert.ok(d1.indexOf('id="new-failures"') < d1.indexOf('id="new-passes"') && d1.indexOf('id="new-passes"') < d1.indexOf('id="changed-causes"'));
  assert.match(section(d1, 'new-failures'), new RegExp(X.id.replace(/[.]/g, '\\.')));
  assert.match(section(d1, 'changed-causes'), new RegExp(Y.id.replace(/[.]/g, '\\.')));
  assert.match(section(read('diff/alpha-2.html'), 'new-passes'), new RegExp(Y.id.replace(/[.]/g, '\\.')));
  const feature = read(paths.feature(FEATURES[0]));
  assert.match(feature, /<table class="examples">/, 'Examples as an HTML table');
  assert.match(feature, /<table class="datatable">/, 'data tables as HTML tables');
  assert.match(feature, /<th class="impl">alpha<\/th><th class="impl">beta<\/th>/, 'an outcome column per implementation');
  assert.match(read('interpretations.html'), /<section class="ip" id="IP-APP-TARGET-SHARE">/);
});

test('the command line: --out, --expect NAME=FILE, the runs; a bad --expect or a file that is no report is refused', () => {
  const o = parseSiteArgs(['--out', 'x', '--expect', 'prrte=expectations/prrte.json', 'a.json', 'b.json']);
  assert.deepEqual([o.out, [...o.expect!], o.runs], ['x', [['prrte', 'expectations/prrte.json']], ['a.json', 'b.json']]);
  assert.throws(() => parseSiteArgs(['a.json']), /--out/);
  assert.throws(() => parseSiteArgs(['--out', 'x', '--expect', 'prrte', 'a.json']), /NAME=FILE/);
  assert.throws(() => buildSite({ out: path.join(dir, 'x'), runs: [files[0]], expect: new Map([['gamma', expect]]) }), /no run is of an implementation named "gamma"/);
  const bad = path.join(dir, 'bad.json');
  fs.writeFileSync(bad, '{"reportVersion": "nope"}');
  assert.throws(() => buildSite({ out: path.join(dir, 'y'), runs: [bad] }), /is not a conformance report/);
});

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

test('headless Chromium renders the matrix and a clause page', (t) => {
  if (!CHROMIUM) {
    t.skip('no chromium: /usr/bin/chromium is not installed (apt-get install chromium to run this check)');
    return;
  }
  const dump = (rel: string) =>
    execFileSync(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-'))}`, '--dump-dom', `file://${path.join(out, rel)}`], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] });
  const index = dump('index.html');
  assert.match(index, /<table class="matrix areas" id="areas">/);
  assert.match(index, /<table class="matrix clauses" id="clauses">/);
  assert.match(index, /data-impl="alpha" data-verdict="violated"/);
  const clause = dump(paths.clause(tagValues(X.tags, 'clause')[0]));
  assert.match(clause, /<table class="verdicts">/);
  assert.doesNotMatch(clause, /<script/);
});
