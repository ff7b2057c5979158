/**
 * The benchmark's live section (scripts/bench.sh --prrte PREFIX): what a live
 * run against PRRTE costs beside the least it could cost, measured on this
 * machine in one run, and written to reports/bench-live.json.
 *
 *   bash scripts/bench.sh --only live --prrte PREFIX [--jobs N] [--live-parts floor,serial,parallel] [-- <cucumber args>]
 *
 * - the floor: one DVM started and stopped per scenario and nothing else, for
 *   exactly the DVMs a live run of the selection starts, N at a time (the
 *   parallel run's --jobs). The DVMs are the bridge's own: N bridge processes
 *   (harnesses/prrte/bridge.py, the command scripts/prrte-run.sh gives the
 *   suite), each sent `start` with a scenario's setup, then `stop`, as the
 *   suite's subprocess adapter sends them. Which DVMs those are comes from the
 *   same selection run in seconds against the reference engine described as
 *   the bridge describes itself (bench/live-setups-adapter.ts): the hooks skip
 *   a scenario on that description alone, and a scenario's setup is fixed
 *   before anything is answered.
 * - the serial live run: scripts/prrte-run.sh PREFIX --jobs 1, timed whole
 *   (agents built, smoke test, cucumber, reports), its reports in
 *   reports/bench-live/serial/.
 * - the parallel live run: the same with --jobs N (reports/bench-live/parallel/).
 * Printed side by side with their ratios to the floor; the outcomes of the
 * two runs are compared scenario by scenario.
 *
 * Arguments after `--` select the scenarios for all three (feature paths,
 * scenario ids as the reports print them, --name, --tags), exactly as
 * scripts/prrte-run.sh takes them.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection } from '../protocol/connection';
import type { Description } from '../seam/implementation';
import type { ClusterSetup } from '../seam/messages';

const ROOT = path.resolve(__dirname, '..');

export const LIVE_PARTS = ['floor', 'serial', 'parallel'] as const;
export type LivePart = (typeof LIVE_PARTS)[number];

export interface LiveOptions {
  prefix: string;
  /** How the prefix was given (for messages): "--prrte X" or "PRRTE_PREFIX=X". */
  given: string;
  jobs: number;
  parts: LivePart[];
  /** The selection, passed as they are to scripts/prrte-run.sh and the setups pass. */
  args: string[];
}

export interface LiveArgs {
  prrte?: string;
  jobs?: string;
  parts?: string;
  only?: string[];
  /** Everything after `--`. */
  rest: string[];
}

/**
 * The live section's options, from bench/run.ts's command line: undefined when
 * it is not asked for (no --prrte, and --only does not name it), an Error
 * saying why it cannot run when it is asked for wrongly. The prefix is only
 * named here, not checked (prefixProblem).
 */
export function liveOptions(a: LiveArgs, env: NodeJS.ProcessEnv, cpus: number): LiveOptions | Error | undefined {
  const asked = a.only ? a.only.includes('live') : a.prrte !== undefined;
  if (!asked) {
    const stray = [a.jobs !== undefined && '--jobs', a.parts !== undefined && '--live-parts', a.rest.length > 0 && 'arguments after --'].filter(Boolean);
    if (stray.length > 0) return new Error(`${stray.join(', ')} ${stray.length === 1 ? 'is' : 'are'} for the live section, which runs only when a PRRTE is given (--prrte PREFIX)${a.only ? ' and --only names it (--only live)' : ''}`);
    return undefined;
  }
  const prefix = a.prrte ?? env.PRRTE_PREFIX ?? '';
  const given = a.prrte !== undefined ? `--prrte ${a.prrte}` : `PRRTE_PREFIX=${env.PRRTE_PREFIX ?? ''}`;
  if (!prefix) return new Error('the live section cannot run: no PRRTE install was given (--prrte PREFIX, or set PRRTE_PREFIX; PREFIX an openpmix+prrte install with bin/prte and include/pmix.h, as scripts/prrte-build.sh makes one)');
  const jobs = a.jobs === undefined ? Math.max(2, cpus) : Number(a.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) return new Error(`--jobs must be a whole number of scenarios at once, 1 or more, not "${a.jobs}"`);
  const parts = a.parts === undefined ? [...LIVE_PARTS] : a.parts.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const unknown = parts.filter((p) => !(LIVE_PARTS as readonly string[]).includes(p));
  if (unknown.length > 0 || parts.length === 0) return new Error(`--live-parts takes ${LIVE_PARTS.join(', ')} (comma-separated), not "${a.parts}"`);
  if (parts.includes('parallel') && jobs < 2) return new Error('the parallel live run needs --jobs 2 or more (--jobs 1 is the serial run)');
  return { prefix, given, jobs, parts: parts as LivePart[], args: a.rest };
}

/** Why `prefix` is not an openpmix+prrte install (scripts/prrte-run.sh's own check), or undefined if it is one. */
export function prefixProblem(prefix: string, given: string, exists: (p: string) => boolean = fs.existsSync): string | undefined {
  const missing = ['bin/prte', 'include/pmix.h'].filter((p) => !exists(path.join(prefix, p)));
  if (missing.length === 0) return undefined;
  if (!exists(prefix)) return `the live section cannot run: ${given}: no such directory`;
  return `the live section cannot run: ${given} is not an openpmix+prrte install (${missing.join(' and ')} missing there); build one with scripts/prrte-build.sh`;
}

/** Why this process cannot make the private network and UTS namespaces the bridge gives each DVM, or undefined. */
function namespaceProblem(): string | undefined {
  const r = spawnSync('unshare', ['-n', '-u', 'true'], { encoding: 'utf8' });
  if (r.status === 0) return undefined;
  return `the live section cannot run: the bridge gives each DVM its own network and UTS namespaces, and \`unshare -n -u\` fails here (${(r.error?.message ?? r.stderr ?? '').trim() || `exit ${r.status}`}); run as root or with CAP_SYS_ADMIN`;
}

/**
 * `items` through `fn`, at most `workers` at a time, each worker taking the
 * next item as it becomes free (as cucumber's --parallel hands out
 * scenarios); results in the items' order.
 */
export async function runPool<T, R>(items: readonly T[], workers: number, fn: (item: T, worker: number, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (w: number): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], w, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, (_, w) => worker(w)));
  return out;
}

export const median = (xs: number[]): number | undefined => (xs.length === 0 ? undefined : [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]);
const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 300);

/** The bridge's command line, as scripts/prrte-run.sh gives it to the suite. */
const bridgeArgv = (prefix: string, agents: string) => ['python3', 'harnesses/prrte/bridge.py', `--prefix=${prefix}`, `--agents=${agents}`];

/** The agents, built as scripts/prrte-run.sh builds them for its run (harnesses/prrte/agents/Makefile), into `out`. */
function buildAgents(prefix: string, out: string): { wallS: number; error?: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('make', ['-s', '-C', 'harnesses/prrte/agents', `PMIX_PREFIX=${prefix}`, `OUT=${out}`, 'all'], { cwd: ROOT, encoding: 'utf8' });
  return { wallS: seconds(t0), ...(r.status === 0 ? {} : { error: `building the agents failed (exit ${r.status}): ${(r.stderr || r.stdout).trim().slice(-500)}` }) };
}

/** The bridge's handshake answer: what it declares on this install. */
async function bridgeDescription(prefix: string, agents: string): Promise<Description> {
  const c = await Connection.open({ argv: bridgeArgv(prefix, agents), cwd: ROOT, timeoutMs: 60_000 });
  c.close();
  return c.description;
}

export interface Totals {
  scenarios: number;
  passed?: number;
  failed?: number;
  skipped?: number;
  errored?: number;
}

interface Report {
  totals: Totals;
  verdict?: { matchesExpectations?: boolean };
  scenarios: { id: string; outcome: string }[];
}

const readReport = (dir: string): Report | undefined => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'conformance.json'), 'utf8')) as Report;
  } catch {
    return undefined;
  }
};

export interface Selection {
  /** Scenarios selected, run (not skipped), skipped for what the bridge declares. */
  selected: number;
  run: number;
  skipped: number;
  /** DVMs the selection starts: one per scenario that reaches an action. */
  setups: ClusterSetup[];
  wallS: number;
  error?: string;
}

/** The selection against the reference engine described as the bridge (bench/live-setups-adapter.ts): what runs, and the DVMs it starts. */
function selection(description: Description, args: string[], work: string): Selection {
  const descFile = path.join(work, 'description.json');
  const setupsFile = path.join(work, 'setups.ndjson');
  const reports = path.join(work, 'setups-run');
  fs.writeFileSync(descFile, JSON.stringify(description));
  fs.writeFileSync(setupsFile, '');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    ['-r', './tools/register.js', 'tools/cli.ts', 'run', '--adapter', 'bench/live-setups-adapter.ts', '--reports', reports, '--', ...args],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', PMIX_BENCH_LIVE_DESCRIPTION: descFile, PMIX_BENCH_LIVE_SETUPS: setupsFile } },
  );
  const wallS = seconds(t0);
  const report = readReport(reports);
  const setups = fs.readFileSync(setupsFile, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as ClusterSetup);
  if (!report) return { selected: 0, run: 0, skipped: 0, setups, wallS, error: `the selection could not be run against the reference engine (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-5).join(' | ')}` };
  const t = report.totals;
  return { selected: t.scenarios, run: t.scenarios - (t.skipped ?? 0), skipped: t.skipped ?? 0, setups, wallS };
}

export interface FloorFigure {
  jobs: number;
  dvms: number;
  /** From the first bridge started to the last `stop` answered. */
  wallS: number;
  bridgeProcesses: number;
  startS: { median?: number; max?: number };
  stopS: { median?: number; max?: number };
  failures: { setup: number; error: string }[];
}

/**
 * The floor: every setup's DVM started and stopped through the bridge,
 * `jobs` bridges at a time, one connection per worker reused as the suite's
 * subprocess adapter reuses an implementation process whose scenario ended
 * cleanly.
 */
async function measureFloor(prefix: string, agents: string, setups: ClusterSetup[], jobs: number): Promise<FloorFigure> {
  const argv = bridgeArgv(prefix, agents);
  const connections: (Connection | undefined)[] = [];
  let opened = 0;
  const t0 = process.hrtime.bigint();
  const results = await runPool(setups, jobs, async (setup, w) => {
    try {
      let c = connections[w];
      if (!c || !c.alive) {
        opened++;
        c = connections[w] = await Connection.open({ argv, cwd: ROOT, timeoutMs: 120_000 });
      }
      const a = process.hrtime.bigint();
      let failed: unknown;
      await c.request('start', setup).catch((e: unknown) => (failed = e ?? 'start failed'));
      const startS = seconds(a);
      // A start that failed may have left part of a DVM: the bridge's stop ends whatever there is.
      const b = process.hrtime.bigint();
      if (c.alive && !c.busy) await c.request('stop', {});
      const stopS = seconds(b);
      if (failed !== undefined) throw failed;
      return { startS, stopS };
    } catch (e) {
      const c = connections[w];
      if (c?.alive && c.busy) c.kill();
      return { error: errorText(e) };
    }
  });
  const wallS = seconds(t0);
  for (const c of connections) c?.close();
  const ok = results.filter((r): r is { startS: number; stopS: number } => !('error' in r));
  const stat = (xs: number[]) => ({ median: median(xs), max: xs.length ? Math.max(...xs) : undefined });
  return {
    jobs,
    dvms: setups.length,
    wallS,
    bridgeProcesses: opened,
    startS: stat(ok.map((r) => r.startS)),
    stopS: stat(ok.map((r) => r.stopS)),
    failures: results.flatMap((r, i) => ('error' in r ? [{ setup: i, error: r.error as string }] : [])),
  };
}

export interface RunFigure {
  jobs: number;
  wallS: number;
  exit: number | null;
  /** scripts/prrte-run.sh's reports and output. */
  reports: string;
  log: string;
  totals?: Totals;
  matchesExpectations?: boolean;
  outcomes?: Record<string, string>;
  error?: string;
}

/** One whole live run of the selection: scripts/prrte-run.sh, timed from outside. */
function liveRun(o: LiveOptions, jobs: number, name: string): RunFigure {
  const out = path.join(ROOT, 'reports', 'bench-live');
  fs.mkdirSync(out, { recursive: true });
  const reports = path.join(out, name);
  const log = path.join(out, `${name}.log`);
  // The previous bench's reports go first: only this run's may count.
  fs.rmSync(reports, { recursive: true, force: true });
  const fd = fs.openSync(log, 'w');
  const t0 = process.hrtime.bigint();
  const r = spawnSync('bash', ['scripts/prrte-run.sh', o.prefix, '--jobs', String(jobs), ...o.args], {
    cwd: ROOT,
    env: { ...process.env, PRRTE_REPORTS: reports },
    stdio: ['ignore', fd, fd],
  });
  const wallS = seconds(t0);
  fs.closeSync(fd);
  const rel = (p: string) => path.relative(ROOT, p);
  const fig: RunFigure = { jobs, wallS, exit: r.status, reports: rel(reports), log: rel(log) };
  const report = readReport(reports);
  if (!report) return { ...fig, error: `no report from this run (exit ${r.status}${whyNoReport(fs.readFileSync(log, 'utf8'))}; see ${rel(log)})` };
  return {
    ...fig,
    totals: report.totals,
    matchesExpectations: report.verdict?.matchesExpectations,
    outcomes: Object.fromEntries(report.scenarios.map((s) => [s.id, s.outcome])),
  };
}

/** What the run's own output says stopped it (pmix-conformance's "nothing was run: ..." and its first reason), as a clause for the table. */
export function whyNoReport(log: string): string {
  const lines = log.split('\n');
  const i = lines.findIndex((l) => /^pmix-conformance: /.test(l));
  if (i < 0) return '';
  const said = [lines[i], lines[i + 1] ?? ''].map((l) => l.replace(/^pmix-conformance: /, '').trim()).filter((l) => l !== '').join(' ');
  return `: ${said.length > 300 ? `${said.slice(0, 300)}…` : said}`;
}

/** The scenarios whose outcome differs between two runs (one absent from a run counts as "not run"). */
export function outcomeDifferences(a: Record<string, string>, b: Record<string, string>): { id: string; a: string; b: string }[] {
  const ids = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return ids.filter((id) => a[id] !== b[id]).map((id) => ({ id, a: a[id] ?? 'not run', b: b[id] ?? 'not run' }));
}

export interface LiveResult {
  machine: { cpus: number; model?: string; loadavg: number[] };
  date: string;
  prefix: string;
  jobs: number;
  selection: { args: string[]; selected: number; run: number; skipped: number; dvms: number; passS: number; error?: string };
  agentsBuildS?: number;
  floor?: FloorFigure;
  serial?: Omit<RunFigure, 'outcomes'>;
  parallel?: Omit<RunFigure, 'outcomes'>;
  ratios: { serialOverFloor?: number; parallelOverFloor?: number; serialOverParallel?: number };
  /** Serial against parallel, scenario by scenario (both runs made). */
  outcomesDiffer?: { id: string; serial: string; parallel: string }[];
  /** Load average (1, 5, 15 min) as each part began and as the section ended: the machine is shared. */
  load: Record<string, number[]>;
  elapsedS: number;
}

export function ratios(floorS?: number, serialS?: number, parallelS?: number): LiveResult['ratios'] {
  const over = (a?: number, b?: number) => (a !== undefined && b !== undefined && b > 0 ? a / b : undefined);
  return { serialOverFloor: over(serialS, floorS), parallelOverFloor: over(parallelS, floorS), serialOverParallel: over(serialS, parallelS) };
}

const totalsText = (t?: Totals) => (t ? `${t.scenarios} scenarios: ${['passed', 'failed', 'errored', 'skipped'].map((k) => `${t[k as keyof Totals] ?? 0} ${k}`).join(', ')}` : '');

/** The live section's table. */
export function liveTable(r: LiveResult): string {
  const f = (x: number | undefined, d = 1) => (x === undefined || Number.isNaN(x) ? '?' : x.toFixed(d));
  const s = r.selection;
  const out = [
    '',
    `live: PRRTE ${r.prefix}, ${r.jobs} at a time; selection: ${s.args.length ? s.args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ') : 'the whole suite'}`,
    `  ${s.selected} scenarios selected, ${s.run} run (${s.skipped} skipped for what the bridge declares), ${s.dvms} DVMs started (setups from the reference engine described as the bridge, ${f(s.passS)} s)`,
  ];
  if (s.error) out.push(`  selection: ${s.error}`);
  const row = (name: string, wall: string, ratio: string, note = '') => out.push(`  ${name.padEnd(52)} ${wall.padStart(9)} ${ratio.padStart(9)}${note ? `  ${note}` : ''}`);
  row('', 'wall s', '/ floor');
  if (r.floor) {
    const fl = r.floor;
    row(`floor: ${fl.dvms} DVMs started and stopped, ${fl.jobs} at a time`, f(fl.wallS), '1.00x', `start median ${f(fl.startS.median, 2)} s (max ${f(fl.startS.max, 2)}), stop median ${f(fl.stopS.median, 2)} s (max ${f(fl.stopS.max, 2)})`);
    if (fl.failures.length > 0) out.push(`    ${fl.failures.length} of them failed, first: ${fl.failures[0].error}`);
  }
  const run = (label: string, x?: Omit<RunFigure, 'outcomes'>, ratio?: number) => {
    if (!x) return;
    row(label, f(x.wallS), ratio === undefined ? '' : `${f(ratio, 2)}x`, x.error ?? `${totalsText(x.totals)}; exit ${x.exit}${x.matchesExpectations === undefined ? '' : x.matchesExpectations ? ', as expected' : ', not as expected'}`);
  };
  run('serial live run (scripts/prrte-run.sh --jobs 1)', r.serial, r.ratios.serialOverFloor);
  run(`parallel live run (scripts/prrte-run.sh --jobs ${r.jobs})`, r.parallel, r.ratios.parallelOverFloor);
  if (r.ratios.serialOverParallel !== undefined) row('serial / parallel', '', `${f(r.ratios.serialOverParallel, 2)}x`);
  if (r.outcomesDiffer) {
    if (r.outcomesDiffer.length === 0) out.push('  outcomes: serial and parallel agree on every scenario');
    else {
      out.push(`  outcomes: ${r.outcomesDiffer.length} scenario(s) differ between serial and parallel:`);
      for (const d of r.outcomesDiffer.slice(0, 20)) out.push(`    ${d.id}: serial ${d.serial}, parallel ${d.parallel}`);
      if (r.outcomesDiffer.length > 20) out.push(`    ... and ${r.outcomesDiffer.length - 20} more (reports/bench-live.json)`);
    }
  }
  if (r.agentsBuildS !== undefined) out.push(`  (the agents' build, which each live run also makes: ${f(r.agentsBuildS)} s)`);
  out.push(`  load average as each part began: ${Object.entries(r.load).map(([k, v]) => `${k} ${v.map((x) => x.toFixed(2)).join('/')}`).join('; ')}`);
  return out.join('\n');
}

/** The live section: measured, printed, written to reports/bench-live.json. Throws (a plain reason) when it cannot run. */
export async function liveSection(o: LiveOptions): Promise<LiveResult> {
  const problem = prefixProblem(o.prefix, o.given) ?? namespaceProblem();
  if (problem) throw new Error(problem);
  const started = Date.now();
  const load: Record<string, number[]> = {};
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-bench-live-'));
  const say = (m: string) => console.log(`live: ${m}`);
  try {
    load.start = os.loadavg();
    const agents = path.join(work, 'agents');
    const build = buildAgents(o.prefix, agents);
    if (build.error) throw new Error(`the live section cannot run: ${build.error}`);
    const description = await bridgeDescription(o.prefix, agents);
    say(`the bridge declares ${description.capabilities.join(', ')}`);
    const sel = selection(description, o.args, work);
    if (sel.error) throw new Error(`the live section cannot run: ${sel.error}`);
    say(`${sel.selected} scenarios selected, ${sel.run} run, ${sel.setups.length} DVMs started (${sel.wallS.toFixed(1)} s against the reference engine)`);
    const result: LiveResult = {
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg() },
      date: new Date().toISOString(),
      prefix: o.prefix,
      jobs: o.jobs,
      selection: { args: o.args, selected: sel.selected, run: sel.run, skipped: sel.skipped, dvms: sel.setups.length, passS: sel.wallS },
      agentsBuildS: build.wallS,
      ratios: {},
      load,
      elapsedS: 0,
    };
    if (o.parts.includes('floor')) {
      load.floor = os.loadavg();
      say(`floor: ${sel.setups.length} DVMs, ${o.jobs} at a time ...`);
      result.floor = await measureFloor(o.prefix, agents, sel.setups, o.jobs);
      say(`floor: ${result.floor.wallS.toFixed(1)} s`);
    }
    let serial: RunFigure | undefined;
    let parallel: RunFigure | undefined;
    if (o.parts.includes('serial')) {
      load.serial = os.loadavg();
      say('serial live run (--jobs 1) ... (log: reports/bench-live/serial.log)');
      serial = liveRun(o, 1, 'serial');
      say(`serial: ${serial.wallS.toFixed(1)} s, ${serial.error ?? totalsText(serial.totals)}`);
    }
    if (o.parts.includes('parallel')) {
      load.parallel = os.loadavg();
      say(`parallel live run (--jobs ${o.jobs}) ... (log: reports/bench-live/parallel.log)`);
      parallel = liveRun(o, o.jobs, 'parallel');
      say(`parallel: ${parallel.wallS.toFixed(1)} s, ${parallel.error ?? totalsText(parallel.totals)}`);
    }
    load.end = os.loadavg();
    const strip = (x?: RunFigure) => (x ? (({ outcomes: _o, ...rest }) => rest)(x) : undefined);
    result.serial = strip(serial);
    result.parallel = strip(parallel);
    result.ratios = ratios(result.floor?.wallS, serial?.wallS, parallel?.wallS);
    if (serial?.outcomes && parallel?.outcomes) result.outcomesDiffer = outcomeDifferences(serial.outcomes, parallel.outcomes).map((d) => ({ id: d.id, serial: d.a, parallel: d.b }));
    for (const [name, run] of [['serial', serial], ['parallel', parallel]] as const) {
      if (run?.totals && run.totals.scenarios - (run.totals.skipped ?? 0) !== sel.run) say(`note: the ${name} run ran ${run.totals.scenarios - (run.totals.skipped ?? 0)} scenarios, the selection pass ${sel.run} (a scenario skipped after it began?)`);
    }
    result.elapsedS = (Date.now() - started) / 1000;
    const reports = path.join(ROOT, 'reports');
    fs.mkdirSync(reports, { recursive: true });
    fs.writeFileSync(path.join(reports, 'bench-live.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(liveTable(result));
    console.log(`\nwritten: reports/bench-live.json${serial || parallel ? ', the runs\' reports and logs in reports/bench-live/' : ''} (${result.elapsedS.toFixed(0)} s)`);
    return result;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
