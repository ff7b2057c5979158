/**
 * The benchmark (scripts/bench.sh, npm run bench): measures, in one run on
 * this machine, the figures issue 10 names, as ratios; prints a table and
 * writes reports/bench.json and reports/bench.svg. A benchmark, not a test:
 * nothing fails on a number.
 *
 *   node -r ./tools/register.js bench/run.ts [--skip-suite] [--engine-args "..."]
 *
 * Wall time is noisy on a shared machine; each command's CPU time (user+sys,
 * from /usr/bin/time, children included) is reported beside it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadScenarios } from '../tools/lib/scenarios';
import { renderSvg } from './svg';

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
function timed(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): Timed {
  const marker = '__BENCH_TIME__';
  const cmd = TIME ? [TIME, '-f', `${marker} %U %S`, ...argv] : argv;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd[0], cmd.slice(1), { cwd, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', ...env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const m = new RegExp(`${marker} ([\\d.]+) ([\\d.]+)`).exec(r.stderr ?? '');
  return { wallS, ...(m ? { cpuS: Number(m[1]) + Number(m[2]) } : {}), stdout: r.stdout ?? '', stderr: r.stderr ?? '', status: r.status };
}

const cucumber = path.join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');

/** A suite of the same shape (scenario and step counts per feature file) with one no-op step definition: cucumber's floor. */
function floorSuite(): { dir: string; scenarios: number; steps: number } {
  const suite = loadScenarios(ROOT);
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
  fs.writeFileSync(path.join(dir, 'steps.js'), "const { Given } = require(" + JSON.stringify(path.join(ROOT, 'node_modules', '@cucumber', 'cucumber')) + ");\nGiven(/^step \\d+ of scenario \\d+$/, function () {});\n");
  return { dir, scenarios: n, steps };
}

function suiteRuns(): Record<string, unknown> {
  const floor = floorSuite();
  const floorRun = timed([process.execPath, cucumber, '--require', path.join(floor.dir, 'steps.js'), '--format', 'summary', path.join(floor.dir, 'features')], {}, floor.dir);
  const inProcess = timed([process.execPath, cucumber, '--format', 'summary']);
  const wire = timed([process.execPath, cucumber, '--format', 'summary'], { PMIX_CONFORMANCE_ADAPTER: 'adapters/subprocess' });
  fs.rmSync(floor.dir, { recursive: true, force: true });
  const summary = (t: Timed) => /(\d+) scenarios? \(([^)]*)\)/.exec(t.stdout)?.[0] ?? `exit ${t.status}`;
  return {
    shape: { scenarios: floor.scenarios, steps: floor.steps },
    floor: { wallS: floorRun.wallS, cpuS: floorRun.cpuS, result: summary(floorRun) },
    inProcess: { wallS: inProcess.wallS, cpuS: inProcess.cpuS, result: summary(inProcess) },
    wire: { wallS: wire.wallS, cpuS: wire.cpuS, result: summary(wire) },
    ratios: { inProcessOverFloor: inProcess.wallS / floorRun.wallS, wireOverInProcess: wire.wallS / inProcess.wallS },
  };
}

function propertyRates(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, file, re] of [
    ['elastic', 'test/properties/elastic.property.test.ts', /elastic property: .*?(\d+) interleavings executed.*elapsed (\d+) ms/],
    ['lifecycle', 'test/properties/lifecycle.property.test.ts', /lifecycle property: (\d+) interleavings executed.*elapsed (\d+) ms/],
  ] as const) {
    const t = timed([process.execPath, '--require', './tools/register.js', '--test', file]);
    const m = re.exec(t.stdout + t.stderr);
    out[name] = m ? { interleavings: Number(m[1]), elapsedMs: Number(m[2]), perSecond: Number(m[1]) / (Number(m[2]) / 1000) } : { error: `no figure in the output (exit ${t.status})` };
  }
  return out;
}

function engineOps(extra: string[]): unknown {
  const t = timed([process.execPath, '-r', './tools/register.js', '--max-old-space-size=3072', 'bench/engine.ts', ...extra]);
  try {
    return JSON.parse(t.stdout);
  } catch {
    return { error: `bench/engine.ts failed (exit ${t.status}): ${t.stderr.slice(-500)}` };
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const engineArgs = args.includes('--engine-args') ? args[args.indexOf('--engine-args') + 1].split(/\s+/) : [];
  const started = Date.now();
  const result: Record<string, unknown> = {
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, loadavg: os.loadavg() },
    date: new Date().toISOString(),
  };
  if (!args.includes('--skip-suite')) result.suite = suiteRuns();
  result.engine = engineOps(engineArgs);
  result.properties = propertyRates();
  result.elapsedS = (Date.now() - started) / 1000;
  const reports = path.join(ROOT, 'reports');
  fs.mkdirSync(reports, { recursive: true });
  fs.writeFileSync(path.join(reports, 'bench.json'), `${JSON.stringify(result, null, 2)}\n`);
  fs.writeFileSync(path.join(reports, 'bench.svg'), renderSvg(result.engine as never));
  console.log(table(result));
  console.log(`\nwritten: reports/bench.json, reports/bench.svg (${result.elapsedS} s)`);
}

function table(r: Record<string, unknown>): string {
  const f = (x: number | undefined, d = 2) => (x === undefined ? '?' : x.toFixed(d));
  const out: string[] = [];
  const s = r.suite as { shape: { scenarios: number; steps: number }; floor: { wallS: number; cpuS?: number }; inProcess: { wallS: number; cpuS?: number; result: string }; wire: { wallS: number; cpuS?: number; result: string }; ratios: { inProcessOverFloor: number; wireOverInProcess: number } } | undefined;
  if (s) {
    out.push(`suite (${s.shape.scenarios} scenarios, ${s.shape.steps} steps)          wall s   cpu s`);
    out.push(`  cucumber floor (no-op steps)                      ${f(s.floor.wallS).padStart(6)}  ${f(s.floor.cpuS).padStart(6)}`);
    out.push(`  in-process                                        ${f(s.inProcess.wallS).padStart(6)}  ${f(s.inProcess.cpuS).padStart(6)}   ${f(s.ratios.inProcessOverFloor)}x the floor   (${s.inProcess.result})`);
    out.push(`  over the wire                                     ${f(s.wire.wallS).padStart(6)}  ${f(s.wire.cpuS).padStart(6)}   ${f(s.ratios.wireOverInProcess)}x in-process   (${s.wire.result})`);
  }
  const e = r.engine as { workload?: { nodes: number[]; reservations: number[]; jobs: number[]; callsPerOp: number }; ops?: { name: string; x1: number; x10: number; ratio: number }[]; error?: string };
  if (e.ops && e.workload) {
    out.push('', `engine operations, µs per call (${e.workload.callsPerOp} calls each; 1x = ${e.workload.nodes[0]} nodes, ${e.workload.reservations[0]} reservations, ${e.workload.jobs[0]} jobs; 10x = ${e.workload.nodes[1]}, ${e.workload.reservations[1]}, ${e.workload.jobs[1]})`);
    for (const o of e.ops) out.push(`  ${o.name.padEnd(52)} ${f(o.x1, 1).padStart(9)} ${f(o.x10, 1).padStart(10)}  ${f(o.ratio, 1).padStart(5)}x${o.ratio > 12 ? '  (> 12x)' : ''}`);
  } else out.push('', `engine: ${e.error}`);
  const p = r.properties as Record<string, { perSecond?: number; interleavings?: number; elapsedMs?: number; error?: string }>;
  out.push('', 'property tests (fixed seed)');
  for (const [k, v] of Object.entries(p)) out.push(`  ${k.padEnd(10)} ${v.perSecond !== undefined ? `${f(v.perSecond, 0)} interleavings/s (${v.interleavings} in ${v.elapsedMs} ms)` : v.error}`);
  return out.join('\n');
}

main();
