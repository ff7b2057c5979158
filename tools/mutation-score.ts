/**
 * The mutation score of reference/ over two Stryker runs: the conformance
 * scenarios (cucumber runner) and the engine's own unit, property and fuzz
 * tests (tap runner). A mutant is detected when either run killed it (or
 * timed it out); a mutant listed in test/mutation/equivalent-mutants.json
 * (an equivalent, or code nothing can observe, each with its reason) is left
 * out of the score and counted apart.
 *
 *   node -r ./tools/register.js tools/mutation-score.ts score SCENARIOS.json [PROPERTIES.json] [--properties-full] [--equivalents FILE] [--survivors OUT.md]
 *   node -r ./tools/register.js tools/mutation-score.ts ranges SCENARIOS.json [--equivalents FILE]
 *
 * `score` prints the score with the scenarios only, with the properties only
 * (when PROPERTIES.json covers every mutant: --properties-full), and with
 * both; the number of equivalent mutants and their classes; and writes the
 * mutants still alive to OUT.md. `ranges` prints, one a line, Stryker
 * `mutate` ranges (file:line:col-line:col) of the mutants the scenarios left
 * alive and no equivalent covers, for the second run.
 *
 * An equivalent is matched by what the mutant is, not by Stryker's id or line
 * number, so it outlives edits elsewhere in the file: the file, the mutator,
 * the replacement, the original code the mutant replaces and the text of the
 * line it starts on (trimmed). The same line text can occur in several
 * functions of a file (e.g. one loop in terminateJob and in teardown), and
 * then one entry would cover the mutant of each: an entry that names the
 * function (`within`) covers only the mutant in that function, and an entry
 * without it whose surviving matches lie in more than one function is
 * reported as ambiguous. An entry that matches no mutant, or matches one a
 * test killed, is reported (it is stale or wrong) and counts for nothing.
 *
 * Exit 0; 2 on an unreadable input.
 */
import * as fs from 'node:fs';
import * as ts from 'typescript';

export type Status = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

export interface Position { line: number; column: number }
export interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  location: { start: Position; end: Position };
  status: Status;
  killedBy?: string[];
}
export interface MutationReport {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}

export interface Equivalent {
  file: string;
  mutator: string;
  /** The trimmed text of the line the mutant starts on. */
  line: string;
  /** The code the mutant replaces. */
  original: string;
  replacement: string;
  /**
   * The name of the function the mutant is in (the innermost named function,
   * method or function-valued variable around it): when the same line text
   * occurs in several functions, the entry covers only the mutant in this one.
   */
  within?: string;
  /** A short name for the kind of equivalence (e.g. "defensive", "same-result", "unobservable-order"). */
  class: string;
  reason: string;
}

/** One mutant, described independently of Stryker's ids. */
export interface Mutant {
  file: string;
  mutator: string;
  line: string;
  original: string;
  replacement: string;
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
  status: Status;
  /** The innermost named function around the mutant ('' at top level). */
  within: string;
}

const DETECTED: Status[] = ['Killed', 'Timeout'];
const ALIVE: Status[] = ['Survived', 'NoCoverage'];

/** The span [start, end) of a report location (lines and columns 1-based) in `source`. */
function slice(source: string, loc: { start: Position; end: Position }): string {
  const lines = source.split('\n');
  const offset = (p: Position) => lines.slice(0, p.line - 1).reduce((n, l) => n + l.length + 1, 0) + p.column - 1;
  return source.slice(offset(loc.start), offset(loc.end));
}

/** The name of a function-like node, or of the variable, property or method it is the value of. */
function nameOf(node: ts.Node): string | undefined {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) && node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isFunctionExpression(node) || ts.isArrowFunction(node)) {
    if (node.name) return node.name.getText();
    const p = node.parent;
    if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.initializer === node) return p.name.getText();
  }
  return undefined;
}

/** For each mutant location of one file, the innermost named function around it ('' at top level). */
export function enclosingFunction(source: string, file = 'f.ts'): (line: number, column: number) => string {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const lines = source.split('\n');
  return (line, column) => {
    const pos = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
    let name = '';
    const visit = (node: ts.Node): void => {
      if (pos < node.getStart(sf) || pos >= node.getEnd()) return;
      name = nameOf(node) ?? name;
      ts.forEachChild(node, visit);
    };
    visit(sf);
    return name;
  };
}

export function mutantsOf(report: MutationReport): Mutant[] {
  const out: Mutant[] = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const lines = source.split('\n');
    let fnAt: ((line: number, column: number) => string) | undefined;
    for (const m of mutants) {
      fnAt ??= enclosingFunction(source, file);
      out.push({
        file: file.replace(/\\/g, '/'),
        mutator: m.mutatorName,
        line: (lines[m.location.start.line - 1] ?? '').trim(),
        original: slice(source, m.location),
        replacement: m.replacement ?? '',
        startLine: m.location.start.line,
        startColumn: m.location.start.column,
        endLine: m.location.end.line,
        endColumn: m.location.end.column,
        status: m.status,
        within: fnAt(m.location.start.line, m.location.start.column),
      });
    }
  }
  return out;
}

/** The id-independent key of a mutant (or of an equivalent entry). */
export const keyOf = (m: { file: string; mutator: string; line: string; original: string; replacement: string }) =>
  JSON.stringify([m.file, m.mutator, m.line, m.original, m.replacement]);

export interface Tally { detected: number; alive: number; covered: number; score: number; coveredScore: number }

function tally(statuses: Status[]): Tally {
  const detected = statuses.filter((s) => DETECTED.includes(s)).length;
  const alive = statuses.filter((s) => ALIVE.includes(s)).length;
  const covered = detected + statuses.filter((s) => s === 'Survived').length;
  const pct = (n: number, d: number) => (d === 0 ? 100 : (100 * n) / d);
  return { detected, alive, covered, score: pct(detected, detected + alive), coveredScore: pct(detected, covered) };
}

/** The entry that covers a mutant: one naming the mutant's function, else one naming no function. */
function equivalentIndex(equivalents: Equivalent[]): (m: Mutant) => Equivalent | undefined {
  const byKey = new Map<string, Equivalent[]>();
  for (const e of equivalents) byKey.set(keyOf(e), [...(byKey.get(keyOf(e)) ?? []), e]);
  return (m) => {
    const pool = byKey.get(keyOf(m)) ?? [];
    return pool.find((e) => e.within !== undefined && e.within === m.within) ?? pool.find((e) => e.within === undefined);
  };
}

/** An entry's identity: its key and the function it names. */
const entryId = (e: Equivalent) => JSON.stringify([keyOf(e), e.within ?? null]);

export interface Combined {
  mutants: number;
  equivalents: { entry: Equivalent; matched: number }[];
  /** Entries matching no mutant, or only mutants a test detected. */
  staleEquivalents: Equivalent[];
  /** Entries naming no function whose surviving matches lie in more than one function: each should name the one it was written for. */
  ambiguousEquivalents: { entry: Equivalent; functions: string[] }[];
  scenarios: Tally;
  properties?: Tally;
  both: Tally;
  /** Alive after both runs and listed as no equivalent. */
  survivors: Mutant[];
  /** Mutants in the scenarios run that the properties run did not test (only when it ran on survivors). */
  untested: number;
}

/**
 * Adds the runs up. A mutant the properties run did not test keeps the
 * scenarios run's status. Equivalents leave the score whatever the runs said,
 * unless a run detected the mutant (then the entry is wrong, and reported).
 */
export function combine(scenarios: MutationReport, properties: MutationReport | undefined, equivalents: Equivalent[], propertiesFull: boolean): Combined {
  const a = mutantsOf(scenarios);
  // The same mutant in the other run: same key and column, the nearest line (lines may have moved between the runs).
  const b = new Map<string, Mutant[]>();
  for (const m of properties ? mutantsOf(properties) : []) b.set(keyOf(m), [...(b.get(keyOf(m)) ?? []), m]);
  const twin = (m: Mutant): Mutant | undefined => {
    const pool = (b.get(keyOf(m)) ?? []).filter((x) => x.startColumn === m.startColumn);
    if (pool.length === 0) return undefined;
    const best = pool.reduce((x, y) => (Math.abs(y.startLine - m.startLine) < Math.abs(x.startLine - m.startLine) ? y : x));
    b.set(keyOf(m), b.get(keyOf(m))!.filter((x) => x !== best));
    return best;
  };
  const coveredBy = equivalentIndex(equivalents);
  const matched = new Map<string, number>();
  const functions = new Map<string, Set<string>>();
  const rows: { a: Status; b?: Status; both: Status; m: Mutant }[] = [];
  let untested = 0;
  for (const m of a) {
    if (m.status === 'Ignored' || m.status === 'CompileError' || m.status === 'Pending') continue;
    const other = twin(m)?.status;
    if (properties && other === undefined) untested++;
    const both: Status = DETECTED.includes(m.status) ? m.status : other && DETECTED.includes(other) ? other : m.status;
    const eq = coveredBy(m);
    if (eq && !DETECTED.includes(both)) {
      matched.set(entryId(eq), (matched.get(entryId(eq)) ?? 0) + 1);
      functions.set(entryId(eq), (functions.get(entryId(eq)) ?? new Set()).add(m.within));
      continue;
    }
    rows.push({ a: m.status, b: other, both, m });
  }
  return {
    mutants: a.length,
    equivalents: equivalents.filter((e) => matched.has(entryId(e))).map((entry) => ({ entry, matched: matched.get(entryId(entry))! })),
    staleEquivalents: equivalents.filter((e) => !matched.has(entryId(e))),
    ambiguousEquivalents: equivalents
      .filter((e) => e.within === undefined && (functions.get(entryId(e))?.size ?? 0) > 1)
      .map((entry) => ({ entry, functions: [...functions.get(entryId(entry))!].sort() })),
    scenarios: tally(rows.map((r) => r.a)),
    properties: properties && propertiesFull ? tally(rows.map((r) => r.b ?? 'NoCoverage')) : undefined,
    both: tally(rows.map((r) => r.both)),
    survivors: rows.filter((r) => ALIVE.includes(r.both)).map((r) => r.m),
    untested,
  };
}

/**
 * Stryker `mutate` ranges (lines 1-based, columns 0-based) of the mutants the
 * scenarios left alive. When a file has changed since the scenarios' run (other
 * work in the tree), each mutant is looked for on the line of the current file
 * with the same text nearest its old line; a mutant whose line is gone is left out.
 */
export function survivorRanges(scenarios: MutationReport, equivalents: Equivalent[], current: (file: string) => string | undefined = () => undefined): string[] {
  const coveredBy = equivalentIndex(equivalents);
  const out: string[] = [];
  for (const m of mutantsOf(scenarios)) {
    if (!ALIVE.includes(m.status) || coveredBy(m)) continue;
    let shift = 0;
    const now = current(m.file);
    if (now !== undefined && now !== scenarios.files[m.file]?.source) {
      const lines = now.split('\n').map((l) => l.trim());
      const candidates = lines.map((l, i) => (l === m.line ? i + 1 : -1)).filter((i) => i > 0);
      if (candidates.length === 0) continue;
      const nearest = candidates.reduce((a, b) => (Math.abs(b - m.startLine) < Math.abs(a - m.startLine) ? b : a));
      shift = nearest - m.startLine;
    }
    out.push(`${m.file}:${m.startLine + shift}:${m.startColumn - 1}-${m.endLine + shift}:${m.endColumn}`);
  }
  return [...new Set(out)];
}

const fmt = (t: Tally) => `${t.score.toFixed(2)}% (${t.detected} of ${t.detected + t.alive} detected; ${t.coveredScore.toFixed(2)}% of the ${t.covered} covered)`;

export function summary(c: Combined): string {
  const classes = new Map<string, number>();
  for (const { entry, matched } of c.equivalents) classes.set(entry.class, (classes.get(entry.class) ?? 0) + matched);
  const eqCount = c.equivalents.reduce((n, e) => n + e.matched, 0);
  const lines = [
    `mutation score of reference/ (${c.mutants} mutants, ${eqCount} listed as equivalent and left out):`,
    `  scenarios only:   ${fmt(c.scenarios)}`,
    `  properties only:  ${c.properties ? fmt(c.properties) : 'not measured (the properties ran on the scenarios\' survivors only; MUTATION_PROPERTIES=all measures it)'}`,
    `  both:             ${fmt(c.both)}`,
    `equivalent mutants: ${eqCount} (${[...classes].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}) from ${c.equivalents.length} entries of test/mutation/equivalent-mutants.json`,
    `surviving mutants not listed as equivalent: ${c.survivors.length}`,
  ];
  if (c.ambiguousEquivalents.length) lines.push(`equivalent entries covering mutants in several functions (name the one meant with "within"): ${c.ambiguousEquivalents.length}`, ...c.ambiguousEquivalents.map(({ entry: e, functions }) => `  ${e.file} ${e.mutator} ${JSON.stringify(e.original)} -> ${JSON.stringify(e.replacement)} on "${e.line}" in ${functions.join(', ')}`));
  if (c.staleEquivalents.length) lines.push(`equivalent entries matching no surviving mutant (stale or wrong): ${c.staleEquivalents.length}`, ...c.staleEquivalents.map((e) => `  ${e.file} ${e.mutator} ${JSON.stringify(e.original)} -> ${JSON.stringify(e.replacement)} on "${e.line}"`));
  return lines.join('\n');
}

export function survivorsMarkdown(c: Combined): string {
  const rows = c.survivors.map((m) => `| ${m.file}:${m.startLine}:${m.startColumn} | ${m.mutator} | \`${m.original.replace(/\n/g, ' ').replace(/\|/g, '\\|').slice(0, 80)}\` | \`${m.replacement.replace(/\n/g, ' ').replace(/\|/g, '\\|').slice(0, 80)}\` | ${m.status} |`);
  return [`# Surviving mutants (${c.survivors.length})`, '', '| where | mutator | original | replacement | status |', '| --- | --- | --- | --- | --- |', ...rows, ''].join('\n');
}

function readJson<T>(file: string): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (e) {
    console.error(`mutation-score: cannot read ${file}: ${(e as Error).message}`);
    process.exit(2);
  }
}

function main(argv: string[]): void {
  const [cmd, ...rest] = argv;
  const opt = (name: string) => {
    const i = rest.indexOf(name);
    if (i < 0) return undefined;
    const v = rest[i + 1];
    rest.splice(i, 2);
    return v;
  };
  const flag = (name: string) => {
    const i = rest.indexOf(name);
    if (i >= 0) rest.splice(i, 1);
    return i >= 0;
  };
  const eqFile = opt('--equivalents') ?? 'test/mutation/equivalent-mutants.json';
  const survivorsOut = opt('--survivors');
  const full = flag('--properties-full');
  const equivalents = fs.existsSync(eqFile) ? readJson<{ equivalents: Equivalent[] }>(eqFile).equivalents : [];
  if (cmd === 'ranges' && rest.length === 1) {
    const current = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
    for (const r of survivorRanges(readJson(rest[0]), equivalents, current)) console.log(r);
    return;
  }
  if (cmd === 'score' && (rest.length === 1 || rest.length === 2)) {
    const c = combine(readJson(rest[0]), rest[1] ? readJson(rest[1]) : undefined, equivalents, full);
    console.log(summary(c));
    if (survivorsOut) fs.writeFileSync(survivorsOut, survivorsMarkdown(c));
    return;
  }
  console.error('usage: mutation-score.ts score SCENARIOS.json [PROPERTIES.json] [--properties-full] [--equivalents FILE] [--survivors OUT.md] | ranges SCENARIOS.json [--equivalents FILE]');
  process.exit(2);
}

if (require.main === module) main(process.argv.slice(2));
