/** Expectations as data: a run passes when reality matches the file, and the file cannot rot. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { judge, loadExpectations, matchOf, type Expectations } from '../../tools/lib/expectations';
import { loadScenarios, type ScenarioInfo } from '../../tools/lib/scenarios';

const root = path.resolve(__dirname, '..', '..');

const suite: ScenarioInfo[] = [
  { id: 'features/a.feature:10', uri: 'features/a.feature', name: 'plain', tags: ['@clause:NR.x'] },
  { id: 'features/a.feature:20:25', uri: 'features/a.feature', name: 'outline row 1', tags: ['@clause:NR.y'] },
  { id: 'features/a.feature:20:26', uri: 'features/a.feature', name: 'outline row 2', tags: ['@clause:NR.y'] },
  { id: 'features/a.feature:40', uri: 'features/a.feature', name: 'another', tags: [] },
];
const file = (...expected: Expectations['expected']): Expectations => ({ implementation: 'x', expected });

test('without expectations, a failure or an error is unexpected; a pass or a skip is as expected', () => {
  assert.equal(matchOf('passed'), 'as-expected');
  assert.equal(matchOf('skipped'), 'as-expected');
  assert.equal(matchOf('failed'), 'unexpected-failure');
  assert.equal(matchOf('errored'), 'unexpected-error');
});

test('an expected failure that fails is fine; one that PASSES is an unexpected pass and fails the run', () => {
  const expectations = file({ id: 'features/a.feature:10', reason: 'D-2' });
  const failing = judge([{ id: 'features/a.feature:10', outcome: 'failed' }], expectations, suite);
  assert.equal(failing.ok, true);
  assert.equal(failing.byId.get('features/a.feature:10')?.match, 'expected-failure');
  const passing = judge([{ id: 'features/a.feature:10', outcome: 'passed' }], expectations, suite);
  assert.equal(passing.ok, false);
  assert.equal(passing.byId.get('features/a.feature:10')?.match, 'unexpected-pass');
});

test('an expected failure that errors instead (or the other way round) does not match; one that is skipped does', () => {
  assert.equal(matchOf('errored', { id: 'i', reason: 'r' }), 'unexpected-outcome');
  assert.equal(matchOf('failed', { id: 'i', reason: 'r', outcome: 'errored' }), 'unexpected-outcome');
  assert.equal(matchOf('errored', { id: 'i', reason: 'r', outcome: 'errored' }), 'expected-error');
  assert.equal(matchOf('skipped', { id: 'i', reason: 'r' }), 'expected-but-skipped');
});

test('an id that names no scenario is an error, with a hint to the nearest id', () => {
  const j = judge([], file({ id: 'features/a.feature:20', reason: 'outline without a row' }, { id: 'features/a.feature:11', reason: 'moved' }, { id: 'features/b.feature:1', reason: 'gone' }), suite);
  assert.equal(j.ok, false);
  assert.match(j.invalid[0].problem, /Scenario Outline: name one of its Examples rows, e\.g\. features\/a\.feature:20:25/);
  assert.match(j.invalid[1].problem, /nearest scenario in features\/a\.feature is features\/a\.feature:10: "plain"/);
  assert.match(j.invalid[2].problem, /no feature file features\/b\.feature/);
});

test('with the scenario name recorded, an id that moved (the feature was edited) is caught and the new id suggested', () => {
  const moved = judge([], file({ id: 'features/a.feature:9', scenario: 'plain', reason: 'r' }), suite);
  assert.match(moved.invalid[0].problem, /names no scenario of the suite \(the scenario "plain" is now features\/a\.feature:10/);
  const repointed = judge([], file({ id: 'features/a.feature:40', scenario: 'plain', reason: 'r' }), suite);
  assert.match(repointed.invalid[0].problem, /now names "another", not "plain" \(the scenario "plain" is now features\/a\.feature:10/);
});

test('an entry naming a clause its scenario does not cite, or repeating an id, is an error', () => {
  const j = judge([], file({ id: 'features/a.feature:10', reason: 'r', clause: 'NR.y' }, { id: 'features/a.feature:40', reason: 'r' }, { id: 'features/a.feature:40', reason: 'again' }), suite);
  assert.deepEqual(
    j.invalid.map((i) => i.problem.split(',')[0]),
    ['names clause NR.y', 'listed more than once'],
  );
});

test('an expected scenario that was not part of the run (a tag filter) is noted, not an error', () => {
  const j = judge([{ id: 'features/a.feature:40', outcome: 'passed' }], file({ id: 'features/a.feature:10', reason: 'r' }), suite);
  assert.equal(j.ok, true);
  assert.deepEqual(j.notRun, ['features/a.feature:10']);
});

test('an expectations file that breaks its schema is refused with the place and the rule', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'expect-'));
  const bad = path.join(dir, 'bad.json');
  fs.writeFileSync(bad, JSON.stringify({ implementation: 'x', expected: [{ id: 'features/a.feature:10', outcome: 'broken' }] }));
  assert.throws(() => loadExpectations(bad), /\/expected\/0: must have required property 'reason'[\s\S]*\/expected\/0\/outcome: must be equal to one of the allowed values/);
  fs.rmSync(dir, { recursive: true });
});

test('the expectations files in expectations/ are valid and name only scenarios of the suite', () => {
  const all = loadScenarios(root);
  for (const f of fs.readdirSync(path.join(root, 'expectations')).filter((f) => f.endsWith('.json'))) {
    const j = judge([], loadExpectations(path.join(root, 'expectations', f)), all);
    assert.deepEqual(j.invalid, [], f);
  }
});

test('a scenario known to vary matches any outcome it lists, and no other', () => {
  const varies = { id: 'i', reason: 'a flaky runtime', outcomes: ['passed' as const, 'errored' as const] };
  assert.equal(matchOf('passed', varies), 'expected-variation');
  assert.equal(matchOf('errored', varies), 'expected-variation');
  assert.equal(matchOf('failed', varies), 'unexpected-outcome');
  assert.equal(matchOf('skipped', varies), 'expected-but-skipped');
});

test('an entry may not give both an outcome and the outcomes it varies between, nor list fewer than two', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-expect-'));
  try {
    for (const [entry, why] of [
      [{ id: 'features/a.feature:10', reason: 'r', outcome: 'failed', outcomes: ['passed', 'failed'] }, /must NOT be valid/],
      [{ id: 'features/a.feature:10', reason: 'r', outcomes: ['passed'] }, /must NOT have fewer than 2 items/],
    ] as const) {
      const f = path.join(dir, 'x.json');
      fs.writeFileSync(f, JSON.stringify({ implementation: 'x', expected: [entry] }));
      assert.throws(() => loadExpectations(f), why);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
