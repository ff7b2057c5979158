/**
 * What the speed targets are up against on this machine: the least each
 * figure could be if the suite's own code cost nothing. Measured, not
 * assumed, so whoever sets a target can see which ones a faster suite can
 * still reach and which a machine or a runner rules out.
 *
 *  - wire: the requests one run of the suite makes (counted in process by
 *    bench/counting-adapter.ts; each is one round trip on the wire) times the
 *    median round trip of a line between two Node processes over a pipe
 *    (an echo child on its event loop, as any server is; the parent reading
 *    'data' events, as protocol/connection.ts does). In process plus that is
 *    the wire's floor: no server, no validation, no JSON of any size.
 *  - property tests: the share of the property's CPU profile spent in the
 *    engine and the request/answer checks (reference/, protocol/, the
 *    compiled schema validators); the rate if that share cost nothing is what
 *    a faster engine could give at most (the rest is the property's own
 *    model and checks, fast-check, node:test and the garbage collector).
 *  - in process: bench/run.ts measures it directly, as cucumber over the
 *    suite's feature text with no-op steps that await.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** Requests per seam method of one in-process run of the whole suite. */
export function requestCount(): { total: number; byMethod: Record<string, number> } | { error: string } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-bench-count-')), 'count.json');
  const cucumber = path.join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
  const r = spawnSync(process.execPath, [cucumber, '--format', 'summary'], {
    cwd: ROOT,
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', PMIX_BENCH_COUNT_FILE: file, PMIX_CONFORMANCE_ADAPTER: path.join(ROOT, 'bench', 'counting-adapter') },
    encoding: 'utf8',
  });
  try {
    const byMethod = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>;
    return { total: Object.values(byMethod).reduce((a, b) => a + b, 0), byMethod };
  } catch {
    return { error: `no count (exit ${r.status}): ${(r.stderr ?? '').slice(-300)}` };
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

// The echo child: answers each line as it arrives, on its event loop.
const ECHO = `let b='';process.stdin.setEncoding('utf8');process.stdin.on('data',(c)=>{b+=c;let i;while((i=b.indexOf('\\n'))>=0){process.stdout.write(b.slice(0,i+1));b=b.slice(i+1);}});`;

/** Median round trip, in microseconds, of `rounds` lines of `bytes` each, one at a time. */
export async function echoRoundTripUs(rounds = 3000, bytes = 300): Promise<number> {
  const child = spawn(process.execPath, ['-e', ECHO], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8');
  const line = `${JSON.stringify({ seq: 0, cmd: 'observe', pad: 'x'.repeat(Math.max(0, bytes - 40)) })}\n`;
  const times: number[] = [];
  let buffered = '';
  let waiting: (() => void) | undefined;
  let failed: Error | undefined;
  // A child that dies must end the measurement, not leave it waiting.
  child.on('exit', (code, signal) => {
    failed = new Error(`the echo child exited (${signal ?? code})`);
    waiting?.();
  });
  child.stdout.on('data', (c: string) => {
    buffered += c;
    if (buffered.endsWith('\n') && waiting) {
      buffered = '';
      const w = waiting;
      waiting = undefined;
      w();
    }
  });
  for (let i = 0; i < rounds + 200; i++) {
    const t0 = process.hrtime.bigint();
    await new Promise<void>((resolve) => {
      waiting = resolve;
      child.stdin.write(line);
    });
    if (failed) throw failed;
    if (i >= 200) times.push(Number(process.hrtime.bigint() - t0) / 1000); // the first 200 warm up
  }
  child.removeAllListeners('exit');
  child.stdin.end();
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The share of a property test's CPU spent in the engine and the schema checks, from one profiled run. */
export function engineShare(tsRequire: string, dir: string, file: string, runs: number): { share: number; withGcAndRunner: number; profiledMs: number } | { error: string } {
  const profDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-bench-prof-'));
  try {
    const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profDir, '--require', tsRequire, '--test', '--test-reporter=tap', file], {
      cwd: dir,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', PMIX_PROPERTY_RUNS: String(runs) },
      encoding: 'utf8',
    });
    // node --test runs the file in a child: its profile is the larger one.
    const profiles = fs.readdirSync(profDir).map((f) => path.join(profDir, f));
    if (r.status !== 0 || profiles.length === 0) return { error: `no profile (exit ${r.status})` };
    const largest = profiles.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
    const profile = JSON.parse(fs.readFileSync(largest, 'utf8')) as CpuProfile;
    const engine = shareOf(profile, (f) => ENGINE_FILES.test(f.url));
    // The engine's share leaves out what its work costs elsewhere: the
    // garbage it makes and node:test's bookkeeping of its promises. Counting
    // all of both as the engine's gives a bound that no faster engine beats.
    const generous = shareOf(profile, (f) => ENGINE_FILES.test(f.url) || RUNNER_OVERHEAD.test(`${f.functionName ?? ''} ${f.url}`));
    return { ...engine, withGcAndRunner: generous.share };
  } finally {
    fs.rmSync(profDir, { recursive: true, force: true });
  }
}

interface CallFrame {
  url: string;
  functionName?: string;
}
interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

const ENGINE_FILES = /\/(reference|protocol)\/[^/]+\.ts$|\/\.cache\/pmix-conformance\/[^/]+\.js$/;
/** The garbage collector, and node:test's async tracking of every promise. */
const RUNNER_OVERHEAD = /^\(garbage collector\)|^registerDestroyHook |node:internal\/(test_runner|async_hooks)/;

/** The share of sampled time whose innermost frame `counts` (idle time left out). */
export function shareOf(profile: CpuProfile, counts: (frame: CallFrame) => boolean): { share: number; profiledMs: number } {
  const frame = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  let total = 0;
  let inFiles = 0;
  profile.samples.forEach((id, i) => {
    const f = frame.get(id);
    if (!f || f.functionName === '(idle)') return;
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    if (counts(f)) inFiles += dt;
  });
  return { share: total > 0 ? inFiles / total : 0, profiledMs: Math.round(total / 1000) };
}
