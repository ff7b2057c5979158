import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { rekey } from '../../tools/rekey-expectations';
import type { ScenarioInfo } from '../../tools/lib/scenarios';

const scenario = (id: string, name: string) => ({ id, name, tags: [] }) as unknown as ScenarioInfo;
const suite = [
  scenario('features/a.feature:20', 'moved'),
  scenario('features/a.feature:30:34', 'an outline row'),
  scenario('features/a.feature:30:35', 'an outline row'),
  scenario('features/b.feature:9', 'moved'),
  scenario('features/a.feature:50', 'stays'),
];

test('an entry whose scenario moved within its feature file gets the new id', () => {
  const { moves, stuck } = rekey([{ id: 'features/a.feature:10', scenario: 'moved' }], suite);
  assert.deepEqual([...moves], [['features/a.feature:10', 'features/a.feature:20']]);
  assert.deepEqual(stuck, []);
});

test('an entry that still names its scenario is left alone', () => {
  const { moves, stuck } = rekey([{ id: 'features/a.feature:50', scenario: 'stays' }], suite);
  assert.equal(moves.size, 0);
  assert.deepEqual(stuck, []);
});

test('a name that several scenarios of the file share (outline rows) is never guessed', () => {
  const { moves, stuck } = rekey([{ id: 'features/a.feature:40:44', scenario: 'an outline row' }], suite);
  assert.equal(moves.size, 0);
  assert.match(stuck[0], /2 scenarios have its name/);
});

test('a scenario of the same name in another feature file is not a match', () => {
  const { moves, stuck } = rekey([{ id: 'features/c.feature:10', scenario: 'moved' }], suite);
  assert.equal(moves.size, 0);
  assert.match(stuck[0], /no scenario of its feature file/);
});

test('an id that now names another scenario is moved to its own', () => {
  const { moves } = rekey([{ id: 'features/a.feature:50', scenario: 'moved' }], suite);
  assert.deepEqual([...moves], [['features/a.feature:50', 'features/a.feature:20']]);
});
