/**
 * The benchmark (scripts/bench.sh, npm run bench): measures, in one run on
 * this machine, the figures issue 10 names, as ratios; prints a table and
 * writes reports/bench.json and reports/bench.svg. A benchmark, not a test:
 * nothing fails on a number.
 *
 *   node -r ./tools/register.js bench/run.ts [--reps 3] [--skip-suite] [--only suite,engine,properties,bounds]
 *        [--engine-args "--nodes 2000 --calls 100"] [--baseline <git revision>[,<revision>...]]
 *        [--prrte PREFIX [--jobs N] [--live-parts floor,serial,parallel] [-- <cucumber args>]]
 *
 * With --prrte (or --only live, the prefix then from PRRTE_PREFIX), the live
 * section too (bench/live.ts): a live run against that PRRTE, serial and
 * --jobs N, beside its floor (one DVM started and stopped per scenario,
 * N at a time); reports/bench-live.json. It measures this tree only.
 *
 * Wall time is noisy on a shared machine: every suite command runs --reps
 * times and the median is reported, with its CPU time (user+sys, children
 * included, from /usr/bin/time). With --baseline, the same figures are
 * measured for that revision too, side by side in this run: its tree is
 * extracted (git archive) to a temporary folder that uses this checkout's
 * node_modules, the runs of the two trees alternate, and the table shows
 * before, after and after/before. A baseline without bench/engine.ts gets
 * this one (its engine must take the same constructor).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadScenarios } from '../tools/lib/scenarios';
import { echoRoundTripUs, engineShare, requestCount } from './bounds';
import { renderSvg } from './svg';
import { liveOptions, liveSection, prefixProblem, type LiveOptions } from './live';

const ROOT = path.resolve(__dirname, '..');
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

interface Timed {
  wallS: number;
  cpuS?: number;
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Run a command; wall time from here, CPU time (user+sys, children included) from /usr/bin/time when present. */
function timed(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Timed {
  const marker = '__BENCH_TIME__';
  const cmd = TIME ? [TIME, '-f', `${marker} %U %S`, ...argv] : argv;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd[0], cmd.slice(1), { cwd, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', ...env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const m = new RegExp(`${marker} ([\\d.]+) ([\\d.]+)`).exec(r.stderr ?? '');
  return { wallS, ...(m ? { cpuS: Number(m[1]) + Number(m[2]) } : {}), stdout: r.stdout ?? '', stderr: r.stderr ?? '', status: r.status };
}

const cucumber = path.join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** A tree to measure: this checkout, or a baseline revision extracted beside it. */
interface Tree {
  label: string;
  dir: string;
  /** How a TypeScript file is run in this tree (its own loader). */
  tsRequire: string;
}

export function thisTree(): Tree {
  return { label: 'after', dir: ROOT, tsRequire: path.join(ROOT, 'tools', 'register.js') };
}

function baselineTree(rev: string): Tree {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-bench-baseline-'));
  execFileSync('bash', ['-c', `git -C "${ROOT}" archive "${rev}" | tar -x -C "${dir}"`]);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  if (!fs.existsSync(path.join(dir, 'bench', 'engine.ts'))) {
    fs.mkdirSync(path.join(dir, 'bench'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'bench', 'engine.ts'), path.join(dir, 'bench', 'engine.ts'));
  }
  const own = fs.existsSync(path.join(dir, 'tools', 'register.js'));
  const sha = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', rev], { encoding: 'utf8' }).trim();
  return { label: `before (${sha})`, dir, tsRequire: own ? path.join(dir, 'tools', 'register.js') : 'ts-node/register/transpile-only' };
}

/** A suite of the same shape (scenario and step counts per feature file) with one no-op step definition: cucumber's floor. */
function floorSuite(tree: Tree): { dir: string; scenarios: number; steps: number } {
  const suite = loadScenarios(tree.dir);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-bench-floor-'));
  fs.mkdirSync(path.join(dir, 'features'));
  const byFile = new Map<string, number[]>();
  for (const s of suite) byFile.set(s.uri, [...(byFile.get(s.uri) ?? []), s.steps?.length ?? 0]);
  let n = 0;
  let steps = 0;
  for (const [uri, counts] of byFile) {
    const lines = [`Feature: floor of ${uri}`, ''];
    for (const c of counts) {
      lines.push(`  Scenario: scenario ${++n}`);
      for (let i = 0; i < c; i++) lines.push(`    Given step ${i} of scenario ${n}`);
      steps += c;
      lines.push('');
    }
    fs.writeFileSync(path.join(dir, 'features', `${path.basename(uri)}`), lines.join('\n'));
  }
  const lib = JSON.stringify(path.join(ROOT, 'node_modules', '@cucumber', 'cucumber'));
  fs.writeFileSync(path.join(dir, 'steps.js'), `const { Given } = require(${lib});\nGiven(/^step \\d+ of scenario \\d+$/, function () {});\n`);
  // The same with a step that awaits, as every step that asks an implementation
  // something must (the seam is asynchronous): cucumber runs an async step
  // through a promise race, a timer and an uncaught-exception handler.
  fs.writeFileSync(path.join(dir, 'steps-async.js'), `const { Given } = require(${lib});\nGiven(/^step \\d+ of scenario \\d+$/, async function () { await null; });\n`);
  return { dir, scenarios: n, steps };
}

/**
 * Cucumber's floor for the suite's own feature text: the feature files
 * copied as they are (tags, tables, doc strings) and every step matched by
 * one of two no-op definitions (steps with a table or doc string take it as
 * their argument; cucumber checks the function's length). What is left over
 * this floor is the step definitions, the seam and the implementation.
 */
export function textFloorSuite(tree: Tree): { dir: string } {
  const suite = loadScenarios(tree.dir);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-bench-textfloor-'));
  fs.cpSync(path.join(tree.dir, 'features'), path.join(dir, 'features'), { recursive: true });
  const withArg = new Set<string>();
  for (const s of suite) (s.steps ?? []).forEach((t, i) => s.stepHasArgument?.[i] && withArg.add(t));
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const alternation = [...withArg].map(esc).join('|') || '(?!)';
  const lib = JSON.stringify(path.join(ROOT, 'node_modules', '@cucumber', 'cucumber'));
  const patterns = `const withArgument = new RegExp(${JSON.stringify(`^(?:${alternation})$`)});\nconst without = new RegExp(${JSON.stringify(`^(?!(?:${alternation})$).*$`)});\n`;
  fs.writeFileSync(path.join(dir, 'steps.js'), `const { Given } = require(${lib});\n${patterns}Given(withArgument, function (argument) {});\nGiven(without, function () {});\n`);
  // The same, with steps that await: the least any suite with this text
  // costs whose steps ask an asynchronous seam (bench/bounds.ts).
  fs.writeFileSync(
    path.join(dir, 'steps-async.js'),
    `const { Given } = require(${lib});\n${patterns}Given(withArgument, async function (argument) { await null; });\nGiven(without, async function () { await null; });\n`,
  );
  return { dir };
}

interface Figure {
  wallS: number;
  cpuS?: number;
  result: string;
}
const summary = (t: Timed) => /(\d+) scenarios? \(([^)]*)\)/.exec(t.stdout)?.[0] ?? `exit ${t.status}`;
const figure = (runs: Timed[]): Figure => ({
  wallS: median(runs.map((r) => r.wallS)),
  ...(runs.every((r) => r.cpuS !== undefined) ? { cpuS: median(runs.map((r) => r.cpuS!)) } : {}),
  result: summary(runs[runs.length - 1]),
});

/** The three suite commands for every tree, `reps` times, the trees alternating; medians. */
function suiteRuns(trees: Tree[], reps: number): Record<string, unknown>[] {
  const floors = trees.map(floorSuite);
  const textFloors = trees.map(textFloorSuite);
  const runs = trees.map(() => ({ floor: [] as Timed[], asyncFloor: [] as Timed[], textFloor: [] as Timed[], textAsyncFloor: [] as Timed[], inProcess: [] as Timed[], wire: [] as Timed[] }));
  for (let r = 0; r < reps; r++) {
    trees.forEach((tree, i) => {
      const f = floors[i];
      runs[i].floor.push(timed([process.execPath, cucumber, '--require', path.join(f.dir, 'steps.js'), '--format', 'summary', path.join(f.dir, 'features')], {}, f.dir));
      runs[i].asyncFloor.push(timed([process.execPath, cucumber, '--require', path.join(f.dir, 'steps-async.js'), '--format', 'summary', path.join(f.dir, 'features')], {}, f.dir));
      const t = textFloors[i];
      runs[i].textFloor.push(timed([process.execPath, cucumber, '--require', path.join(t.dir, 'steps.js'), '--format', 'summary', path.join(t.dir, 'features')], {}, t.dir));
      runs[i].textAsyncFloor.push(timed([process.execPath, cucumber, '--require', path.join(t.dir, 'steps-async.js'), '--format', 'summary', path.join(t.dir, 'features')], {}, t.dir));
      runs[i].inProcess.push(timed([process.execPath, cucumber, '--format', 'summary'], {}, tree.dir));
      runs[i].wire.push(timed([process.execPath, cucumber, '--format', 'summary'], { PMIX_CONFORMANCE_ADAPTER: 'adapters/subprocess' }, tree.dir));
    });
  }
  for (const f of [...floors, ...textFloors]) fs.rmSync(f.dir, { recursive: true, force: true });
  return trees.map((_, i) => {
    const floor = figure(runs[i].floor);
    const asyncFloor = figure(runs[i].asyncFloor);
    const textFloor = figure(runs[i].textFloor);
    const textAsyncFloor = figure(runs[i].textAsyncFloor);
    const inProcess = figure(runs[i].inProcess);
    const wire = figure(runs[i].wire);
    return {
      shape: { scenarios: floors[i].scenarios, steps: floors[i].steps },
      reps,
      floor,
      asyncFloor,
      textFloor,
      textAsyncFloor,
      inProcess,
      wire,
      ratios: { inProcessOverFloor: inProcess.wallS / floor.wallS, inProcessOverAsyncFloor: inProcess.wallS / asyncFloor.wallS, inProcessOverTextFloor: inProcess.wallS / textFloor.wallS, textAsyncFloorOverFloor: textAsyncFloor.wallS / floor.wallS, wireOverInProcess: wire.wallS / inProcess.wallS },
    };
  });
}

/**
 * Interleavings per second of a property test: its runs (PMIX_PROPERTY_RUNS)
 * over the test's own duration as node:test reports it (so process start and
 * module loading are not counted; JIT warm-up is).
 */
function propertyRate(tree: Tree, file: string, runs: number): Record<string, unknown> {
  const t = timed([process.execPath, '--require', tree.tsRequire, '--test', '--test-reporter=tap', file], { PMIX_PROPERTY_RUNS: String(runs) }, tree.dir);
  const ms = /^ {2}duration_ms: ([\d.]+)/m.exec(t.stdout);
  if (t.status !== 0 || !ms) return { error: `no figure (exit ${t.status})` };
  return { interleavings: runs, elapsedMs: Math.round(Number(ms[1])), perSecond: runs / (Number(ms[1]) / 1000) };
}

function propertyRates(tree: Tree): Record<string, unknown> {
  return {
    elastic: propertyRate(tree, 'test/properties/elastic.property.test.ts', 150),
    'elastic (1000 runs)': propertyRate(tree, 'test/properties/elastic.property.test.ts', 1000),
    lifecycle: propertyRate(tree, 'test/properties/lifecycle.property.test.ts', 300),
  };
}

function engineOps(tree: Tree, extra: string[]): unknown {
  const t = timed([process.execPath, '-r', tree.tsRequire, '--max-old-space-size=3072', 'bench/engine.ts', ...extra], {}, tree.dir);
  try {
    return JSON.parse(t.stdout);
  } catch {
    return { error: `bench/engine.ts failed (exit ${t.status}): ${t.stderr.slice(-500)}` };
  }
}

/**
 * The least the wire and property figures could be if the suite's own code
 * cost nothing (bench/bounds.ts), for this tree only: a machine's limits,
 * not a revision's.
 */
async function bounds(tree: Tree, inProcessWallS: number | undefined): Promise<Bounds> {
  const requests = requestCount();
  const roundTripUs = await echoRoundTripUs().catch(() => Number.NaN); // shown as "?"
  const share = engineShare(tree.tsRequire, tree.dir, 'test/properties/elastic.property.test.ts', 1000);
  const wireFloorS = 'total' in requests && inProcessWallS !== undefined ? inProcessWallS + (requests.total * roundTripUs) / 1e6 : undefined;
  return {
    requests,
    roundTripUs,
    ...(wireFloorS !== undefined ? { wireFloorS, wireFloorOverInProcess: wireFloorS / inProcessWallS! } : {}),
    elasticEngineShare: share,
  };
}

interface Bounds {
  requests: { total: number; byMethod: Record<string, number> } | { error: string };
  roundTripUs: number;
  wireFloorS?: number;
  wireFloorOverInProcess?: number;
  elasticEngineShare: { share: number; withGcAndRunner: number; profiledMs: number } | { error: string };
}

async function main(): Promise<void> {
  // After `--`: the live section's selection (cucumber arguments, as scripts/prrte-run.sh takes them).
  const argv = process.argv.slice(2);
  const dashes = argv.indexOf('--');
  const args = dashes < 0 ? argv : argv.slice(0, dashes);
  const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  // The live section (bench/live.ts): asked for with --prrte PREFIX or --only live; what is wrong with it is said before anything is measured.
  const live = liveOptions({ prrte: opt('--prrte'), jobs: opt('--jobs'), parts: opt('--live-parts'), only: opt('--only')?.split(','), rest: dashes < 0 ? [] : argv.slice(dashes + 1) }, process.env, os.cpus().length);
  const liveProblem = live instanceof Error ? live.message : live && (prefixProblem(live.prefix, live.given) ?? undefined);
  if (liveProblem) {
    console.error(`bench: ${liveProblem}`);
    process.exit(2);
  }
  // --only suite,engine,properties,bounds,live: measure just those parts (a quicker look while working on one).
  const only = opt('--only')?.split(',');
  const wanted = (part: string) => (only ? only.includes(part) : !(part === 'suite' && args.includes('--skip-suite')));
  if (!['suite', 'engine', 'properties', 'bounds'].some(wanted)) {
    // --only live: nothing else is measured, and reports/bench.json is left as it was.
    if (live && !(live instanceof Error)) await runLive(live);
    return;
  }
  const engineArgs = opt('--engine-args')?.split(/\s+/) ?? [];
  const reps = Number(opt('--reps') ?? 3);
  const baseline = opt('--baseline');
  const started = Date.now();
  const trees = [...(baseline ? baseline.split(',').map(baselineTree) : []), thisTree()];
  const result: Record<string, unknown> = {
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() },
    date: new Date().toISOString(),
    trees: trees.map((t) => t.label),
  };
  const suites = wanted('suite') ? suiteRuns(trees, reps) : undefined;
  const measured = trees.map((tree, i) => ({
    label: tree.label,
    ...(suites ? { suite: suites[i] } : {}),
    ...(wanted('engine') ? { engine: engineOps(tree, engineArgs) } : {}),
    ...(wanted('properties') ? { properties: propertyRates(tree) } : {}),
  }));
  result.measured = measured;
  const after = measured[measured.length - 1];
  if (wanted('bounds')) result.bounds = await bounds(thisTree(), (after as Measured).suite?.inProcess.wallS);
  result.elapsedS = (Date.now() - started) / 1000;
  for (const t of trees) if (t.dir !== ROOT) fs.rmSync(t.dir, { recursive: true, force: true });
  const reports = path.join(ROOT, 'reports');
  fs.mkdirSync(reports, { recursive: true });
  fs.writeFileSync(path.join(reports, 'bench.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (after.engine) fs.writeFileSync(path.join(reports, 'bench.svg'), renderSvg(after.engine as never));
  console.log(table(measured as Measured[], result.bounds as Bounds | undefined));
  console.log(`\nwritten: reports/bench.json, reports/bench.svg (${result.elapsedS} s)`);
  // Last: the live section measures this tree only, against a live PRRTE (bench/live.ts; reports/bench-live.json).
  if (live && !(live instanceof Error)) await runLive(live);
}

async function runLive(o: LiveOptions): Promise<void> {
  try {
    await liveSection(o);
  } catch (e) {
    console.error(`bench: ${(e as Error).message}`);
    process.exitCode = 2;
  }
}

type Measured = {
  label: string;
  suite?: {
    shape: { scenarios: number; steps: number };
    reps: number;
    floor: Figure;
    asyncFloor?: Figure;
    textFloor: Figure;
    textAsyncFloor?: Figure;
    inProcess: Figure;
    wire: Figure;
    ratios: { inProcessOverFloor: number; inProcessOverAsyncFloor?: number; inProcessOverTextFloor: number; textAsyncFloorOverFloor?: number; wireOverInProcess: number };
  };
  engine?: { workload?: { nodes: number[]; reservations: number[]; jobs: number[]; callsPerOp: number }; ops?: { name: string; x1: number; x10: number; ratio: number }[]; error?: string };
  properties?: Record<string, { perSecond?: number; interleavings?: number; elapsedMs?: number; error?: string }>;
};

/** One row per figure, one column group per tree (before, after). */
function table(ms: Measured[], b?: Bounds): string {
  const f = (x: number | undefined, d = 2) => (x === undefined || Number.isNaN(x) ? '?' : x.toFixed(d));
  const out: string[] = [];
  const head = (title: string, cols: string) => out.push('', `${title.padEnd(54)}${ms.map((m) => ` ${m.label.padStart(cols.length)}`).join('')}`);
  const row = (name: string, cells: string[]) => out.push(`  ${name.padEnd(52)}${cells.map((c) => ` ${c}`).join('')}`);
  const w = 26;
  if (ms.every((m) => m.suite)) {
    const s0 = ms[ms.length - 1].suite!;
    head(`suite, median of ${s0.reps} (wall s / cpu s)`, ' '.repeat(w));
    row('shape (scenarios, steps)', ms.map((m) => `${m.suite!.shape.scenarios}, ${m.suite!.shape.steps}`.padStart(w)));
    row('cucumber floor (same shape, no-op steps)', ms.map((m) => `${f(m.suite!.floor.wallS)} / ${f(m.suite!.floor.cpuS)}`.padStart(w)));
    row('cucumber floor (same shape, no-op steps that await)', ms.map((m) => `${f(m.suite!.asyncFloor?.wallS)} / ${f(m.suite!.asyncFloor?.cpuS)}`.padStart(w)));
    row('cucumber floor (the suite\'s feature text, no-op steps)', ms.map((m) => `${f(m.suite!.textFloor.wallS)} / ${f(m.suite!.textFloor.cpuS)}`.padStart(w)));
    row('cucumber floor (feature text, no-op steps that await)', ms.map((m) => `${f(m.suite!.textAsyncFloor?.wallS)} / ${f(m.suite!.textAsyncFloor?.cpuS)}`.padStart(w)));
    row('the suite in process', ms.map((m) => `${f(m.suite!.inProcess.wallS)} / ${f(m.suite!.inProcess.cpuS)}`.padStart(w)));
    row('the suite over the wire', ms.map((m) => `${f(m.suite!.wire.wallS)} / ${f(m.suite!.wire.cpuS)}`.padStart(w)));
    row('in process / floor (target <= 1.5)', ms.map((m) => `${f(m.suite!.ratios.inProcessOverFloor)}x`.padStart(w)));
    row('in process / floor with steps that await', ms.map((m) => `${f(m.suite!.ratios.inProcessOverAsyncFloor)}x`.padStart(w)));
    row('in process / feature-text floor', ms.map((m) => `${f(m.suite!.ratios.inProcessOverTextFloor)}x`.padStart(w)));
    row('wire / in process (target <= 1.5)', ms.map((m) => `${f(m.suite!.ratios.wireOverInProcess)}x`.padStart(w)));
    row('scenarios (in process)', ms.map((m) => m.suite!.inProcess.result.replace(/ scenarios \(/, ': ').replace(/\)$/, '').padStart(w)));
  }
  const e = ms[ms.length - 1].engine;
  if (e?.workload) {
    out.push('', `engine: µs per call, median of ${e.workload.callsPerOp} calls, at 1x (${e.workload.nodes[0]} nodes, ${e.workload.reservations[0]} reservations, ${e.workload.jobs[0]} jobs) / 10x; (10x over 1x, target <= 12)`);
    head('', ' '.repeat(w + 4));
    for (const o of e.ops ?? []) {
      row(
        o.name,
        ms.map((m) => {
          const mo = m.engine?.ops?.find((x) => x.name === o.name);
          return (mo ? `${f(mo.x1, 1)} / ${f(mo.x10, 1)} (${f(mo.ratio, 1)}x)` : m.engine?.error ? 'failed' : 'n/a').padStart(w + 4);
        }),
      );
    }
  }
  for (const m of ms) if (m.engine?.error) out.push(`  ${m.label}: engine: ${m.engine.error}`);
  const props = ms[ms.length - 1].properties;
  if (props) head('property tests, interleavings/s (fixed seed; target >= 1000)', ' '.repeat(w));
  for (const k of Object.keys(props ?? {})) {
    row(k, ms.map((m) => {
      const v = m.properties?.[k];
      return (v?.perSecond !== undefined ? `${f(v.perSecond, 0)} (${v.interleavings} in ${v.elapsedMs} ms)` : v?.error ?? 'n/a').padStart(w);
    }));
  }
  if (b) {
    const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
    const after = ms[ms.length - 1];
    out.push('', 'bounds on this machine: each figure if the suite\'s own code cost nothing (bench/bounds.ts)');
    const bound = (name: string, value: string) => out.push(`  ${name.padEnd(72)} ${value.padStart(8)}`);
    const t = after.suite?.ratios.textAsyncFloorOverFloor;
    if (t !== undefined) bound('in process / floor: feature-text floor with steps that await / floor', `${f(t)}x`);
    bound('requests in one run of the suite (one round trip each on the wire)', 'total' in b.requests ? String(b.requests.total) : b.requests.error);
    bound('round trip of a line between two Node processes over a pipe (median µs)', f(b.roundTripUs, 0));
    if (b.wireFloorOverInProcess !== undefined) bound('wire / in process: (in process + requests x round trip) / in process', `${f(b.wireFloorOverInProcess)}x`);
    const share = b.elasticEngineShare;
    const rate = after.properties?.['elastic (1000 runs)']?.perSecond;
    if ('share' in share) {
      bound('elastic property: engine and schema checks, share of its CPU profile', pct(share.share));
      if (rate !== undefined) bound('elastic interleavings/s if the engine and the checks cost nothing', f(rate / (1 - share.share), 0));
      bound('... their share counting all GC and node:test\'s bookkeeping as theirs too', pct(share.withGcAndRunner));
      if (rate !== undefined) bound('elastic interleavings/s if all of that cost nothing', f(rate / (1 - share.withGcAndRunner), 0));
    } else bound('elastic property: engine share', share.error);
  }
  return out.join('\n');
}

if (require.main === module) void main();
