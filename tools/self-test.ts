/**
 * The suite tests itself, in both directions:
 * - against every known-bad implementation (known-bad/*.ts, each breaking
 *   exactly one documented rule) it fails unless each is rejected by at least
 *   one failing scenario that cites the clause it breaks: a check that cannot
 *   fail is a defect;
 * - against every known-good implementation (known-good/*.ts, each taking
 *   one freedom the specification allows) it runs the whole suite and fails
 *   unless every scenario that runs passes: a check that fails a conforming
 *   implementation is a defect too.
 * Each is also run time-shifted (adapters/time-shifted.ts): its effects show
 * only some time after its answers and its events arrive later still, as a
 * live runtime's do. A known-good must still pass every scenario and a
 * known-bad must still be rejected: the suite's verdicts may not depend on
 * an implementation being synchronous.
 * Arguments filter the implementations by file name.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadRegistry } from './lib/registry';
import { readRun } from './lib/run';
import type { SuiteJob, SuiteJobDone } from './lib/suite-worker';

const root = path.resolve(__dirname, '..');
const dir = path.join(root, 'known-bad');
const goodDir = path.join(root, 'known-good');
const registry = loadRegistry(root);
const only = process.argv.slice(2);
const implementations = (d: string, helper: string) =>
  fs
    .readdirSync(d)
    .filter((f) => f.endsWith('.ts') && f !== helper)
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
const files = implementations(dir, 'wrap.ts');
const goodFiles = implementations(goodDir, 'good.ts');

interface Verdict {
  file: string;
  shifted: boolean;
  breaks: string;
  what: string;
  rejectedBy: string[];
  otherFailures: number;
  /** Seen only by the frame checks (judgeFrame). */
  frame?: boolean;
  problem?: string;
}

/**
 * Two worker processes (this machine has two cores), each running the suite
 * once per implementation with cucumber and the step definitions loaded once
 * (lib/suite-worker.ts); a run is handed to whichever is free.
 */
class Workers {
  private readonly idle: ChildProcess[] = [];
  private readonly waiting: (() => void)[] = [];
  /** The run each busy worker has, and how to answer it. */
  private readonly busy = new Map<ChildProcess, { out: string; done: (d: SuiteJobDone) => void }>();
  private readonly all = new Set<ChildProcess>();
  private closing = false;

  constructor(count: number) {
    for (let i = 0; i < count; i++) this.start();
  }

  private start(): void {
    const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' };
    delete env.PMIX_CONFORMANCE_ADAPTER;
    const execArgv = ['--require', path.join(root, 'tools', 'register.js')];
    const child = fork(path.join(root, 'tools', 'lib', 'suite-worker.ts'), [], { cwd: root, env, execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.all.add(child);
    child.on('message', (m: SuiteJobDone | { ready: true }) => {
      if ('out' in m) this.finish(child, m);
      this.release(child);
    });
    child.on('exit', (code, signal) => {
      this.all.delete(child);
      if (this.closing) return;
      // An implementation that kills the process fails its own run, and a
      // fresh worker takes the rest: the self-test never hangs on it.
      this.finish(child, { out: this.busy.get(child)?.out ?? '', error: `the suite's worker process exited (${signal ?? `code ${code}`})` });
      this.start();
    });
  }

  private finish(child: ChildProcess, done: SuiteJobDone): void {
    this.busy.get(child)?.done(done);
    this.busy.delete(child);
  }

  private release(child: ChildProcess): void {
    this.idle.push(child);
    this.waiting.shift()?.();
  }

  private async take(): Promise<ChildProcess> {
    while (this.idle.length === 0) await new Promise<void>((r) => this.waiting.push(r));
    return this.idle.shift()!;
  }

  /** Runs the scenarios the tag expression selects (all when undefined) against the adapter module. */
  async run(job: SuiteJob): Promise<SuiteJobDone> {
    const child = await this.take();
    return new Promise((done) => {
      this.busy.set(child, { out: job.out, done });
      child.send(job);
    });
  }

  close(): void {
    this.closing = true;
    for (const child of this.all) child.kill();
  }
}

/** The run of one implementation module, as it is or time-shifted. */
const TIME_SHIFTED = path.join(root, 'adapters', 'time-shifted.ts');
const runOf = (module: string, shifted: boolean) =>
  shifted ? { adapter: TIME_SHIFTED, env: { PMIX_CONFORMANCE_SHIFTED_ADAPTER: module } } : { adapter: module };
const label = (file: string, shifted: boolean) => (shifted ? `${file} (time-shifted)` : file);

async function judge(workers: Workers, file: string, tmp: string, shifted: boolean): Promise<Verdict> {
  const mod = require(path.join(dir, file)) as { knownBad?: { breaks: string; what: string; frame?: boolean } };
  const kb = mod.knownBad;
  if (!kb) return { file, shifted, breaks: '?', what: '?', rejectedBy: [], otherFailures: 0, problem: 'exports no knownBad description' };
  const { frame, ...described } = kb;
  if (!registry.clauses.has(kb.breaks)) return { file, shifted, ...described, rejectedBy: [], otherFailures: 0, problem: `breaks ${kb.breaks}, which is not a registered clause` };
  if (frame) return judgeFrame(workers, file, tmp, shifted, described);
  const out = path.join(tmp, `${path.basename(file, '.ts')}${shifted ? '.shifted' : ''}.ndjson`);
  const done = await workers.run({ ...runOf(path.join(dir, file), shifted), tags: `@clause:${kb.breaks}`, out });
  if ('error' in done) return { file, shifted, ...described, rejectedBy: [], otherFailures: 0, problem: `the run did not complete: ${done.error}` };
  const results = readRun(out).scenarios; // only the scenarios that ran
  // Failed, not errored: a crash is no proof that the suite noticed the broken rule.
  const failed = results.filter((r) => r.outcome === 'failed');
  const rejectedBy = failed.filter((r) => r.tags.includes(`@clause:${kb.breaks}`)).map((r) => `${r.uri}: ${r.name}`);
  const ran = results.length;
  const problem = ran === 0 ? `no scenario cites ${kb.breaks}` : `none of the ${ran} scenarios citing ${kb.breaks} failed`;
  return { file, shifted, ...described, rejectedBy, otherFailures: failed.length - rejectedBy.length, ...(rejectedBy.length === 0 ? { problem } : {}) };
}

/**
 * A known-bad that does what no scenario looks at, only the frame checks
 * (steps/support/frame.ts): the whole suite must reject it with a failure
 * charged to the clause it breaks, and the same suite with the frame checks
 * off (PMIX_CONFORMANCE_FRAME=off) must not, which shows it is the frame
 * check that sees it.
 */
async function judgeFrame(workers: Workers, file: string, tmp: string, shifted: boolean, kb: { breaks: string; what: string }): Promise<Verdict> {
  const charged = (frame: 'on' | 'off') => async () => {
    const out = path.join(tmp, `${path.basename(file, '.ts')}${shifted ? '.shifted' : ''}.frame-${frame}.ndjson`);
    const run = runOf(path.join(dir, file), shifted);
    const done = await workers.run({ ...run, env: { ...('env' in run ? run.env : {}), PMIX_CONFORMANCE_FRAME: frame }, out });
    if ('error' in done) return { error: done.error };
    const failed = readRun(out).scenarios.filter((r) => r.outcome === 'failed');
    const by = failed.filter((r) => r.failure?.clauses.includes(kb.breaks) || r.tags.includes(`@clause:${kb.breaks}`));
    return { failed: failed.length, by: by.map((r) => `${r.uri}: ${r.name}`) };
  };
  const [on, off] = await Promise.all([charged('on')(), charged('off')()]);
  if ('error' in on || 'error' in off) return { file, shifted, ...kb, rejectedBy: [], otherFailures: 0, problem: `the run did not complete: ${'error' in on ? on.error : 'error' in off ? off.error : ''}` };
  const problem =
    on.by.length === 0
      ? `no scenario failed with a failure charged to ${kb.breaks}, frame checks on`
      : off.by.length > 0
        ? `${off.by.length} scenario(s) reject it with the frame checks off (e.g. ${off.by[0]}): it is not a fault only the frame checks see`
        : undefined;
  return { file, shifted, ...kb, frame: true, rejectedBy: on.by, otherFailures: on.failed - on.by.length, ...(problem ? { problem } : {}) };
}

interface GoodVerdict {
  file: string;
  shifted: boolean;
  freedom: string;
  ran: number;
  passed: number;
  /** Scenarios that did not pass (failed or errored), each with the first line of its message. */
  notPassed: string[];
  problem?: string;
}

/** The whole suite against one known-good implementation: every scenario that runs must pass. */
async function judgeGood(workers: Workers, file: string, tmp: string, shifted: boolean): Promise<GoodVerdict> {
  const mod = require(path.join(goodDir, file)) as { knownGood?: { freedom: string; permittedBy: string } };
  const kg = mod.knownGood;
  if (!kg || !kg.permittedBy) return { file, shifted, freedom: '?', ran: 0, passed: 0, notPassed: [], problem: 'exports no knownGood description with the sentence that permits it' };
  const out = path.join(tmp, `good-${path.basename(file, '.ts')}${shifted ? '.shifted' : ''}.ndjson`);
  const done = await workers.run({ ...runOf(path.join(goodDir, file), shifted), out });
  if ('error' in done) return { file, shifted, freedom: kg.freedom, ran: 0, passed: 0, notPassed: [], problem: `the run did not complete: ${done.error}` };
  const results = readRun(out).scenarios.filter((r) => r.outcome !== 'skipped');
  const notPassed = results
    .filter((r) => r.outcome !== 'passed')
    .map((r) => `${r.outcome} ${r.uri}: ${r.name}${r.message ? ` — ${firstMeaningfulLine(r.message)}` : ''}`);
  const problem = results.length === 0 ? 'no scenario ran' : notPassed.length > 0 ? `${notPassed.length} of ${results.length} scenarios did not pass` : undefined;
  return { file, shifted, freedom: kg.freedom, ran: results.length, passed: results.length - notPassed.length, notPassed, ...(problem ? { problem } : {}) };
}

const firstMeaningfulLine = (m: string) =>
  m
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('clause:') || l.startsWith('expected:') || l.startsWith('observed:'))
    .join('; ') || m.split('\n')[0];

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-self-test-'));
  const started = Date.now();
  const workers = new Workers(2);
  const both = [false, true];
  const verdicts = await Promise.all(files.flatMap((f) => both.map((shifted) => judge(workers, f, tmp, shifted))));
  verdicts.sort((a, b) => a.file.localeCompare(b.file) || Number(a.shifted) - Number(b.shifted));
  console.log(`self-test: the suite against ${files.length} known-bad implementations, each as it is and time-shifted (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  for (const v of verdicts) {
    const mark = v.problem ? 'NOT REJECTED' : 'rejected';
    console.log(`  ${mark.padEnd(12)} ${label(v.file, v.shifted).padEnd(56)} breaks ${v.breaks}: ${v.what}`);
    if (v.problem) console.log(`               ${v.problem}`);
    else console.log(`               by ${v.rejectedBy.length} failing scenario(s) ${v.frame ? 'charged to it by the frame checks (none with them off)' : 'citing it'}, e.g. ${v.rejectedBy[0]}`);
  }
  const goodStarted = Date.now();
  const goods = await Promise.all(goodFiles.flatMap((f) => both.map((shifted) => judgeGood(workers, f, tmp, shifted))));
  workers.close();
  goods.sort((a, b) => a.file.localeCompare(b.file) || Number(a.shifted) - Number(b.shifted));
  console.log(`self-test: the suite against ${goodFiles.length} known-good implementations, each as it is and time-shifted (${((Date.now() - goodStarted) / 1000).toFixed(1)} s)`);
  for (const g of goods) {
    console.log(`  ${(g.problem ? 'NOT PASSED' : 'passed').padEnd(12)} ${label(g.file, g.shifted).padEnd(56)} ${g.freedom}`);
    if (g.problem) {
      console.log(`               ${g.problem}`);
      for (const n of g.notPassed.slice(0, 5)) console.log(`                 ${n}`);
      if (g.notPassed.length > 5) console.log(`                 … and ${g.notPassed.length - 5} more`);
    } else console.log(`               ${g.passed} scenarios passed`);
  }
  const bad = verdicts.filter((v) => v.problem);
  const unfair = goods.filter((g) => g.problem);
  fs.rmSync(tmp, { recursive: true, force: true });
  if (bad.length > 0) console.error(`self-test: ${bad.length} known-bad implementation(s) not rejected by a scenario citing the clause they break`);
  if (unfair.length > 0) console.error(`self-test: ${unfair.length} known-good implementation(s) failed by the suite: a scenario asserts more than the specification says`);
  if (bad.length > 0 || unfair.length > 0) process.exit(1);
}

void main();
