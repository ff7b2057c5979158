/** tools/mutation-score.ts: two Stryker runs add up, equivalents are matched by what the mutant is, not where. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combine, survivorRanges, summary, type Equivalent, type MutationReport, type Status } from '../../tools/mutation-score';

const source = ['export function f(a: number) {', '  if (a > 1) return 1;', '  return a + 1;', '}'].join('\n');

function report(statuses: Status[], shift = 0): MutationReport {
  const src = '\n'.repeat(shift) + source;
  const l = (n: number) => n + shift;
  return {
    files: {
      'reference/f.ts': {
        source: src,
        mutants: [
          { id: '1', mutatorName: 'EqualityOperator', replacement: 'a >= 1', location: { start: { line: l(2), column: 7 }, end: { line: l(2), column: 12 } }, status: statuses[0] },
          { id: '2', mutatorName: 'ArithmeticOperator', replacement: 'a - 1', location: { start: { line: l(3), column: 10 }, end: { line: l(3), column: 15 } }, status: statuses[1] },
          { id: '3', mutatorName: 'ConditionalExpression', replacement: 'true', location: { start: { line: l(2), column: 7 }, end: { line: l(2), column: 12 } }, status: statuses[2] },
        ],
      },
    },
  };
}

const eq: Equivalent = { file: 'reference/f.ts', mutator: 'EqualityOperator', line: 'if (a > 1) return 1;', original: 'a > 1', replacement: 'a >= 1', class: 'same-result', reason: 'a fixture' };

test('a mutant is detected when either run detected it; the properties alone are measured only when they ran on every mutant', () => {
  const c = combine(report(['Survived', 'Survived', 'Killed']), report(['Survived', 'Killed', 'Survived']), [], false);
  assert.equal(c.scenarios.detected, 1);
  assert.equal(c.both.detected, 2);
  assert.equal(c.properties, undefined);
  assert.equal(c.survivors.length, 1);
  const full = combine(report(['Survived', 'Survived', 'Killed']), report(['Survived', 'Killed', 'Survived']), [], true);
  assert.equal(full.properties?.detected, 1);
});

test('an equivalent leaves the score whatever line it moved to, and is counted apart', () => {
  const c = combine(report(['Survived', 'Killed', 'Killed'], 5), undefined, [eq], false);
  assert.equal(c.both.score, 100);
  assert.deepEqual(c.equivalents.map((e) => e.matched), [1]);
  assert.match(summary(c), /1 listed as equivalent/);
  assert.deepEqual(survivorRanges(report(['Survived', 'Survived', 'Killed']), [eq]), ['reference/f.ts:3:9-3:15']);
});

test('an equivalent entry matching a detected mutant, or none, is reported as stale and counts for nothing', () => {
  const c = combine(report(['Killed', 'Killed', 'Killed']), undefined, [eq, { ...eq, line: 'gone' }], false);
  assert.equal(c.equivalents.length, 0);
  assert.equal(c.staleEquivalents.length, 2);
  assert.match(summary(c), /stale or wrong\): 2/);
});
