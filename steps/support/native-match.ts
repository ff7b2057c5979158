/**
 * Step matching with the regular-expression engine's own match indices.
 *
 * cucumber-expressions finds where each parameter sits in a step's text
 * through the `regexp-match-indices` polyfill. The polyfill decides whether
 * the engine has match indices by matching a pattern *without* the `d` flag,
 * which never has them, so on every Node it takes its slow path: per match, a
 * second, rewritten pattern and an accessor property. Cucumber matches every
 * step against every definition to find its own, then twice more (recording
 * its arguments, calling it): about 0.5 s of CPU per run of the suite, out of
 * some 5.5 s then (node --cpu-prof, regexp-match-indices and regexp-tree).
 *
 * Here `TreeRegexp.prototype.match` matches with a copy of the pattern that
 * has the `d` flag (Node >= 16 has it natively) and builds the same groups
 * from the native indices. test/steps/native-match.test.ts checks, for every
 * step of every feature against every step definition, that the groups are
 * the same as the polyfill's. If the module's shape is not the one expected
 * (another cucumber-expressions version), nothing is patched and cucumber
 * runs as it ships.
 */
import * as path from 'node:path';

interface Group {
  value: string | undefined;
  start: number | undefined;
  end: number | undefined;
  children: Group[] | undefined;
}
interface TreeRegexpLike {
  regexp: RegExp;
  groupBuilder: { build(match: RegExpExecArray, next: () => number): Group };
  match(s: string): Group | null;
}

/** The TreeRegexp class cucumber itself uses (resolved from cucumber's own folder), or undefined. */
export function cucumberTreeRegexp(): { prototype: TreeRegexpLike } | undefined {
  try {
    const fromCucumber = { paths: [path.dirname(require.resolve('@cucumber/cucumber/package.json'))] };
    const index = require.resolve('@cucumber/cucumber-expressions', fromCucumber);
    // Not an exported entry point, so required by file; both are in dist/cjs/src.
    const mod = require(path.join(path.dirname(index), 'TreeRegexp.js')) as { default?: { prototype: TreeRegexpLike } };
    const cls = mod.default;
    return cls && typeof cls.prototype.match === 'function' ? cls : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text every match of an anchored pattern must start with: the literal
 * characters after `^` up to the first special one (less the last, if a
 * quantifier follows it). Empty when unsure (no `^`, a flag, an alternation
 * at the top level).
 */
export function literalPrefix(re: RegExp): string {
  const src = re.source;
  if (re.flags.replace(/[dgy]/g, '') !== '' || !src.startsWith('^')) return '';
  let depth = 0;
  for (let i = 1; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') while (i < src.length && src[i] !== ']') i += src[i] === '\\' ? 2 : 1;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return '';
  }
  let end = 1;
  while (end < src.length && !'\\^$.|?*+()[]{}'.includes(src[end])) end++;
  if ('?*{'.includes(src[end] ?? '')) end--;
  return src.slice(1, Math.max(end, 1));
}

/** What a TreeRegexp needs to match natively, kept on it (a property lookup is cheaper than a map's). */
interface Compiled {
  prefix: string;
  plain: RegExp;
  withIndices: RegExp;
  /** This pattern's column in the table of matches worked out. */
  column: number;
}

/**
 * Each text's match against each pattern, once worked out: a row per text, a
 * column per pattern (undefined: not worked out yet). Cucumber matches every
 * step against every definition (the suite: 6,378 steps, 116 definitions,
 * 565 distinct texts), one definition after another for the same text, so the
 * last row is kept at hand. A Group is never changed after it is built
 * (cucumber-expressions only reads it), so one can be handed out again.
 */
const rows = new Map<string, (Group | null | undefined)[]>();
let lastText: string | undefined;
let lastRow: (Group | null | undefined)[] = [];
let columns = 0;
const COMPILED = Symbol('native-match');

function compile(regexp: RegExp): Compiled {
  // A fresh plain copy: a global or sticky pattern's lastIndex would carry state between steps.
  const flags = regexp.flags.replace(/[gyd]/g, '');
  return { prefix: literalPrefix(regexp), plain: new RegExp(regexp.source, flags), withIndices: new RegExp(regexp.source, `${flags}d`), column: columns++ };
}

/** The match cucumber-expressions computes, with native indices. */
export function nativeMatch(this: TreeRegexpLike & { [COMPILED]?: Compiled }, s: string): Group | null {
  const c = (this[COMPILED] ??= compile(this.regexp));
  if (s !== lastText) {
    let row = rows.get(s);
    if (!row) rows.set(s, (row = []));
    lastText = s;
    lastRow = row;
  }
  const known = lastRow[c.column];
  if (known !== undefined) return known;
  return (lastRow[c.column] = matchOnce(this, c, s));
}

function matchOnce(tree: TreeRegexpLike, c: Compiled, s: string): Group | null {
  // Most definitions do not match a given step: reject those by their
  // literal start, else with the plain pattern (cheaper than one that records
  // indices); only a match is run again to find where its groups are.
  if (!s.startsWith(c.prefix) || !c.plain.test(s)) return null;
  const re = c.withIndices;
  const match = re.exec(s);
  if (!match) return null;
  let groupIndex = 0;
  return tree.groupBuilder.build(match, () => groupIndex++);
}

function hasNativeIndices(): boolean {
  try {
    return new RegExp('(a)', 'd').exec('a')?.indices?.[1]?.[0] === 0;
  } catch {
    return false;
  }
}

const TreeRegexp = cucumberTreeRegexp();
/** The match as cucumber-expressions ships it (for the equivalence test). */
export const shippedMatch = TreeRegexp?.prototype.match;
if (TreeRegexp && hasNativeIndices() && TreeRegexp.prototype.match !== nativeMatch) TreeRegexp.prototype.match = nativeMatch;
