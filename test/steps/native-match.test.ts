/**
 * steps/support/native-match.ts replaces how cucumber-expressions finds a
 * step's parameters; it must change nothing but the speed. For every step of
 * every feature against every step definition, the groups it finds are the
 * ones the shipped matcher finds (same values, same positions, same nesting),
 * and a pattern's literal prefix never rejects a text the pattern matches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadConfiguration, loadSupport } from '@cucumber/cucumber/api';
import { cucumberTreeRegexp, literalPrefix, nativeMatch, shippedMatch } from '../../steps/support/native-match';
import { loadScenarios } from '../../tools/lib/scenarios';

const root = path.resolve(__dirname, '..', '..');

test('the patch is installed on the TreeRegexp cucumber uses', () => {
  const TreeRegexp = cucumberTreeRegexp();
  assert.ok(TreeRegexp, 'cucumber-expressions has no TreeRegexp where expected: the patch would silently do nothing');
  assert.equal(TreeRegexp.prototype.match, nativeMatch);
  assert.ok(shippedMatch && shippedMatch !== nativeMatch);
});

test('literal prefixes', () => {
  assert.equal(literalPrefix(/^the request succeeds$/), 'the request succeeds');
  assert.equal(literalPrefix(/^node(?:s)? ("[^"]*") (?:is|are) ready$/), 'node');
  assert.equal(literalPrefix(/^nodes? are$/), 'node'); // the s is optional
  assert.equal(literalPrefix(/^ab{0,2}c/), 'a');
  assert.equal(literalPrefix(/^abc+/), 'abc'); // at least one c
  assert.equal(literalPrefix(/^(the scheduler|tool "[^"]+") requests/), '');
  assert.equal(literalPrefix(/^a|b/), ''); // an alternation at the top level
  assert.equal(literalPrefix(/^a[|]b/), 'a');
  assert.equal(literalPrefix(/abc/), ''); // not anchored
  assert.equal(literalPrefix(/^abc/i), ''); // case-insensitive
  assert.equal(literalPrefix(/^a\.b/), 'a');
});

test('every step of every feature: the same groups as the shipped matcher, against every step definition', async () => {
  const { runConfiguration } = await loadConfiguration({ file: 'cucumber.cjs' }, { cwd: root });
  // The loaded library has its step definitions, though its public type does not say so.
  const support = (await loadSupport(runConfiguration, { cwd: root })) as unknown as { stepDefinitions: { expression: { treeRegexp: { regexp: RegExp } } }[] };
  const expressions = support.stepDefinitions.map((d) => d.expression.treeRegexp);
  const texts = [...new Set(loadScenarios(root).flatMap((s) => s.steps ?? []))];
  assert.ok(expressions.length > 50 && texts.length > 500, `${expressions.length} definitions, ${texts.length} step texts`);
  let matched = 0;
  for (const text of texts) {
    for (const tree of expressions) {
      const expected = shippedMatch!.call(tree as never, text);
      const actual = nativeMatch.call(tree as never, text);
      assert.deepEqual(JSON.parse(JSON.stringify(actual)), JSON.parse(JSON.stringify(expected)), `${tree.regexp} on ${JSON.stringify(text)}`);
      if (expected) {
        matched++;
        assert.ok(text.startsWith(literalPrefix(tree.regexp)), `${tree.regexp}: prefix "${literalPrefix(tree.regexp)}" rejects ${JSON.stringify(text)}`);
      }
    }
  }
  assert.ok(matched >= texts.length, `only ${matched} matches for ${texts.length} texts`);
  // Again, every answer now remembered, and in the other order (one
  // definition against every text): what comes back is still the shipped match.
  for (const tree of expressions) {
    for (const text of texts) {
      const expected = shippedMatch!.call(tree as never, text);
      assert.deepEqual(JSON.parse(JSON.stringify(nativeMatch.call(tree as never, text))), JSON.parse(JSON.stringify(expected)), `remembered: ${tree.regexp} on ${JSON.stringify(text)}`);
    }
  }
});
