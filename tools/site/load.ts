/**
 * Everything a site is built from: the runs (conformance.json files, checked
 * against their schema), grouped by implementation in argument order; the
 * optional expectations file per implementation (its reasons and, when an
 * entry has one, its class); the clause registry; the feature files; and
 * the interpretation points.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { classOf, loadExpectations, matchOf, type Evidence, type Expectation, type Match } from '../lib/expectations';
import type { Outcome } from '../lib/outcomes';
import { loadRegistry, type Clause, type Registry } from '../lib/registry';
import { assertValidReport, type ConformanceReport, type ScenarioEntry } from '../lib/report';
import { loadScenarios, type ScenarioInfo } from '../lib/scenarios';
import { allScenarios, loadFeatures, type FeatureDoc, type ScenarioDoc } from './features';
import { loadInterpretationDoc, type InterpretationDoc } from './interpretations';

export interface Run {
  /** Position among all runs given (argument order). */
  index: number;
  file: string;
  report: ConformanceReport;
  /** "name version", plus the start time when the same implementation has several runs. */
  label: string;
  /** The run's scenarios under the ids the current feature files give them (see resolveIds). */
  scenarios: ScenarioEntry[];
  byId: Map<string, ScenarioEntry>;
  /** How many of the run's ids had moved (a feature file was edited since): matched by feature and scenario name. */
  moved: number;
  /** The run's scenarios the current feature files no longer have. */
  unknown: ScenarioEntry[];
}

export interface ExpectationNote {
  reason: string;
  /** The entry's class (schemas/reports/expectations.schema.json), given or inferred from the reason's first words. */
  class?: string;
  classInferred?: boolean;
  evidence?: Evidence;
  outcome?: string;
  /** From an --expect file: the entry, to judge the outcome against it. */
  entry?: Expectation;
}

export interface Implementation {
  name: string;
  /** In argument order; the last is the one the matrix shows. */
  runs: Run[];
  latest: Run;
  /** From --expect NAME=FILE, by scenario id. */
  expectations: Map<string, ExpectationNote>;
  expectationsFile?: string;
}

export interface SiteData {
  root: string;
  implementations: Implementation[];
  registry: Registry;
  clauses: Clause[];
  features: FeatureDoc[];
  scenarios: ScenarioDoc[];
  /** Scenario id -> the document scenario it belongs to. */
  scenarioOf: Map<string, ScenarioDoc>;
  /** Clause id -> the document scenarios citing it, each with the ids (Examples rows) that cite it. */
  citing: Map<string, { doc: ScenarioDoc; ids: string[] }[]>;
  interpretations: InterpretationDoc;
  /** Clause id -> the interpretation points bearing on it (a scenario tagged with both, a mention, overruledBy). */
  ipsOfClause: Map<string, string[]>;
  generated: string;
}

export function loadRun(file: string, index: number): Run {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read run ${file}: ${(e as Error).message}`);
  }
  try {
    assertValidReport(data);
  } catch (e) {
    throw new Error(`${file} is not a conformance report: ${(e as Error).message}`);
  }
  const report = data as ConformanceReport;
  return { index, file, report, label: `${report.implementation.name} ${report.implementation.version}`, scenarios: report.scenarios, byId: new Map(report.scenarios.map((s) => [s.id, s])), moved: 0, unknown: [] };
}

/**
 * Scenario ids are lines, and move when a feature file is edited; a run made
 * before the edit (a long live run) still names its scenarios by the old
 * lines. Each of its scenarios is placed under the current id: the same id
 * when it still names a scenario of that name, else the one scenario of the
 * same feature file with that name, else the same id if it still exists;
 * otherwise it is listed as unknown.
 */
export function resolveIds(run: Run, current: readonly ScenarioInfo[]): void {
  const byId = new Map(current.map((s) => [s.id, s]));
  const byName = new Map<string, string[]>();
  for (const s of current) byName.set(`${s.uri}\u0000${s.name}`, [...(byName.get(`${s.uri}\u0000${s.name}`) ?? []), s.id]);
  const scenarios: ScenarioEntry[] = [];
  run.moved = 0;
  run.unknown = [];
  for (const e of run.report.scenarios) {
    const uri = e.id.replace(/(:[0-9?]+)+$/, '');
    const named = byName.get(`${uri}\u0000${e.name}`) ?? [];
    if (byId.get(e.id)?.name === e.name) scenarios.push(e);
    else if (named.length === 1) {
      scenarios.push({ ...e, id: named[0] });
      run.moved += 1;
    } else if (byId.has(e.id)) scenarios.push(e);
    else run.unknown.push(e);
  }
  run.scenarios = scenarios;
  run.byId = new Map(scenarios.map((s) => [s.id, s]));
}

/** An expectations file (checked against its schema by tools/lib/expectations.ts), by scenario id. */
export function loadExpectationNotes(file: string): Map<string, ExpectationNote> {
  const out = new Map<string, ExpectationNote>();
  for (const e of loadExpectations(file).expected) out.set(e.id, noteOf(e, e));
  return out;
}

function noteOf(e: { reason: string; class?: string; classInferred?: boolean; evidence?: Evidence; outcome?: string; outcomes?: string[] }, entry?: Expectation): ExpectationNote {
  const c = e.class ? { class: e.class, inferred: e.classInferred === true } : classOf({ reason: e.reason });
  return {
    reason: e.reason,
    ...(c.class !== 'unclassified' ? { class: c.class, classInferred: c.inferred } : {}),
    ...(e.evidence ? { evidence: e.evidence } : {}),
    outcome: e.outcomes?.join(' or ') ?? e.outcome ?? 'failed',
    ...(entry ? { entry } : {}),
  };
}

export interface LoadOptions {
  root: string;
  runs: string[];
  /** Implementation name -> expectations file. */
  expect: Map<string, string>;
  now?: Date;
}

export function loadSite(o: LoadOptions): SiteData {
  if (o.runs.length === 0) throw new Error('give at least one conformance.json');
  const runs = o.runs.map((f, i) => loadRun(f, i));
  const byName = new Map<string, Run[]>();
  for (const r of runs) byName.set(r.report.implementation.name, [...(byName.get(r.report.implementation.name) ?? []), r]);
  for (const name of o.expect.keys()) if (!byName.has(name)) throw new Error(`--expect ${name}=…: no run is of an implementation named "${name}" (the runs are of: ${[...byName.keys()].join(', ')})`);
  const implementations: Implementation[] = [...byName].map(([name, list]) => {
    if (list.length > 1) for (const r of list) r.label = `${r.label} (${r.report.run.startedAt ?? r.report.run.generatedAt}, #${r.index + 1})`;
    const file = o.expect.get(name);
    return { name, runs: list, latest: list[list.length - 1], expectations: file ? loadExpectationNotes(file) : new Map(), ...(file ? { expectationsFile: file } : {}) };
  });

  const registry = loadRegistry(o.root);
  const clauses = [...registry.clauses.values()].filter((c) => !c.retired);
  const features = loadFeatures(o.root);
  const current = loadScenarios(o.root);
  for (const r of runs) resolveIds(r, current);
  const scenarios = features.flatMap(allScenarios);
  const scenarioOf = new Map<string, ScenarioDoc>();
  for (const s of scenarios) for (const id of s.ids) scenarioOf.set(id, s);
  const citing = new Map<string, { doc: ScenarioDoc; ids: string[] }[]>();
  for (const s of scenarios) {
    for (const c of tagged(s.effectiveTags, 'clause')) {
      const ids = s.ids.filter((id) => s.tagsOf[id].includes(`@clause:${c}`));
      citing.set(c, [...(citing.get(c) ?? []), { doc: s, ids }]);
    }
  }
  const interpretations = loadInterpretationDoc(o.root);

  const ipsOfClause = new Map<string, Set<string>>();
  const add = (c: string, ip: string) => {
    if (!interpretations.ids.has(ip)) return;
    ipsOfClause.set(c, (ipsOfClause.get(c) ?? new Set()).add(ip));
  };
  for (const s of scenarios) for (const tags of Object.values(s.tagsOf)) for (const ip of tagged(tags, 'interpretation')) for (const c of tagged(tags, 'clause')) add(c, ip);
  for (const entry of interpretations.entries) for (const m of entry.text.matchAll(/\b[A-Z]{2}\.[a-z0-9-]+(?:\.[a-z0-9-]+)+/g)) add(m[0], entry.id);
  for (const c of clauses) if (c.overruledBy) add(c.id, c.overruledBy);

  return {
    root: o.root,
    implementations,
    registry,
    clauses,
    features,
    scenarios,
    scenarioOf,
    citing,
    interpretations,
    ipsOfClause: new Map([...ipsOfClause].map(([c, s]) => [c, [...s].sort()])),
    generated: (o.now ?? new Date()).toISOString(),
  };
}

export const tagged = (tags: string[], prefix: string): string[] => tags.filter((t) => t.startsWith(`@${prefix}:`)).map((t) => t.slice(prefix.length + 2));

/** What the expectations say of a scenario in a run: the --expect file first, else what the report recorded. */
export function noteFor(impl: Implementation, run: Run, id: string): ExpectationNote | undefined {
  const fromFile = impl.expectations.get(id);
  if (fromFile) return fromFile;
  const e = run.byId.get(id)?.expectation;
  return e ? noteOf(e as Parameters<typeof noteOf>[0]) : undefined;
}

export const isBad = (o: Outcome | undefined) => o === 'failed' || o === 'errored';

export const rel = (root: string, file: string) => {
  const r = path.relative(root, file);
  return r.startsWith('..') ? file : r;
};

/** How a scenario's outcome compares with the expectations: judged against the --expect file when one was given for the implementation, else as the run recorded it. */
export function matchFor(impl: Implementation, s: ScenarioEntry): Match {
  if (!impl.expectationsFile) return s.match;
  return matchOf(s.outcome, impl.expectations.get(s.id)?.entry);
}
