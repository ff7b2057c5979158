/** tools/flakiness.ts: scenarios whose outcome differs between runs are listed, with what each run observed; agreeing ones are counted. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agreement, parseArgs, renderAgreement } from '../../tools/flakiness';
import type { ConformanceReport } from '../../tools/lib/report';

const report = (outcomes: Record<string, string>, observed: Record<string, string> = {}) =>
  ({
    run: { durationMs: 1000 },
    scenarios: Object.entries(outcomes).map(([id, outcome]) => ({ id, name: `scenario ${id}`, outcome, ...(observed[id] ? { message: observed[id] } : {}) })),
  }) as unknown as ConformanceReport;

test('runs that agree, and runs that do not', () => {
  const a = agreement(
    [report({ 'f:1': 'passed', 'f:2': 'failed', 'f:3': 'skipped' }, { 'f:2': 'PMIX_ERR_BAD_PARAM' }), report({ 'f:1': 'passed', 'f:2': 'errored', 'f:3': 'skipped' }, { 'f:2': 'the DVM died\nmore' })],
    ['one', 'two'],
  );
  assert.equal(a.scenarios, 3);
  assert.equal(a.agreeing, 2);
  assert.deepEqual(a.disagreements, [{ id: 'f:2', name: 'scenario f:2', outcomes: ['failed', 'errored'], observed: ['PMIX_ERR_BAD_PARAM', 'the DVM died'] }]);
  assert.deepEqual(a.runs[0].totals, { passed: 1, failed: 1, skipped: 1 });
  const md = renderAgreement(a);
  assert.match(md, /2 of 3 scenarios had the same outcome in every run; 1 did not/);
  assert.match(md, /\| f:2 scenario f:2 \| failed \| errored \|/);
});

test('a scenario missing from a run is a disagreement', () => {
  const a = agreement([report({ 'f:1': 'passed' }), report({})], ['one', 'two']);
  assert.deepEqual(a.disagreements.map((d) => d.outcomes), [['passed', 'absent']]);
});

test('the command line: every file, with or without --markdown anywhere', () => {
  assert.deepEqual(parseArgs(['a.json', 'b.json']), { files: ['a.json', 'b.json'] });
  assert.deepEqual(parseArgs(['a.json', '--markdown', 'out.md', 'b.json']), { files: ['a.json', 'b.json'], markdown: 'out.md' });
  assert.deepEqual(parseArgs(['--markdown', 'out.md', 'a.json', 'b.json', 'c.json']), { files: ['a.json', 'b.json', 'c.json'], markdown: 'out.md' });
});
