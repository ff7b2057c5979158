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
 * Arguments filter the implementations by file name.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadRegistry } from './lib/registry';
import { readRun } from './lib/run';

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
  breaks: string;
  what: string;
  rejectedBy: string[];
  otherFailures: number;
  problem?: string;
}

/** Runs the scenarios that cite `clause` (all of them when undefined) against the adapter module. */
function runSuite(adapter: string, clause: string | undefined, out: string): Promise<number> {
  return new Promise((resolve) => {
    const cucumber = path.join(root, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
    const select = clause === undefined ? [] : ['--tags', `@clause:${clause}`];
    const child = spawn(process.execPath, [cucumber, ...select, '--format', `message:${out}`], {
      cwd: root,
      env: { ...process.env, PMIX_CONFORMANCE_ADAPTER: adapter, TS_NODE_TRANSPILE_ONLY: 'true' },
      stdio: 'ignore',
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function judge(file: string, tmp: string): Promise<Verdict> {
  const mod = require(path.join(dir, file)) as { knownBad?: { breaks: string; what: string } };
  const kb = mod.knownBad;
  if (!kb) return { file, breaks: '?', what: '?', rejectedBy: [], otherFailures: 0, problem: 'exports no knownBad description' };
  if (!registry.clauses.has(kb.breaks)) return { file, ...kb, rejectedBy: [], otherFailures: 0, problem: `breaks ${kb.breaks}, which is not a registered clause` };
  const out = path.join(tmp, `${path.basename(file, '.ts')}.ndjson`);
  await runSuite(path.join(dir, file), kb.breaks, out);
  const results = readRun(out).scenarios; // only the scenarios that ran
  // Failed, not errored: a crash is no proof that the suite noticed the broken rule.
  const failed = results.filter((r) => r.outcome === 'failed');
  const rejectedBy = failed.filter((r) => r.tags.includes(`@clause:${kb.breaks}`)).map((r) => `${r.uri}: ${r.name}`);
  const ran = results.length;
  const problem = ran === 0 ? `no scenario cites ${kb.breaks}` : `none of the ${ran} scenarios citing ${kb.breaks} failed`;
  return { file, ...kb, rejectedBy, otherFailures: failed.length - rejectedBy.length, ...(rejectedBy.length === 0 ? { problem } : {}) };
}

interface GoodVerdict {
  file: string;
  freedom: string;
  ran: number;
  passed: number;
  /** Scenarios that did not pass (failed or errored), each with the first line of its message. */
  notPassed: string[];
  problem?: string;
}

/** The whole suite against one known-good implementation: every scenario that runs must pass. */
async function judgeGood(file: string, tmp: string): Promise<GoodVerdict> {
  const mod = require(path.join(goodDir, file)) as { knownGood?: { freedom: string; permittedBy: string } };
  const kg = mod.knownGood;
  if (!kg || !kg.permittedBy) return { file, freedom: '?', ran: 0, passed: 0, notPassed: [], problem: 'exports no knownGood description with the sentence that permits it' };
  const out = path.join(tmp, `good-${path.basename(file, '.ts')}.ndjson`);
  await runSuite(path.join(goodDir, file), undefined, out);
  const results = readRun(out).scenarios.filter((r) => r.outcome !== 'skipped');
  const notPassed = results
    .filter((r) => r.outcome !== 'passed')
    .map((r) => `${r.outcome} ${r.uri}: ${r.name}${r.message ? ` — ${firstMeaningfulLine(r.message)}` : ''}`);
  const problem = results.length === 0 ? 'no scenario ran' : notPassed.length > 0 ? `${notPassed.length} of ${results.length} scenarios did not pass` : undefined;
  return { file, freedom: kg.freedom, ran: results.length, passed: results.length - notPassed.length, notPassed, ...(problem ? { problem } : {}) };
}

const firstMeaningfulLine = (m: string) =>
  m
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('clause:') || l.startsWith('expected:') || l.startsWith('observed:'))
    .join('; ') || m.split('\n')[0];

/** Run `work` over `items`, two at a time: this machine has two cores. */
async function twoAtATime<T, R>(items: T[], work: (t: T) => Promise<R>): Promise<R[]> {
  const queue = [...items];
  const out: R[] = [];
  await Promise.all(
    [0, 1].map(async () => {
      for (let t = queue.shift(); t !== undefined; t = queue.shift()) out.push(await work(t));
    }),
  );
  return out;
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-self-test-'));
  const started = Date.now();
  const verdicts = await twoAtATime(files, (f) => judge(f, tmp));
  verdicts.sort((a, b) => a.file.localeCompare(b.file));
  console.log(`self-test: the suite against ${verdicts.length} known-bad implementations (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  for (const v of verdicts) {
    const mark = v.problem ? 'NOT REJECTED' : 'rejected';
    console.log(`  ${mark.padEnd(12)} ${v.file.padEnd(40)} breaks ${v.breaks}: ${v.what}`);
    if (v.problem) console.log(`               ${v.problem}`);
    else console.log(`               by ${v.rejectedBy.length} failing scenario(s) citing it, e.g. ${v.rejectedBy[0]}`);
  }
  const goodStarted = Date.now();
  const goods = await twoAtATime(goodFiles, (f) => judgeGood(f, tmp));
  goods.sort((a, b) => a.file.localeCompare(b.file));
  console.log(`self-test: the suite against ${goods.length} known-good implementations (${((Date.now() - goodStarted) / 1000).toFixed(1)} s)`);
  for (const g of goods) {
    console.log(`  ${(g.problem ? 'NOT PASSED' : 'passed').padEnd(12)} ${g.file.padEnd(40)} ${g.freedom}`);
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
