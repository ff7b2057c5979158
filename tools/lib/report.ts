/**
 * The conformance report (reports/conformance.json): who was tested, how the
 * run went, and a verdict per clause of the specification documents, built
 * from a run (tools/lib/run.ts), the clause registry and the expectations.
 * Its shape is schemas/reports/conformance-report.schema.json, checked
 * whenever a report is written.
 */
import { classCounts, classOf, judge, MATCH_IS_OK, type Evidence, type Expectations, type Match } from './expectations';
import type { ErrorKind, Outcome } from './outcomes';
import type { Registry } from './registry';
import { compareIds, type ImplementationInfo, type RunInfo } from './run';
import type { ScenarioInfo } from './scenarios';
import { tagValues } from './scenarios';
import { compileSchema, describeErrors } from './schemas';
import { READINGS, undeclaredReadings } from '../../seam/readings';

export const REPORT_VERSION = 'pmix-conformance-report/1';

export type Counts = Record<Outcome, number>;

/**
 * - violated:    a scenario citing it failed (the implementation broke it);
 * - errored:     none failed, but one errored (the implementation could not be judged on it);
 * - conforms:    every scenario citing it that ran passed;
 * - not-claimed: every scenario citing it was skipped (the implementation does not declare what they need);
 * - not-run:     no scenario citing it was part of this run;
 * - not-testable: the registry says no runtime can be tested for it through the seam.
 */
export type ClauseVerdict = 'violated' | 'errored' | 'conforms' | 'not-claimed' | 'not-run' | 'not-testable';

export interface ScenarioEntry {
  id: string;
  name: string;
  area: string;
  clauses: string[];
  /** Failed: the clause(s) the failure is charged to (one, when the failing step could tell which it checks). */
  charged?: string[];
  outcome: Outcome;
  match: Match;
  durationMs: number;
  /** For a listed scenario: what the expectations file says. */
  expectation?: { outcome?: 'failed' | 'errored'; outcomes?: ('passed' | 'failed' | 'errored')[]; reason: string; clause?: string; class?: string; classInferred?: boolean; evidence?: Evidence };
  /** Failed or errored: the message (a ConformanceFailure's text, or the fault). */
  message?: string;
  /** Failed with a ConformanceFailure: its fields. */
  failure?: { operation?: string; expected?: string; observed?: string };
  errorKind?: ErrorKind;
  exceptionType?: string;
  skip?: { reason: string; capability?: string; capabilities?: string[] };
}

export interface ClauseEntry {
  id: string;
  document: string;
  section: string;
  kind: string;
  paraphrase: string;
  verdict: ClauseVerdict;
  /** Every failing scenario that cites it is listed in the expectations. */
  expected?: boolean;
  notTestable?: string;
  /** An interpretation point decided against it: no scenario checks it, by design. */
  overruledBy?: string;
  counts: Counts;
  scenarios: { id: string; outcome: Outcome; observed?: string }[];
}

/** A reading the implementation left undeclared, and how many scenarios (Examples rows) that cost it: only the checks that hold under one value. */
export interface UndeclaredReading {
  name: string;
  question: string;
  skipped: number;
}

export interface ConformanceReport {
  reportVersion: typeof REPORT_VERSION;
  implementation: ImplementationInfo & { declared: boolean; undeclaredReadings?: UndeclaredReading[] };
  run: {
    generatedAt: string;
    suiteVersion: string;
    source: string;
    complete: boolean;
    startedAt?: string;
    finishedAt?: string;
    durationMs?: number;
    /** Wire adapters: implementation processes started (1 + restarts after faults). */
    processesStarted?: number;
    /** The run stopped early: the implementation hung (steps/support/hang-guard.ts). */
    stoppedEarly?: string;
    cucumber?: string;
    runtime?: string;
    os?: string;
  };
  expectations: { file: string | null; implementation: string; entries: number; classes?: Record<string, number>; classesInferred?: number };
  verdict: {
    matchesExpectations: boolean;
    problems: string[];
    unexpected: { id: string; name: string; match: Match; outcome: Outcome; expected: string; reason?: string; class?: string; observed?: string }[];
    invalidExpectations: { id: string; problem: string }[];
    expectedButNotRun: string[];
  };
  totals: Counts & { scenarios: number };
  areas: (Counts & { area: string })[];
  documents: { document: string; prefix: string; title: string; verdicts: Record<ClauseVerdict, number> }[];
  clauses: ClauseEntry[];
  scenarios: ScenarioEntry[];
}

export interface BuildOptions {
  registry: Registry;
  suite: readonly ScenarioInfo[];
  expectations: Expectations;
  expectationsFile: string | null;
  source: string;
  suiteVersion: string;
  now?: Date;
}

const zero = (): Counts => ({ passed: 0, failed: 0, skipped: 0, errored: 0 });

/** Where a scenario belongs in the summary: its @area tag, else its first clause's document prefix, else its feature folder. */
export function areaOf(tags: string[], uri: string): string {
  const area = tagValues(tags, 'area')[0];
  if (area) return area;
  const clause = tagValues(tags, 'clause')[0];
  if (clause) return clause.split('.')[0];
  return uri.split('/').slice(-2, -1)[0] ?? uri;
}

export function buildReport(run: RunInfo, o: BuildOptions): ConformanceReport {
  const judgement = judge(run.scenarios, o.expectations, o.suite);
  const scenarios: ScenarioEntry[] = run.scenarios.map((s) => {
    const j = judgement.byId.get(s.id)!;
    const e: ScenarioEntry = {
      id: s.id,
      name: s.name,
      area: areaOf(s.tags, s.uri),
      clauses: tagValues(s.tags, 'clause'),
      outcome: s.outcome,
      match: j.match,
      durationMs: s.durationMs,
    };
    if (j.expectation) {
      const x = j.expectation;
      const c = classOf(x);
      e.expectation = {
        ...(x.outcomes ? { outcomes: x.outcomes } : { outcome: x.outcome ?? 'failed' }),
        reason: x.reason,
        ...(x.clause ? { clause: x.clause } : {}),
        class: c.class,
        ...(c.inferred ? { classInferred: true } : {}),
        ...(x.evidence ? { evidence: x.evidence } : {}),
      };
    }
    if ((s.outcome === 'failed' || s.outcome === 'errored') && s.message) e.message = s.message;
    if (s.failure) e.failure = pick(s.failure, ['operation', 'expected', 'observed']);
    if (s.outcome === 'failed') e.charged = chargedClauses(e.clauses, s.failure?.clauses);
    if (s.errorKind) e.errorKind = s.errorKind;
    if (s.exceptionType && s.outcome !== 'passed') e.exceptionType = s.exceptionType;
    if (s.skip) e.skip = s.skip;
    return e;
  });

  const totals = { scenarios: scenarios.length, ...zero() };
  const areas = new Map<string, Counts>();
  for (const s of scenarios) {
    totals[s.outcome] += 1;
    const a = areas.get(s.area) ?? zero();
    a[s.outcome] += 1;
    areas.set(s.area, a);
  }

  const citing = new Map<string, ScenarioEntry[]>();
  // One bug, one clause: a failed scenario counts against the clause its failure is charged to, not every clause it cites.
  for (const s of scenarios) for (const c of s.charged ?? s.clauses) citing.set(c, [...(citing.get(c) ?? []), s]);
  const clauses: ClauseEntry[] = [];
  for (const c of [...o.registry.clauses.values()].filter((c) => !c.retired)) {
    const cited = citing.get(c.id) ?? [];
    const counts = zero();
    for (const s of cited) counts[s.outcome] += 1;
    const verdict = clauseVerdict(counts, cited.length, c.notTestable !== undefined);
    const entry: ClauseEntry = {
      id: c.id,
      document: c.document,
      section: c.section,
      kind: c.kind,
      paraphrase: c.text,
      verdict,
      counts,
      scenarios: cited.map((s) => ({ id: s.id, outcome: s.outcome, ...(s.outcome === 'failed' || s.outcome === 'errored' ? { observed: s.failure?.observed ?? s.message ?? '' } : {}) })),
    };
    if (verdict === 'violated' || verdict === 'errored') entry.expected = cited.filter((s) => s.outcome === 'failed' || s.outcome === 'errored').every((s) => MATCH_IS_OK[s.match]);
    if (c.notTestable) entry.notTestable = c.notTestable;
    if (c.overruledBy) entry.overruledBy = c.overruledBy;
    clauses.push(entry);
  }

  const documents = o.registry.documents.map((d) => {
    const verdicts: Record<ClauseVerdict, number> = { violated: 0, errored: 0, conforms: 0, 'not-claimed': 0, 'not-run': 0, 'not-testable': 0 };
    for (const c of clauses) if (c.document === d.document) verdicts[c.verdict] += 1;
    return { document: d.document, prefix: d.prefix, title: d.title, verdicts };
  });

  const unexpected = scenarios
    .filter((s) => !MATCH_IS_OK[s.match])
    .map((s) => ({
      id: s.id,
      name: s.name,
      match: s.match,
      outcome: s.outcome,
      expected: s.expectation?.outcomes?.join(' or ') ?? s.expectation?.outcome ?? 'passed',
      ...(s.expectation ? { reason: s.expectation.reason, class: s.expectation.class } : {}),
      ...(s.outcome === 'failed' || s.outcome === 'errored' ? { observed: observedOf(s) } : {}),
    }));
  const problems: string[] = [];
  if (run.stoppedEarly) problems.push(`the run stopped early: ${run.stoppedEarly}; ${scenarios.filter((s) => s.skip?.capability === 'hang-guard').length} scenario(s) after it were not run`);
  if (!run.complete) problems.push('the run did not finish (no testRunFinished message): cucumber was interrupted or crashed');
  const count = (m: Match) => unexpected.filter((u) => u.match === m).length;
  const says: [Match, string][] = [
    ['unexpected-failure', 'unexpected failure(s)'],
    ['unexpected-error', 'unexpected error(s)'],
    ['unexpected-pass', 'unexpected pass(es): remove them from the expectations file'],
    ['unexpected-outcome', 'expected failure(s) with another outcome (failed instead of errored, or the other way round, or none of the outcomes an entry varies between)'],
  ];
  for (const [m, text] of says) if (count(m) > 0) problems.push(`${count(m)} ${text}`);
  if (judgement.invalid.length > 0) problems.push(`${judgement.invalid.length} invalid expectation entr${judgement.invalid.length === 1 ? 'y' : 'ies'}`);

  return {
    reportVersion: REPORT_VERSION,
    implementation: run.implementation ? { ...run.implementation, declared: true, ...undeclaredOf(run.implementation, scenarios) } : { name: 'unknown', version: 'unknown', capabilities: [], declared: false },
    run: {
      generatedAt: (o.now ?? new Date()).toISOString(),
      suiteVersion: o.suiteVersion,
      source: o.source,
      complete: run.complete,
      ...pick(run, ['startedAt', 'finishedAt', 'durationMs', 'processesStarted', 'stoppedEarly']),
      ...pick(run.tool, ['cucumber', 'runtime', 'os']),
    },
    expectations: { file: o.expectationsFile, implementation: o.expectations.implementation, entries: o.expectations.expected.length, ...classesOf(o.expectations) },
    verdict: { matchesExpectations: problems.length === 0, problems, unexpected, invalidExpectations: judgement.invalid, expectedButNotRun: judgement.notRun },
    totals,
    areas: [...areas.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([area, c]) => ({ area, ...c })),
    documents,
    clauses,
    scenarios: scenarios.sort((a, b) => compareIds(a.id, b.id)),
  };
}

/** What a failed or errored scenario showed: the failure's observed line, else its message. */
export function observedOf(s: Pick<ScenarioEntry, 'failure' | 'message'>): string {
  return s.failure?.observed ?? s.message ?? '';
}

/**
 * Each reading the implementation did not declare (seam/readings.ts), with
 * the scenarios skipped for it. Not a fault (features/INTERPRETATIONS.md,
 * Readings), but said once per reading, so no one mistakes a skip for a pass.
 */
function undeclaredOf(impl: ImplementationInfo, scenarios: readonly Pick<ScenarioEntry, 'skip'>[]): { undeclaredReadings?: UndeclaredReading[] } {
  const names = undeclaredReadings(impl.readings);
  if (names.length === 0) return {};
  const skippedFor = (name: string) => scenarios.filter((s) => (s.skip?.capabilities ?? (s.skip?.capability ? [s.skip.capability] : [])).some((c) => c.startsWith(`reading:${name}=`))).length;
  return { undeclaredReadings: names.map((name) => ({ name, question: READINGS[name].question, skipped: skippedFor(name) })) };
}

function classesOf(e: Expectations): { classes?: Record<string, number>; classesInferred?: number } {
  if (e.expected.length === 0) return {};
  const c = classCounts(e.expected);
  return { classes: Object.fromEntries(c.counts), classesInferred: c.inferred };
}

/**
 * Failed or errored scenarios grouped by cause: one fault often takes many
 * scenarios down the same way, so it is said once with a count. The key is
 * the message with process ids and sequence numbers blanked.
 */
export function groupByCause<T extends Pick<ScenarioEntry, 'errorKind' | 'message' | 'failure'>>(list: readonly T[]): { kind?: string; cause: string; scenarios: T[] }[] {
  const groups = new Map<string, { kind?: string; cause: string; scenarios: T[] }>();
  for (const s of list) {
    const cause = s.failure ? [s.failure.operation, s.failure.expected, s.failure.observed].filter(Boolean).join('\n') : s.message ?? '';
    const key = `${s.errorKind ?? ''}|${normalizeCause(cause)}`;
    const g = groups.get(key) ?? { ...(s.errorKind ? { kind: s.errorKind } : {}), cause, scenarios: [] };
    g.scenarios.push(s);
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.scenarios.length - a.scenarios.length);
}

const normalizeCause = (m: string) => m.replace(/\bpid \d+/g, 'pid …').replace(/\(seq \d+\)/g, '(seq …)');

/**
 * The failure's own clauses when they are cited by the scenario; a failure
 * that names only clauses the scenario does not cite is a frame check's
 * (steps/support/frame.ts: what must not happen, judged in every scenario),
 * charged to the clause it names; else every cited clause.
 */
function chargedClauses(cited: string[], named: string[] | undefined): string[] {
  const own = (named ?? []).filter((c) => cited.includes(c));
  if (own.length > 0) return own;
  return named !== undefined && named.length > 0 ? named : cited;
}

function clauseVerdict(c: Counts, cited: number, notTestable: boolean): ClauseVerdict {
  if (c.failed > 0) return 'violated';
  if (c.errored > 0) return 'errored';
  if (c.passed > 0) return 'conforms';
  if (c.skipped > 0) return 'not-claimed';
  if (cited === 0 && notTestable) return 'not-testable';
  return 'not-run';
}

let validator: ReturnType<typeof compileSchema> | undefined;

/** Throws when the report breaks its schema (a bug in this tool, never in the implementation). */
export function assertValidReport(report: unknown): asserts report is ConformanceReport {
  validator ??= compileSchema('conformance-report.schema.json');
  if (!validator(report)) throw new Error(`the conformance report breaks schemas/reports/conformance-report.schema.json (a bug in tools/lib/report.ts):\n${describeErrors(validator.errors)}`);
}

function pick<T extends object, K extends keyof T>(o: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** Skipped scenarios grouped by what would unlock them (every capability or reading they lack), most common first. */
export function skippedGroups(r: ConformanceReport): { total: number; groups: [string, number][] } {
  const skipped = r.scenarios.filter((s) => s.outcome === 'skipped');
  const groups = new Map<string, number>();
  for (const s of skipped) {
    const k = s.skip?.capabilities?.join(' + ') ?? s.skip?.capability ?? s.skip?.reason ?? 'no reason given';
    groups.set(k, (groups.get(k) ?? 0) + 1);
  }
  return { total: skipped.length, groups: [...groups].sort((a, b) => b[1] - a[1]) };
}

/** The listed scenarios known to vary between runs ('outcomes' entries) and the outcomes they took in this run, e.g. "3 known to vary (this run: 2 passed, 1 errored)"; '' when none ran. */
export function varyingNote(r: ConformanceReport): string {
  const varying = r.scenarios.filter((s) => s.expectation?.outcomes);
  if (varying.length === 0) return '';
  const took = new Map<string, number>();
  for (const s of varying) took.set(s.outcome, (took.get(s.outcome) ?? 0) + 1);
  return `${varying.length} known to vary between runs (this run: ${[...took].map(([o, n]) => `${n} ${o}`).join(', ')})`;
}

/** Why "not run" is not zero on a complete run: clauses an interpretation point decided against, which no scenario checks by design ('' when none). */
export function overruledNote(r: ConformanceReport): string {
  const overruled = r.clauses.filter((c) => c.verdict === 'not-run' && c.overruledBy);
  if (overruled.length === 0) return '';
  const notRun = r.clauses.filter((c) => c.verdict === 'not-run').length;
  const ips = [...new Set(overruled.map((c) => c.overruledBy!))].sort();
  return `"not run": ${overruled.length === notRun ? `all ${notRun}` : `${overruled.length} of the ${notRun}`} are clauses overruled by an interpretation point (${ips.join(', ')}; features/INTERPRETATIONS.md): a lower-authority sentence the suite decided against, so no scenario checks it, on any run.`;
}
