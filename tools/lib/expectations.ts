/**
 * Expectations as data: expectations/<implementation>.json lists the
 * scenarios an implementation is known not to pass, each with a reason.
 * A run matches its expectations when every scenario's outcome is the one
 * expected (passed, or skipped, unless listed). An expected failure that
 * passes is an "unexpected pass" and fails the run, so the file cannot rot;
 * an entry whose id names no scenario is an error too. A scenario known to
 * vary between runs (a flaky runtime) may list the outcomes it takes
 * (`outcomes`); any of them matches, and the report counts them apart.
 */
import * as fs from 'node:fs';
import type { Outcome } from './outcomes';
import { compareIds } from './run';
import type { ScenarioInfo } from './scenarios';
import { compileSchema, describeErrors } from './schemas';

export interface Expectation {
  id: string;
  /** The scenario's name, to catch an id that moved (ids are line numbers). */
  scenario?: string;
  outcome?: 'failed' | 'errored';
  /** A scenario known to vary between runs: the outcomes any of which matches (never with `outcome`). */
  outcomes?: ('passed' | 'failed' | 'errored')[];
  reason: string;
  clause?: string;
  /** What kind of known failure (schemas/reports/expectations.schema.json); inferred from the reason when absent (classOf). */
  class?: ExpectationClass;
  evidence?: Evidence;
}

export const EXPECTATION_CLASSES = ['divergence', 'interpretation', 'harness-limitation', 'runtime-fault', 'suite-defect'] as const;
export type ExpectationClass = (typeof EXPECTATION_CLASSES)[number];

export interface Evidence {
  /** Specification document and line(s). */
  spec?: string;
  /** Implementation source file:line. */
  source?: string[];
  /** An interpretation point id (IP-…). */
  interpretation?: string;
}

/** What each class means, in the words the reports use. */
export const CLASS_WORDS: Record<ExpectationClass | 'unclassified', string> = {
  divergence: 'the runtime breaks a sentence the specification itself states',
  interpretation: 'the verdict rests on an interpretation point (features/INTERPRETATIONS.md)',
  'harness-limitation': 'the harness cannot drive or observe what the scenario needs',
  'runtime-fault': 'the runtime crashes, hangs or answers garbage',
  'suite-defect': 'the suite itself is wrong here',
  unclassified: 'no class given, and none could be read from the reason',
};

/** The words a reason may start with ("PRRTE divergence: …"), for entries written before the class field. */
const CLASS_FROM_REASON: [RegExp, ExpectationClass][] = [
  [/^[^:]{0,40}\bdivergen/i, 'divergence'],
  [/^[^:]{0,40}\binterpretation/i, 'interpretation'],
  [/^[^:]{0,40}\b(bridge|harness) limitation/i, 'harness-limitation'],
  [/^[^:]{0,40}\bfault\b/i, 'runtime-fault'],
  [/^[^:]{0,40}\bsuite defect/i, 'suite-defect'],
];

/** An entry's class: the one it gives, else the one its reason starts with (inferred: true), else unclassified. */
export function classOf(e: Pick<Expectation, 'class' | 'reason'>): { class: ExpectationClass | 'unclassified'; inferred: boolean } {
  if (e.class) return { class: e.class, inferred: false };
  const head = e.reason.split(':')[0] + ':';
  for (const [re, c] of CLASS_FROM_REASON) if (re.test(head)) return { class: c, inferred: true };
  return { class: 'unclassified', inferred: false };
}

/** "102 divergence, 4 harness-limitation, 3 runtime-fault" over some entries, most common first ('' for none). */
export function classCounts(entries: readonly Pick<Expectation, 'class' | 'reason'>[]): { text: string; inferred: number; counts: [string, number][] } {
  const counts = new Map<string, number>();
  let inferred = 0;
  for (const e of entries) {
    const c = classOf(e);
    if (c.inferred) inferred += 1;
    counts.set(c.class, (counts.get(c.class) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { text: sorted.map(([c, n]) => `${n} ${c}`).join(', '), inferred, counts: sorted };
}

export interface Expectations {
  implementation: string;
  description?: string;
  expected: Expectation[];
}

/** How one scenario's outcome compares with what was expected of it. */
export type Match =
  | 'as-expected' // passed, or skipped, and not listed
  | 'expected-failure' // listed as failing, and failed
  | 'expected-error' // listed as erroring, and errored
  | 'expected-variation' // listed as varying between outcomes, and took one of them
  | 'expected-but-skipped' // listed, but not run: the implementation does not claim what it needs
  | 'unexpected-failure'
  | 'unexpected-error'
  | 'unexpected-pass' // listed, but passed: remove the entry
  | 'unexpected-outcome'; // listed as failing and errored, or the other way round

export const MATCH_IS_OK: Record<Match, boolean> = {
  'as-expected': true,
  'expected-failure': true,
  'expected-error': true,
  'expected-variation': true,
  'expected-but-skipped': true,
  'unexpected-failure': false,
  'unexpected-error': false,
  'unexpected-pass': false,
  'unexpected-outcome': false,
};

export interface EntryProblem {
  id: string;
  problem: string;
}

export interface Judgement {
  /** Every outcome as expected and every entry valid. */
  ok: boolean;
  byId: Map<string, { match: Match; expectation?: Expectation }>;
  /** Entries that name no scenario of the suite, name a clause the scenario does not cite, or repeat an id. */
  invalid: EntryProblem[];
  /** Entries for scenarios that exist but were not part of this run (a --tags filter). */
  notRun: string[];
}

let validate: ReturnType<typeof compileSchema> | undefined;

/** Read and validate an expectations file; throws an Error that says what is wrong and where. */
export function loadExpectations(file: string): Expectations {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read expectations file ${file}: ${(e as Error).message}`);
  }
  validate ??= compileSchema('expectations.schema.json');
  if (!validate(data)) throw new Error(`expectations file ${file} does not match schemas/reports/expectations.schema.json:\n${describeErrors(validate.errors)}`);
  return data as Expectations;
}

export const NO_EXPECTATIONS: Expectations = { implementation: '(none: every scenario is expected to pass or be skipped)', expected: [] };

/** Compare a run's outcomes with the expectations. `suite` is every scenario the features define. */
export function judge(results: readonly { id: string; outcome: Outcome }[], expectations: Expectations, suite: readonly ScenarioInfo[]): Judgement {
  const known = new Map(suite.map((s) => [s.id, s]));
  const invalid: EntryProblem[] = [];
  const entries = new Map<string, Expectation>();
  for (const e of expectations.expected) {
    if (entries.has(e.id)) {
      invalid.push({ id: e.id, problem: 'listed more than once' });
      continue;
    }
    const scenario = known.get(e.id);
    const named = e.scenario === undefined ? [] : suite.filter((s) => s.name === e.scenario);
    const movedTo = named.length > 0 ? ` (the scenario "${e.scenario}" is now ${named.map((s) => s.id).join(' or ')}: the feature file was edited)` : '';
    if (!scenario) {
      invalid.push({ id: e.id, problem: `names no scenario of the suite${movedTo || hint(e.id, suite)}` });
      continue;
    }
    if (e.scenario !== undefined && scenario.name !== e.scenario) {
      invalid.push({ id: e.id, problem: `now names "${scenario.name}", not "${e.scenario}"${movedTo || ' (no scenario has that name any more)'}` });
      continue;
    }
    if (e.clause && !scenario.tags.includes(`@clause:${e.clause}`)) {
      invalid.push({ id: e.id, problem: `names clause ${e.clause}, which the scenario "${scenario.name}" does not cite` });
    }
    entries.set(e.id, e);
  }

  const byId = new Map<string, { match: Match; expectation?: Expectation }>();
  for (const r of results) {
    const expectation = entries.get(r.id);
    byId.set(r.id, { match: matchOf(r.outcome, expectation), ...(expectation ? { expectation } : {}) });
  }
  const notRun = [...entries.keys()].filter((id) => !byId.has(id)).sort(compareIds);
  const ok = invalid.length === 0 && [...byId.values()].every((v) => MATCH_IS_OK[v.match]);
  return { ok, byId, invalid, notRun };
}

export function matchOf(outcome: Outcome, expectation?: Expectation): Match {
  if (!expectation) {
    if (outcome === 'failed') return 'unexpected-failure';
    if (outcome === 'errored') return 'unexpected-error';
    return 'as-expected';
  }
  if (outcome === 'skipped') return 'expected-but-skipped';
  if (expectation.outcomes) return (expectation.outcomes as Outcome[]).includes(outcome) ? 'expected-variation' : 'unexpected-outcome';
  const wanted = expectation.outcome ?? 'failed';
  if (outcome === 'passed') return 'unexpected-pass';
  if (outcome !== wanted) return 'unexpected-outcome';
  return wanted === 'failed' ? 'expected-failure' : 'expected-error';
}

/** A near miss: the rows of an outline named without a row, or the scenarios of the same file near that line. */
function hint(id: string, suite: readonly ScenarioInfo[]): string {
  const rows = suite.filter((s) => s.id.startsWith(`${id}:`)).map((s) => s.id);
  if (rows.length > 0) return ` (it is a Scenario Outline: name one of its Examples rows, e.g. ${rows.slice(0, 3).join(', ')})`;
  const uri = id.replace(/(:\d+)+$/, '');
  const inFile = suite.filter((s) => s.uri === uri);
  if (inFile.length === 0) return ` (no feature file ${uri})`;
  const line = Number(/:(\d+)/.exec(id.slice(uri.length))?.[1] ?? 0);
  const nearest = [...inFile].sort((a, b) => Math.abs(lineOf(a.id) - line) - Math.abs(lineOf(b.id) - line))[0];
  return ` (the nearest scenario in ${uri} is ${nearest.id}: "${nearest.name}")`;
}

const lineOf = (id: string) => Number(/\.feature:(\d+)/.exec(id)?.[1] ?? 0);
