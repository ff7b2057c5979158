/** The conformance report, built from a small synthetic message stream: its content, its schema, the summary, the comparison. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareReports, renderComparison } from '../../tools/lib/compare';
import type { Expectations } from '../../tools/lib/expectations';
import type { Registry } from '../../tools/lib/registry';
import { assertValidReport, buildReport, type ConformanceReport } from '../../tools/lib/report';
import { IMPLEMENTATION_MEDIA_TYPE, parseRun, SKIP_MEDIA_TYPE } from '../../tools/lib/run';
import type { ScenarioInfo } from '../../tools/lib/scenarios';
import { renderSummary } from '../../tools/lib/summary';
import { renderHtml } from '../../tools/lib/html-report';
import { READINGS } from '../../seam/readings';
import { writeReports } from '../../tools/report';
import { failureText, messageStream, type FakeScenario } from './support/messages';

const clause = (id: string, text: string, extra: object = {}) => ({ id, section: 'Ownership model', kind: 'must', text, document: 'node-reservation-spec.rst', prefix: id.split('.')[0], ...extra });
const registry: Registry = {
  clauses: new Map(
    [
      clause('NR.own.no-narrowing', 'One bad entry refuses the whole spawn.'),
      clause('NR.own.spawn-check', 'Every entry must be owned.'),
      clause('NR.route.x', 'Routing.'),
      clause('NR.elastic.y', 'Elastic.'),
      clause('NR.never.cited', 'Nobody cites this.'),
      clause('NR.scope.untestable', 'Absence of an option.', { notTestable: 'an absence' }),
    ].map((c) => [c.id, c]),
  ),
  documents: [{ prefix: 'NR', document: 'node-reservation-spec.rst', title: 'Node Reservation', authority: 'spec', count: 6 }],
  duplicates: [],
};

const describe = { mediaType: IMPLEMENTATION_MEDIA_TYPE, body: JSON.stringify({ name: 'prrte', version: '4.0.1', capabilities: ['PMIX_SPAWN_TARGET'], adapter: 'adapters/subprocess' }) };
const skipBody = { mediaType: SKIP_MEDIA_TYPE, body: JSON.stringify({ reason: 'prrte does not declare capability "elastic"', capability: 'elastic' }) };
const scenarios: FakeScenario[] = [
  { uri: 'features/reservation/spawn-targeting.feature', line: 10, name: 'narrowing is refused', tags: ['@area:targeting', '@clause:NR.own.no-narrowing', '@clause:NR.own.spawn-check'], attachments: [describe], steps: [{ status: 'PASSED' }, { status: 'FAILED', type: 'ConformanceFailure', message: failureText('NR.own.no-narrowing, NR.own.spawn-check', 'PMIX_SUCCESS (0)') }, { status: 'SKIPPED' }] },
  { uri: 'features/reservation/spawn-targeting.feature', line: 20, row: 24, name: 'owned entries are allowed (R1)', tags: ['@area:targeting', '@clause:NR.own.spawn-check'], steps: [{ status: 'PASSED' }, { status: 'PASSED' }] },
  { uri: 'features/reservation/allocation-routing.feature', line: 5, name: 'routing crashes', tags: ['@area:routing', '@clause:NR.route.x'], steps: [{ status: 'PASSED' }, { status: 'FAILED', type: 'ImplementationFault', message: 'implementation fault during allocate: the implementation exited with code 3' }] },
  { uri: 'features/elastic/grow.feature', line: 7, name: 'a grow', tags: ['@clause:NR.elastic.y', '@needs:elastic'], attachments: [skipBody], steps: [{ status: 'SKIPPED' }, { status: 'SKIPPED' }, { status: 'PASSED' }] },
];
const suite: ScenarioInfo[] = [
  { id: 'features/reservation/spawn-targeting.feature:10', uri: 'features/reservation/spawn-targeting.feature', name: 'narrowing is refused', tags: scenarios[0].tags },
  { id: 'features/reservation/spawn-targeting.feature:20:24', uri: 'features/reservation/spawn-targeting.feature', name: 'owned entries are allowed (R1)', tags: scenarios[1].tags },
  { id: 'features/reservation/allocation-routing.feature:5', uri: 'features/reservation/allocation-routing.feature', name: 'routing crashes', tags: scenarios[2].tags },
  { id: 'features/elastic/grow.feature:7', uri: 'features/elastic/grow.feature', name: 'a grow', tags: scenarios[3].tags },
];
const none: Expectations = { implementation: 'none', expected: [] };
const build = (expectations: Expectations, stream = messageStream(scenarios)) =>
  buildReport(parseRun(stream), { registry, suite, expectations, expectationsFile: expectations === none ? null : 'expectations/prrte.json', source: 'x.ndjson', suiteVersion: '0.1.0', now: new Date(0) });

test('the report is valid against schemas/reports/conformance-report.schema.json', () => {
  const report = build(none);
  assertValidReport(report);
  assert.throws(() => assertValidReport({ ...report, totals: { ...report.totals, extra: 1 } }), /\/totals: must NOT have unevaluated properties/);
});

test('a live runtime\'s description (effectsTrailAnswers, quietMs) makes a valid report: a 44-minute PRRTE run once lost its reports to this', () => {
  const live = { mediaType: IMPLEMENTATION_MEDIA_TYPE, body: JSON.stringify({ name: 'prrte-bridge', version: 'x', capabilities: [], effectsTrailAnswers: true, quietMs: 3000 }) };
  const report = build(none, messageStream([{ ...scenarios[1], attachments: [live] }]));
  assertValidReport(report);
  assert.equal(report.implementation.effectsTrailAnswers, true);
});

test('who was tested comes from the hooks\' attachment; each scenario gets one of four outcomes under its stable id', () => {
  const r = build(none);
  const { undeclaredReadings, ...impl } = r.implementation;
  assert.deepEqual(impl, { name: 'prrte', version: '4.0.1', capabilities: ['PMIX_SPAWN_TARGET'], adapter: 'adapters/subprocess', declared: true });
  assert.deepEqual(undeclaredReadings?.map((u) => u.name), Object.keys(READINGS), 'it declared no reading: each is named');
  assert.deepEqual(r.totals, { scenarios: 4, passed: 1, failed: 1, skipped: 1, errored: 1 });
  assert.deepEqual(
    r.scenarios.map((s) => [s.id, s.outcome]),
    [
      ['features/elastic/grow.feature:7', 'skipped'],
      ['features/reservation/allocation-routing.feature:5', 'errored'],
      ['features/reservation/spawn-targeting.feature:10', 'failed'],
      ['features/reservation/spawn-targeting.feature:20:24', 'passed'],
    ],
  );
  const [skipped, errored, failed] = r.scenarios;
  assert.deepEqual(skipped.skip, { reason: 'prrte does not declare capability "elastic"', capability: 'elastic' });
  assert.equal(errored.errorKind, 'implementation');
  assert.deepEqual(failed.failure, { operation: 'job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=[allocation R1, allocation R3])', expected: 'PMIX_ERR_NO_PERMISSIONS (-23)', observed: 'PMIX_SUCCESS (0)' });
  // Areas: the @area tag, else the first clause's document prefix.
  assert.deepEqual(r.areas.map((a) => a.area), ['NR', 'routing', 'targeting']);
});

test('each clause gets a verdict from the scenarios citing it', () => {
  const r = build(none);
  const verdict = Object.fromEntries(r.clauses.map((c) => [c.id, c.verdict]));
  assert.deepEqual(verdict, {
    'NR.own.no-narrowing': 'violated',
    'NR.own.spawn-check': 'violated', // one failing, one passing scenario: violated
    'NR.route.x': 'errored',
    'NR.elastic.y': 'not-claimed',
    'NR.never.cited': 'not-run',
    'NR.scope.untestable': 'not-testable',
  });
  const c = r.clauses.find((x) => x.id === 'NR.own.spawn-check')!;
  assert.deepEqual(c.scenarios, [
    { id: 'features/reservation/spawn-targeting.feature:10', outcome: 'failed', observed: 'PMIX_SUCCESS (0)' },
    { id: 'features/reservation/spawn-targeting.feature:20:24', outcome: 'passed' },
  ]);
  assert.deepEqual(r.documents[0].verdicts, { violated: 2, errored: 1, conforms: 0, 'not-claimed': 1, 'not-run': 1, 'not-testable': 1 });
});

test('the run matches its expectations only when every failure and error is listed; a listed pass fails it', () => {
  assert.equal(build(none).verdict.matchesExpectations, false);
  const listed: Expectations = {
    implementation: 'prrte',
    expected: [
      { id: 'features/reservation/spawn-targeting.feature:10', reason: 'D-2' },
      { id: 'features/reservation/allocation-routing.feature:5', outcome: 'errored', reason: 'crashes' },
    ],
  };
  const ok = build(listed);
  assert.equal(ok.verdict.matchesExpectations, true, ok.verdict.problems.join('; '));
  assert.equal(ok.clauses.find((c) => c.id === 'NR.own.no-narrowing')!.expected, true);
  const rotten = build({ ...listed, expected: [...listed.expected, { id: 'features/reservation/spawn-targeting.feature:20:24', reason: 'fixed since' }, { id: 'features/nowhere.feature:1', reason: 'x' }] });
  assert.equal(rotten.verdict.matchesExpectations, false);
  assert.deepEqual(rotten.verdict.problems, ['1 unexpected pass(es): remove them from the expectations file', '1 invalid expectation entry']);
});

test('an interrupted run (no testRunFinished) never matches its expectations', () => {
  const r = build(none, messageStream(scenarios.slice(1, 2), { finished: false }));
  assert.equal(r.run.complete, false);
  assert.equal(r.verdict.matchesExpectations, false);
});

test('the summary gives the verdict, the outcomes per area, and each failing clause with its paraphrase and observation', () => {
  const md = renderSummary(build(none));
  assert.match(md, /^# Conformance: prrte 4\.0\.1/);
  assert.match(md, /\*\*Result: FAILS: 1 unexpected failure\(s\); 1 unexpected error\(s\)\.\*\*/);
  assert.match(md, /\| targeting \| 1 \| 1 \| 0 \| 0 \| 2 \|/);
  assert.match(md, /### NR\.own\.no-narrowing\n\n\*Node Reservation\*, Ownership model, must: One bad entry refuses the whole spawn\./);
  assert.match(md, /  - observed: PMIX_SUCCESS \(0\)/);
  assert.match(md, /implementation fault during allocate: the implementation exited with code 3/);
  assert.match(md, /\| `elastic` \| 1 \|/);
});

test('writeReports writes both files from an ndjson on disk', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-'));
  const ndjson = path.join(dir, 'conformance.ndjson');
  fs.writeFileSync(ndjson, messageStream(scenarios.slice(1, 2)));
  const w = writeReports({ ndjson, outDir: dir });
  assert.equal(w.report.verdict.matchesExpectations, true);
  assertValidReport(JSON.parse(fs.readFileSync(path.join(dir, 'conformance.json'), 'utf8')));
  assert.match(fs.readFileSync(path.join(dir, 'summary.md'), 'utf8'), /every outcome matches the expectations/);
  fs.rmSync(dir, { recursive: true });
});

test('compare tells newly failing, newly passing and changed scenarios and clauses apart', () => {
  const before = build(none);
  const flip = (r: ConformanceReport, id: string, outcome: 'passed' | 'failed' | 'errored' | 'skipped'): ConformanceReport => ({ ...r, scenarios: r.scenarios.map((s) => (s.id === id ? { ...s, outcome } : s)) });
  let after = flip(before, 'features/reservation/spawn-targeting.feature:10', 'passed');
  after = flip(after, 'features/reservation/spawn-targeting.feature:20:24', 'failed');
  after = flip(after, 'features/reservation/allocation-routing.feature:5', 'failed');
  after = { ...after, clauses: after.clauses.map((c) => (c.id === 'NR.own.no-narrowing' ? { ...c, verdict: 'conforms' } : c.id === 'NR.route.x' ? { ...c, verdict: 'violated' } : c)) };
  const c = compareReports(before, after);
  assert.deepEqual(c.scenarios.newlyPassing.map((x) => x.id), ['features/reservation/spawn-targeting.feature:10']);
  assert.deepEqual(c.scenarios.newlyFailing.map((x) => x.id), ['features/reservation/spawn-targeting.feature:20:24']);
  assert.deepEqual(c.scenarios.changed.map((x) => `${x.from}->${x.to}`), ['errored->failed']);
  assert.deepEqual(c.clauses.newlyViolated.map((x) => x.id), ['NR.route.x']);
  assert.deepEqual(c.clauses.noLongerViolated.map((x) => x.id), ['NR.own.no-narrowing']);
  const text = renderComparison(c);
  assert.match(text, /Scenarios newly failing or erroring in B \(1\):\n  features\/reservation\/spawn-targeting\.feature:20:24  passed -> failed/);
  assert.match(renderComparison(compareReports(before, before)), /No scenario and no clause changed outcome/);
});

test('report.html leads with the verdict, then the failing clauses, and is self-contained', () => {
  const html = renderHtml(build(none), { cucumberHtml: 'conformance.html' });
  const verdict = html.indexOf('id="verdict"');
  const failing = html.indexOf('id="failing"');
  assert.ok(verdict > 0 && verdict < failing, 'the verdict comes before everything else');
  assert.match(html, /FAIL: prrte 4\.0\.1/);
  assert.match(html, /One bad entry refuses the whole spawn\./);
  assert.match(html, /<b>observed<\/b>/);
  assert.match(html, /Node Reservation/);
  assert.doesNotMatch(html, /node-reservation-spec\.rst/, 'documents appear by their titles');
  assert.doesNotMatch(html, /<script|(?:src|href)="https?:/, 'no script, no external asset');
  assert.match(html, /<code>elastic<\/code><\/td><td>1</, 'skipped scenarios grouped by what would unlock them');
});

/**
 * An implementation that leaves a reading undeclared is told so, a line per
 * reading, with how many scenarios that cost it (issue 23: a skip must never
 * read as a pass); one that declares every reading gets no such line.
 */
test('every undeclared reading is named in the report, the summary and report.html, with the scenarios skipped for it', () => {
  const declares = (readings: Record<string, string>) => ({ mediaType: IMPLEMENTATION_MEDIA_TYPE, body: JSON.stringify({ name: 'h', version: '1', capabilities: [], readings }) });
  const skippedFor = { mediaType: SKIP_MEDIA_TYPE, body: JSON.stringify({ reason: 'h declares no value for reading "completion-request-id"', capability: 'reading:completion-request-id=driving' }) };
  const two: FakeScenario[] = [
    { ...scenarios[1], attachments: [declares({ 'warning-request-id': 'creation' })] },
    { ...scenarios[3], attachments: [skippedFor] },
  ];
  const r = build(none, messageStream(two));
  assertValidReport(r);
  const undeclared = r.implementation.undeclaredReadings ?? [];
  assert.deepEqual(undeclared.map((u) => u.name), Object.keys(READINGS).filter((n) => n !== 'warning-request-id'));
  assert.equal(undeclared.find((u) => u.name === 'completion-request-id')?.skipped, 1);
  assert.equal(undeclared.find((u) => u.name === 'session-id-in-response')?.skipped, 0);
  const md = renderSummary(r);
  for (const u of undeclared) assert.ok(md.includes(`  - reading \`${u.name}\` not declared (`), `a line for ${u.name}`);
  assert.match(md, /reading `completion-request-id` not declared \([^)]*\): 1 scenario\(s\) that hold under one value only were skipped; what holds under every value ran/);
  assert.doesNotMatch(md, /reading `warning-request-id` not declared/);
  const html = renderHtml(r, {});
  assert.equal(html.match(/<dt>reading not declared<\/dt>/g)?.length, undeclared.length);

  const all = Object.fromEntries(Object.entries(READINGS).map(([name, reading]) => [name, Object.keys(reading.values)[0]]));
  const full = build(none, messageStream([{ ...scenarios[1], attachments: [declares(all)] }]));
  assert.equal(full.implementation.undeclaredReadings, undefined);
  assert.doesNotMatch(renderSummary(full), /not declared/);
});

// Looked at as a user would: in a real browser, when one is installed (CI has none: skipped, saying so).
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => fs.existsSync(p));
test('report.html in headless Chromium: the first thing on the page is the verdict', { skip: CHROMIUM ? false : 'no Chromium installed (apt-get install chromium to run this check)' }, async () => {
  const { execFileSync } = await import('node:child_process');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-html-'));
  const file = path.join(dir, 'report.html');
  fs.writeFileSync(file, renderHtml(build(none)));
  const dom = execFileSync(CHROMIUM!, ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${path.join(dir, 'profile')}`, '--dump-dom', `file://${file}`], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] });
  const text = dom.replace(/<style[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  assert.match(text, /^(?:PASS|FAIL): prrte 4\.0\.1/, `the page begins: ${text.slice(0, 120)}`);
});
