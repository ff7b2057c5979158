/**
 * Before a run: what it will select, so a typo cannot produce a green run
 * that tested nothing. Every `@prefix:value` tag a --tags expression names
 * must exist (an area, a capability, a clause, an optional key, a reading, an
 * interpretation point, a scheduler policy), and the expression must select
 * at least one scenario; otherwise the run stops with the nearest valid names.
 */
import parseTagExpression from '@cucumber/tag-expressions';
import type { ScenarioInfo } from './scenarios';

/** Every tag value in the suite, by prefix (what a --tags expression may name). */
export function knownTags(suite: readonly ScenarioInfo[]): Map<string, Set<string>> {
  const known = new Map<string, Set<string>>();
  for (const s of suite) {
    for (const t of s.tags) {
      const m = /^@([a-z-]+):(.+)$/.exec(t);
      if (!m) continue;
      const set = known.get(m[1]) ?? new Set<string>();
      set.add(m[2]);
      known.set(m[1], set);
    }
  }
  return known;
}

/** Problems with a tag expression: unknown tags (with the nearest names), a syntax error, or no scenario selected. */
export function checkSelection(expression: string | undefined, suite: readonly ScenarioInfo[]): string[] {
  if (expression === undefined) return [];
  const problems: string[] = [];
  const known = knownTags(suite);
  const plain = new Set(suite.flatMap((s) => s.tags.filter((t) => !t.includes(':'))));
  for (const tag of expression.match(/@[^\s()]+/g) ?? []) {
    const m = /^@([a-z-]+):(.+)$/.exec(tag);
    if (m) {
      const values = known.get(m[1]);
      if (!values) problems.push(`${tag}: no scenario has a tag @${m[1]}:… (the kinds are: ${[...known.keys()].sort().map((k) => `@${k}:`).join(', ')})`);
      else if (!values.has(m[2])) problems.push(`${tag}: no scenario has this tag${nearest(m[2], [...values]).map((v, i) => `${i === 0 ? '; did you mean ' : ', '}@${m[1]}:${v}`).join('')}${nearest(m[2], [...values]).length ? '?' : ''}`);
    } else if (!plain.has(tag)) problems.push(`${tag}: no scenario has this tag`);
  }
  if (/[*?]/.test(expression)) problems.push(`tag expressions have no wildcards ("${expression}"); name the tags (see pmix-conformance areas)`);
  if (problems.length > 0) return problems;
  let node: ReturnType<typeof parseTagExpression>;
  try {
    node = parseTagExpression(expression);
  } catch (e) {
    return [`the tag expression "${expression}" does not parse: ${(e as Error).message}`];
  }
  const selected = suite.filter((s) => node.evaluate(s.tags)).length;
  if (selected === 0) problems.push(`the tag expression "${expression}" selects no scenario`);
  return problems;
}

/** Up to three values closest to `wanted` by edit distance (close enough to be a typo). */
export function nearest(wanted: string, values: string[]): string[] {
  return values
    .map((v) => ({ v, d: distance(wanted.toLowerCase(), v.toLowerCase()) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(wanted.length / 3)))
    .sort((a, b) => a.d - b.d || a.v.localeCompare(b.v))
    .slice(0, 3)
    .map((x) => x.v);
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
