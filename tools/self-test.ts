/**
 * The suite tests itself: it runs the whole conformance suite against every
 * known-bad implementation (known-bad/*.ts, each breaking exactly one
 * documented rule) and fails unless each is rejected by at least one failing
 * scenario that cites the clause it breaks. A check that cannot fail is a
 * defect; this is how the suite shows its checks can.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadRegistry } from './lib/registry';
import { readRun } from './lib/run';

const root = path.resolve(__dirname, '..');
const dir = path.join(root, 'known-bad');
const registry = loadRegistry(root);
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'wrap.ts')
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

interface Verdict {
  file: string;
  breaks: string;
  what: string;
  rejectedBy: string[];
  otherFailures: number;
  problem?: string;
}

/** Runs the scenarios that cite the broken clause: one of them failing is the proof asked for. */
function runSuite(adapter: string, clause: string, out: string): Promise<number> {
  return new Promise((resolve) => {
    const cucumber = path.join(root, 'node_modules', '@cucumber', 'cucumber', 'bin', 'cucumber.js');
    const child = spawn(process.execPath, [cucumber, '--tags', `@clause:${clause}`, '--format', `message:${out}`], {
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

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-self-test-'));
  const started = Date.now();
  const verdicts: Verdict[] = [];
  // Two at a time: this machine has two cores.
  const queue = [...files];
  await Promise.all(
    [0, 1].map(async () => {
      for (let f = queue.shift(); f !== undefined; f = queue.shift()) verdicts.push(await judge(f, tmp));
    }),
  );
  verdicts.sort((a, b) => a.file.localeCompare(b.file));
  console.log(`self-test: the suite against ${verdicts.length} known-bad implementations (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  for (const v of verdicts) {
    const mark = v.problem ? 'NOT REJECTED' : 'rejected';
    console.log(`  ${mark.padEnd(12)} ${v.file.padEnd(40)} breaks ${v.breaks}: ${v.what}`);
    if (v.problem) console.log(`               ${v.problem}`);
    else console.log(`               by ${v.rejectedBy.length} failing scenario(s) citing it, e.g. ${v.rejectedBy[0]}`);
  }
  const bad = verdicts.filter((v) => v.problem);
  fs.rmSync(tmp, { recursive: true, force: true });
  if (bad.length > 0) {
    console.error(`self-test: ${bad.length} known-bad implementation(s) not rejected by a scenario citing the clause they break`);
    process.exit(1);
  }
}

void main();
