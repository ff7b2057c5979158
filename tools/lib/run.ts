/**
 * A whole run, read from cucumber's message stream (the `message`
 * formatter's ndjson): who was tested (the implementation attachment the
 * hooks emit), the run's metadata, and one classified result per scenario
 * under its stable id (tools/lib/scenarios.ts: `uri:line[:examplesRowLine]`).
 */
import * as fs from 'node:fs';
import { classifyScenario, parseFailure, type Classified, type FailureFields, type StepResult } from './outcomes';

/** Media types of the attachments steps/support/hooks.ts emits (repeated there: it cannot be imported here). */
export const SKIP_MEDIA_TYPE = 'application/vnd.pmix-conformance.skip+json';
export const IMPLEMENTATION_MEDIA_TYPE = 'application/vnd.pmix-conformance.implementation+json';
export const PROCESS_MEDIA_TYPE = 'application/vnd.pmix-conformance.processes+json';
/** steps/support/hang-guard.ts: the run stopped early, and why ({ verdict }). */
export const STOPPED_MEDIA_TYPE = 'application/vnd.pmix-conformance.stopped+json';

export interface ImplementationInfo {
  name: string;
  version: string;
  capabilities: string[];
  /** The readings it declared (seam/readings.ts). */
  readings?: Record<string, string>;
  /** The adapter module, relative to the directory the suite ran in. */
  adapter?: string;
  /** Its effects trail its answers (seam/implementation.ts): claims were judged once it had settled. */
  effectsTrailAnswers?: boolean;
  quietMs?: number;
}

export interface SkipReason {
  reason: string;
  /** The first capability it lacks (older runs name only this one). */
  capability?: string;
  /** Every capability (or reading) it lacks. */
  capabilities?: string[];
}

export interface ScenarioRun extends Classified {
  id: string;
  uri: string;
  name: string;
  tags: string[];
  /** Parsed from a ConformanceFailure message. */
  failure?: FailureFields;
  skip?: SkipReason;
  durationMs: number;
}

export interface RunInfo {
  implementation?: ImplementationInfo;
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
  /** Cucumber's own verdict (false as soon as any scenario did not pass). */
  cucumberSuccess?: boolean;
  /** Wire adapters: implementation processes started during the run (1 + restarts after faults). */
  processesStarted?: number;
  /** The hang guard stopped the run: which request kind never answered (steps/support/hang-guard.ts). */
  stoppedEarly?: string;
  /** testRunFinished arrived: the run was not cut short. */
  complete: boolean;
  tool: { cucumber?: string; runtime?: string; os?: string };
  scenarios: ScenarioRun[];
}

interface Timestamp {
  seconds: number | string;
  nanos: number;
}
const millis = (t: Timestamp) => Number(t.seconds) * 1000 + Math.round(t.nanos / 1e6);
const iso = (t: Timestamp) => new Date(millis(t)).toISOString();

interface AstNode {
  id?: string;
  location?: { line: number };
  scenario?: AstNode & { examples: { tableBody: (AstNode & { id: string })[] }[] };
  rule?: { children: AstNode[] };
  background?: AstNode;
}

const SKIPPED_PREFIXES = ['{"testStepStarted"', '{"source"', '{"stepDefinition"', '{"hook"', '{"parameterType"'];

export function readRun(ndjsonPath: string): RunInfo {
  return parseRun(fs.readFileSync(ndjsonPath, 'utf8'));
}

export function parseRun(ndjson: string): RunInfo {
  const astLines = new Map<string, number>();
  const pickles = new Map<string, { uri: string; name: string; tags: string[]; astNodeIds: string[] }>();
  const caseToPickle = new Map<string, string>();
  const started = new Map<string, { testCaseId: string; at: number }>();
  // The last attempt of each test case (a retried scenario counts by its last attempt).
  const attemptOf = new Map<string, string>();
  const steps = new Map<string, StepResult[]>();
  const finishedAt = new Map<string, number>();
  const skips = new Map<string, SkipReason>();
  const run: RunInfo = { complete: false, tool: {}, scenarios: [] };
  let runStart: Timestamp | undefined;

  for (const line of ndjson.split('\n')) {
    // Half the stream is testStepStarted, and the sources are large: skip what is not read without parsing it.
    if (line.trim() === '' || SKIPPED_PREFIXES.some((p) => line.startsWith(p))) continue;
    const env = JSON.parse(line);
    if (env.meta) {
      run.tool = { cucumber: env.meta.implementation?.version, runtime: `${env.meta.runtime?.name} ${env.meta.runtime?.version}`, os: `${env.meta.os?.name} ${env.meta.os?.version ?? ''}`.trim() };
    } else if (env.gherkinDocument) {
      indexAst(env.gherkinDocument.feature?.children ?? [], astLines);
    } else if (env.pickle) {
      const p = env.pickle;
      pickles.set(p.id, { uri: p.uri, name: p.name, tags: p.tags.map((t: { name: string }) => t.name), astNodeIds: p.astNodeIds });
    } else if (env.testCase) {
      caseToPickle.set(env.testCase.id, env.testCase.pickleId);
    } else if (env.testCaseStarted) {
      const s = env.testCaseStarted;
      started.set(s.id, { testCaseId: s.testCaseId, at: millis(s.timestamp) });
      attemptOf.set(s.testCaseId, s.id);
      steps.set(s.id, []);
    } else if (env.testStepFinished) {
      steps.get(env.testStepFinished.testCaseStartedId)?.push(env.testStepFinished.testStepResult);
    } else if (env.testCaseFinished) {
      finishedAt.set(env.testCaseFinished.testCaseStartedId, millis(env.testCaseFinished.timestamp));
    } else if (env.attachment) {
      const a = env.attachment;
      if (a.mediaType === IMPLEMENTATION_MEDIA_TYPE && !run.implementation) run.implementation = decode(a) as ImplementationInfo;
      else if (a.mediaType === SKIP_MEDIA_TYPE && a.testCaseStartedId) skips.set(a.testCaseStartedId, decode(a) as SkipReason);
      else if (a.mediaType === STOPPED_MEDIA_TYPE && !run.stoppedEarly) run.stoppedEarly = (decode(a) as { verdict: string }).verdict;
      else if (a.mediaType === PROCESS_MEDIA_TYPE) run.processesStarted = Math.max(run.processesStarted ?? 0, (decode(a) as { processesStarted: number }).processesStarted);
    } else if (env.testRunStarted) {
      runStart = env.testRunStarted.timestamp;
      run.startedAt = iso(runStart!);
    } else if (env.testRunFinished) {
      run.complete = true;
      run.cucumberSuccess = env.testRunFinished.success;
      run.finishedAt = iso(env.testRunFinished.timestamp);
      if (runStart) run.durationMs = millis(env.testRunFinished.timestamp) - millis(runStart);
    }
  }

  for (const [testCaseId, startedId] of attemptOf) {
    const pickleId = caseToPickle.get(testCaseId);
    const pickle = pickleId ? pickles.get(pickleId) : undefined;
    if (!pickle) continue;
    const c = classifyScenario(steps.get(startedId) ?? []);
    const begin = started.get(startedId)!.at;
    const end = finishedAt.get(startedId);
    const scenario: ScenarioRun = {
      id: stableId(pickle.uri, pickle.astNodeIds, astLines),
      uri: pickle.uri,
      name: pickle.name,
      tags: pickle.tags,
      ...c,
      durationMs: end === undefined ? 0 : end - begin,
    };
    if (c.outcome === 'failed' && c.message) {
      const f = parseFailure(c.message);
      if (f) scenario.failure = f;
    }
    if (c.outcome === 'skipped') scenario.skip = skips.get(startedId) ?? { reason: 'skipped without a stated reason' };
    run.scenarios.push(scenario);
  }
  run.scenarios.sort((a, b) => compareIds(a.id, b.id));
  return run;
}

/** The same id tools/lib/scenarios.ts gives: the scenario's line, plus the Examples row's line for an outline. */
function stableId(uri: string, astNodeIds: string[], lines: Map<string, number>): string {
  const scenarioLine = lines.get(astNodeIds[0]);
  const rowLine = astNodeIds.length > 1 ? lines.get(astNodeIds[astNodeIds.length - 1]) : undefined;
  return `${uri}:${scenarioLine ?? '?'}${rowLine !== undefined ? `:${rowLine}` : ''}`;
}

function indexAst(children: AstNode[], lines: Map<string, number>): void {
  for (const child of children) {
    if (child.scenario) {
      lines.set(child.scenario.id!, child.scenario.location!.line);
      for (const ex of child.scenario.examples) for (const row of ex.tableBody) lines.set(row.id, row.location!.line);
    }
    if (child.rule) indexAst(child.rule.children, lines);
  }
}

function decode(a: { body: string; contentEncoding?: string }): unknown {
  const text = a.contentEncoding === 'BASE64' ? Buffer.from(a.body, 'base64').toString('utf8') : a.body;
  return JSON.parse(text);
}

/** Order ids by file, then numerically by line (and row line). */
export function compareIds(a: string, b: string): number {
  const pa = splitId(a);
  const pb = splitId(b);
  if (pa.uri !== pb.uri) return pa.uri < pb.uri ? -1 : 1;
  for (let i = 0; i < Math.max(pa.lines.length, pb.lines.length); i++) {
    const d = (pa.lines[i] ?? -1) - (pb.lines[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

function splitId(id: string): { uri: string; lines: number[] } {
  const m = /^(.*?)((?::\d+)+)$/.exec(id);
  if (!m) return { uri: id, lines: [] };
  return { uri: m[1], lines: m[2].slice(1).split(':').map(Number) };
}
