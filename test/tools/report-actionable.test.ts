/**
 * Results an implementer can act on (issue 25): what decides the exit status
 * comes first with what was observed; every failing scenario is reachable;
 * identical causes are said once with a count; an errored scenario shows the
 * implementation's stderr tail; expectations carry a class (given or read
 * from the reason) shown with counts; links only to files that exist;
 * "not run" explained by the clauses an interpretation overrules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { classCounts, classOf, loadExpectations, type Expectations } from '../../tools/lib/expectations';
import type { Registry } from '../../tools/lib/registry';
import { assertValidReport, buildReport } from '../../tools/lib/report';
import { IMPLEMENTATION_MEDIA_TYPE, parseRun, SKIP_MEDIA_TYPE, STOPPED_MEDIA_TYPE } from '../../tools/lib/run';
import type { ScenarioInfo } from '../../tools/lib/scenarios';
import { renderHtml } from '../../tools/lib/html-report';
import { renderSummary } from '../../tools/lib/summary';
import { verdictText, writeReports } from '../../tools/report';
import { failureText, messageStream, type FakeScenario } from './support/messages';

const root = path.resolve(__dirname, '..', '..');
const clause = (id: string, text: string, extra: object = {}) => ({ id, section: 'Errors', kind: 'must', text, document: 'node-reservation-spec.rst', prefix: 'NR', ...extra });
const registry: Registry = {
  clauses: new Map(
    [clause('NR.err.table', 'Each error has its status.'), clause('NR.crash', 'Crashes.'), clause('NR.lower', 'A plan sentence.', { overruledBy: 'IP-APP-TARGET-SHARE' })].map((c) => [c.id, c]),
  ),
  documents: [{ prefix: 'NR', document: 'node-reservation-spec.rst', title: 'Node Reservation', authority: 'spec', count: 3 }],
  duplicates: [],
};
const describe = { mediaType: IMPLEMENTATION_MEDIA_TYPE, body: JSON.stringify({ name: 'prrte', version: '4.0.1', capabilities: [] }) };
const uri = 'features/reservation/error-table.feature';
const stderr = 'implementation fault during allocate: the implementation exited with code 3; its last stderr lines:\n  Traceback (most recent call last):\n  KeyError: alloc_id';
// Twelve rows that fail the same way (listed), one that fails otherwise (not listed), sixteen that crash the same way.
const rows: FakeScenario[] = [
  ...Array.from({ length: 12 }, (_, i) => ({ uri, line: 101, row: 103 + i, name: `row ${i}`, tags: ['@area:errors', '@clause:NR.err.table'], steps: [{ status: 'FAILED' as const, type: 'ConformanceFailure', message: failureText('NR.err.table', 'PMIX_SUCCESS (0)') }] })),
  { uri, line: 101, row: 120, name: 'the surprising row', tags: ['@area:errors', '@clause:NR.err.table'], steps: [{ status: 'FAILED', type: 'ConformanceFailure', message: failureText('NR.err.table', 'PMIX_ERR_BAD_PARAM (-27)') }] },
  ...Array.from({ length: 16 }, (_, i) => ({ uri: 'features/reservation/crash.feature', line: 10 + i * 5, name: `crash ${i}`, tags: ['@area:errors', '@clause:NR.crash'], steps: [{ status: 'FAILED' as const, type: 'ImplementationFault', message: stderr.replace('code 3', `code 3 (pid ${1000 + i})`) }] })),
];
rows[0].attachments = [describe];
const suite: ScenarioInfo[] = rows.map((s) => ({ id: `${s.uri}:${s.line}${s.row ? `:${s.row}` : ''}`, uri: s.uri, name: s.name, tags: s.tags }));
const expectations: Expectations = {
  implementation: 'prrte',
  expected: [
    ...suite.slice(0, 12).map((s, i) => (i === 0 ? { id: s.id, reason: 'the status differs', class: 'divergence' as const, evidence: { spec: 'node-reservation-spec.rst:120', source: ['src/prted/pmix/pmix_server_alloc.c:431'] } } : { id: s.id, reason: 'PRRTE divergence: the status differs' })),
    ...suite.slice(13).map((s) => ({ id: s.id, outcome: 'errored' as const, reason: 'bridge limitation: cannot observe' })),
  ],
};
const build = (stream = messageStream(rows)) => buildReport(parseRun(stream), { registry, suite, expectations, expectationsFile: 'expectations/prrte.json', source: 'x.ndjson', suiteVersion: '0.1.0', now: new Date(0) });

test('an entry\'s class is the one it gives, else the one its reason starts with, else unclassified; counted per class', () => {
  assert.deepEqual(classOf({ class: 'interpretation', reason: 'PRRTE divergence: x' }), { class: 'interpretation', inferred: false });
  assert.deepEqual(classOf({ reason: 'PRRTE divergence: x' }), { class: 'divergence', inferred: true });
  assert.deepEqual(classOf({ reason: 'PRRTE fault: x' }), { class: 'runtime-fault', inferred: true });
  assert.deepEqual(classOf({ reason: 'bridge limitation: x' }), { class: 'harness-limitation', inferred: true });
  assert.deepEqual(classOf({ reason: 'suite defect: x' }), { class: 'suite-defect', inferred: true });
  assert.deepEqual(classOf({ reason: 'the status differs: see the divergence note' }), { class: 'unclassified', inferred: false });
  const prrte = loadExpectations(path.join(root, 'expectations', 'prrte.json'));
  const c = classCounts(prrte.expected);
  assert.equal(c.counts.reduce((n, [, k]) => n + k, 0), prrte.expected.length);
  assert.ok(!c.counts.some(([k]) => k === 'unclassified'), `every prrte.json reason starts with its class: ${c.text}`);
});

test('the schema takes an optional class and evidence, and refuses an unknown class', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exp-'));
  const file = path.join(dir, 'x.json');
  fs.writeFileSync(file, JSON.stringify({ implementation: 'x', expected: [{ id: 'features/a.feature:1', reason: 'r', class: 'runtime-fault', evidence: { spec: 'a.rst:3', source: ['b.c:4'], interpretation: 'IP-X' } }] }));
  assert.equal(loadExpectations(file).expected[0].class, 'runtime-fault');
  fs.writeFileSync(file, JSON.stringify({ implementation: 'x', expected: [{ id: 'features/a.feature:1', reason: 'r', class: 'bug' }] }));
  assert.throws(() => loadExpectations(file), /class/);
  fs.rmSync(dir, { recursive: true });
});

test('the report carries each entry\'s class and evidence, counts per class, and what an unexpected outcome observed', () => {
  const r = build();
  assertValidReport(r);
  assert.deepEqual(r.expectations.classes, { divergence: 12, 'harness-limitation': 16 });
  assert.equal(r.expectations.classesInferred, 27);
  const first = r.scenarios.find((s) => s.id === `${uri}:101:103`)!;
  assert.deepEqual(first.expectation, { outcome: 'failed', reason: 'the status differs', class: 'divergence', evidence: { spec: 'node-reservation-spec.rst:120', source: ['src/prted/pmix/pmix_server_alloc.c:431'] } });
  assert.deepEqual(r.verdict.unexpected.map((u) => [u.id, u.observed]), [[`${uri}:101:120`, 'PMIX_ERR_BAD_PARAM (-27)']]);
  assert.equal(r.clauses.find((c) => c.id === 'NR.lower')!.overruledBy, 'IP-APP-TARGET-SHARE');
  const text = verdictText({ report: r, json: 'conformance.json', summary: 'summary.md', html: 'report.html' });
  assert.match(text, /expectations: expectations\/prrte\.json \(28 listed: 16 harness-limitation, 12 divergence; 27 class\(es\) read from the reason's first words\)/);
  assert.match(text, /unexpected-failure: features\/reservation\/error-table\.feature:101:120 \(the surprising row\)\n    observed: PMIX_ERR_BAD_PARAM \(-27\)/);
});

test('report.html: what fails the run first, with its observation; every failing scenario reachable; identical causes once with a count', () => {
  const html = renderHtml(build());
  const mismatches = html.indexOf('id="mismatches"');
  assert.ok(mismatches > 0 && mismatches < html.indexOf('id="failing"'), 'the mismatches come before the failing clauses');
  const first = html.slice(mismatches, html.indexOf('id="failing"'));
  assert.match(first, /UNEXPECTED FAILURE.*error-table\.feature:101:120/);
  assert.match(first, /<b>observed<\/b><span>PMIX_ERR_BAD_PARAM \(-27\)/);
  // The clause card: the unexpected row's cause first, then the twelve alike said once.
  const card = html.slice(html.indexOf('id="failing"'), html.indexOf('id="errored"'));
  assert.ok(card.indexOf('PMIX_ERR_BAD_PARAM') < card.indexOf('PMIX_SUCCESS'));
  assert.match(card, /<b>scenarios<\/b><span>12 with this same observation<\/span>/);
  assert.match(card, /<details><summary>… and 9 more scenario\(s\)<\/summary>/);
  for (const s of suite.slice(0, 13)) assert.ok(card.includes(s.id), `${s.id} is on the page`);
  assert.match(card, /<span class="cls">divergence<\/span>the status differs/);
  // Errored: sixteen crashes, one group (process ids aside), with the stderr tail.
  const errored = html.slice(html.indexOf('id="errored"'));
  assert.match(errored, /<b>16 scenarios<\/b>/);
  assert.equal((errored.match(/<pre>/g) ?? []).length, 1);
  assert.match(errored, /its last stderr lines:\n  Traceback \(most recent call last\):\n  KeyError: alloc_id<\/pre>/);
  // Classes with their counts and meaning; the overruled clause explains "not run".
  assert.match(html, /<span class="cls">harness-limitation<\/span><\/td><td>16<\/td>/);
  assert.match(html, /clauses overruled by an interpretation point \(IP-APP-TARGET-SHARE/);
  assert.match(html, /<td>1 <span class="muted">\(1 overruled\)<\/span><\/td>/);
  // A failures-only switch (CSS only) and a table of every scenario.
  assert.match(html, /<input type="checkbox" id="failures-only" hidden>/);
  assert.match(html, /#failures-only:checked ~ main \.ok/);
  assert.doesNotMatch(html, /<script/);
});

test('report.html links cucumber\'s page, and scenario ids into it, only when the run wrote it', () => {
  const r = build();
  assert.doesNotMatch(renderHtml(r), /conformance\.html/);
  const linked = renderHtml(r, { cucumberHtml: 'conformance.html' });
  assert.match(linked, /<a href="conformance\.html\?query=the%20surprising%20row"[^>]*><code>features\/reservation\/error-table\.feature:101:120<\/code><\/a>/);
  assert.match(linked, /conformance\.html\?hide=passed&amp;hide=skipped/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-'));
  const ndjson = path.join(dir, 'conformance.ndjson');
  fs.writeFileSync(ndjson, messageStream(rows.slice(0, 1)));
  assert.doesNotMatch(fs.readFileSync(writeReports({ ndjson, outDir: dir }).html, 'utf8'), /href="conformance\.html/);
  fs.writeFileSync(path.join(dir, 'conformance.html'), '<html></html>');
  assert.match(fs.readFileSync(writeReports({ ndjson, outDir: dir }).html, 'utf8'), /href="conformance\.html/);
  fs.rmSync(dir, { recursive: true });
});

test('summary.md: the unexpected outcome with its observation, classes and reasons, the causes grouped, every failing scenario named', () => {
  const md = renderSummary(build());
  assert.match(md, /- UNEXPECTED FAILURE: `features\/reservation\/error-table\.feature:101:120` the surprising row \(outcome failed, expected passed\)\n  - observed: PMIX_ERR_BAD_PARAM \(-27\)/);
  assert.match(md, /\(28 listed: 16 harness-limitation, 12 divergence \(27 of the classes read from the reasons' first words\)\)/);
  assert.match(md, /\| `harness-limitation` \| 16 \| the harness cannot drive/);
  assert.match(md, /^16 scenarios \[implementation\]:$/m);
  assert.match(md, /- … and 10 more failing scenario\(s\): `features\/reservation\/error-table\.feature:101:105`/);
  assert.match(md, /\(expected failure; divergence: the status differs\)/);
  assert.match(md, /"not run": all 1 are clauses overruled by an interpretation point/);
});

test('a run the hang guard stopped fails, says which request hung, and names the scenarios it did not run', () => {
  const stopped = { mediaType: STOPPED_MEDIA_TYPE, body: JSON.stringify({ verdict: 'allocate never answered in 3 consecutive scenarios' }) };
  const skipped = { mediaType: SKIP_MEDIA_TYPE, body: JSON.stringify({ reason: 'not run: the run stopped early: allocate never answered in 3 consecutive scenarios', capability: 'hang-guard' }) };
  const one: FakeScenario = { uri, line: 200, name: 'later', tags: ['@area:errors', '@clause:NR.err.table'], attachments: [stopped, skipped], steps: [{ status: 'SKIPPED' }] };
  const r = buildReport(parseRun(messageStream([{ ...rows[0] }, one])), { registry, suite: [], expectations: { implementation: 'x', expected: [] }, expectationsFile: null, source: 'x', suiteVersion: '0', now: new Date(0) });
  assertValidReport(r);
  assert.equal(r.run.stoppedEarly, 'allocate never answered in 3 consecutive scenarios');
  assert.equal(r.verdict.matchesExpectations, false);
  assert.match(r.verdict.problems[0], /^the run stopped early: allocate never answered in 3 consecutive scenarios; 1 scenario\(s\) after it were not run$/);
  assert.match(renderHtml(r), /<dt>stopped early<\/dt><dd class="bad">allocate never answered/);
  assert.match(renderSummary(r), /- the run stopped early: allocate never answered in 3 consecutive scenarios/);
});
