/**
 * pmix-conformance: the command line (bin/pmix-conformance.js runs this).
 * `run` drives cucumber over the features and then writes the conformance
 * report; `smoke` checks a wire-protocol harness; `compare` diffs two
 * reports; `areas` lists the spec areas. See HELP.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
// The rest is loaded when a command needs it, so that --help answers at once.

const ROOT = path.resolve(__dirname, '..');

export const HELP = `pmix-conformance: the PMIx dynamic-resource conformance suite

Checks an implementation of PMIx dynamic resource management (allocation
requests, node reservations, PMIX_SPAWN_TARGET, the elastic DVM) against the
specification, one clause at a time, and reports which clauses it honours.
The scenarios in features/ are the specification made executable.

Usage:
  pmix-conformance [run] [options] [feature paths or scenario ids] [-- cucumber arguments]
  pmix-conformance smoke --command "<harness command line>"
  pmix-conformance compare A.json B.json
  pmix-conformance site --out DIR [--expect NAME=FILE]... RUN.json...
  pmix-conformance areas

Commands:
  run        Run the suite (the default). Progress is printed as it goes;
             afterwards the reports are written and a verdict printed.
  smoke      Check that a harness speaks the wire protocol (handshake, start,
             observe, stop, twice) and say what to fix if not. Seconds,
             not minutes: do this before the first full run.
  compare    What changed between two reports/conformance.json files (two
             runs, or two implementations): newly failing, newly passing.
  areas      List the spec areas (for --area) with their scenario counts.
  site       Build a static site (no server, no external asset) from one or
             more conformance.json runs: the matrix of implementations x
             areas and clauses, a page per clause, implementation and
             feature, diffs between runs of one implementation (given in
             order). --expect NAME=FILE shows that implementation's
             expectation reasons. See docs/site.md.

What to test (run; default: the built-in reference engine):
  --command "<cmd>"    An implementation in any language that speaks the wire
                       protocol on stdin/stdout (schemas/README.md). It runs
                       in your current directory.
  --adapter <module>   A TypeScript/JavaScript adapter module exporting
                       createImplementation() (seam/implementation.ts).

Which scenarios (run):
  --tags "<expr>"      A cucumber tag expression (no wildcards), e.g.
                       "@clause:NR.route.app-target-rejected" or
                       "@needs:elastic and not @area:elastic-shrink".
  --area <name>        Only one spec area (@area:<name>); repeatable. See "areas".
  <path or id>         Feature files, folders, or scenario ids exactly as the
                       reports print them (features/x.feature:101:113 runs
                       that one Examples row); repeatable.

Judging and reports (run):
  --expect <file>      Expected failures, each with a reason (for example
                       expectations/prrte.json). Without it every scenario
                       must pass or be skipped.
  --reports <dir>      Where reports go (default: reports). Written there:
                       report.html           open in a browser: what decides the exit
                                             status first, then each failing clause
                       summary.md            read this first: verdict, outcomes per
                                             area, each failing clause and what was observed
                       conformance.json      every clause and scenario (schemas/reports/)
                       conformance.html      every step, for a browser
                       conformance.junit.xml for a CI system
                       conformance.ndjson    cucumber messages, for tools
                       They are written beside it first and replace the
                       previous run's only when the run completes.
  --max-timeouts <K>   Stop the run early after K consecutive scenarios in
                       which the same kind of request got no answer (default
                       3; 0: never); the rest are skipped, and the run fails
                       naming the request (PMIX_CONFORMANCE_MAX_TIMEOUTS).

Paths (--adapter, --expect, --reports, feature paths) are relative to the
current directory, here and in scripts/conformance.sh alike.

Outcomes: passed; failed (the implementation broke a clause); skipped (it
does not declare a capability the scenario needs); errored (it crashed,
hung or answered garbage).

Exit status: 0 when every outcome matches the expectations (an expected
failure that now passes counts as a mismatch: remove it from the file),
1 when one does not, 2 on a usage error. compare always exits 0.

Examples:
  pmix-conformance smoke --command "python3 my_harness.py"
  pmix-conformance run --command "python3 my_harness.py" --expect expectations/mine.json
  pmix-conformance run --adapter known-bad/narrows-spawn-target.ts --area targeting
  pmix-conformance run --tags "@needs:PMIX_SPAWN_TARGET" --reports /tmp/r
  pmix-conformance compare reports-before/conformance.json reports/conformance.json

Environment: PMIX_CONFORMANCE_TIMEOUT_MS (per request, default 10000),
PMIX_CONFORMANCE_MAX_TIMEOUTS (see --max-timeouts),
PMIX_CONFORMANCE_START_TIMEOUT_MS, PMIX_CONFORMANCE_PROCESS=reuse|fresh,
PMIX_CONFORMANCE_ECHO_STDERR=1 (see adapters/subprocess.ts).
`;

export class UsageError extends Error {}

export interface RunOptions {
  adapter?: string;
  command?: string;
  tags: string[];
  areas: string[];
  expect?: string;
  reports: string;
  cucumberArgs: string[];
  /** Feature paths and scenario ids (as the reports print them), relative to the current directory. */
  paths?: string[];
  /** PMIX_CONFORMANCE_MAX_TIMEOUTS for the run (steps/support/hang-guard.ts). */
  maxTimeouts?: number;
}

export type Parsed =
  | { cmd: 'help' }
  | { cmd: 'run'; options: RunOptions }
  | { cmd: 'smoke'; command: string }
  | { cmd: 'compare'; a: string; b: string }
  | { cmd: 'areas' }
  | { cmd: 'site'; args: string[] };

export function parseArgs(argv: string[]): Parsed {
  const args = [...argv];
  if (args.length === 0 || args.includes('--help') || args.includes('-h') || args[0] === 'help') return args.length === 0 ? runOf([]) : { cmd: 'help' };
  const first = args[0];
  if (first === 'smoke') {
    const rest = args.slice(1);
    const i = rest.indexOf('--command');
    if (i < 0 || rest[i + 1] === undefined) throw new UsageError('smoke needs --command "<harness command line>"');
    if (rest.length !== 2) throw new UsageError(`smoke takes only --command, not ${rest.filter((_, j) => j !== i && j !== i + 1).join(' ')}`);
    return { cmd: 'smoke', command: rest[i + 1] };
  }
  if (first === 'compare') {
    if (args.length !== 3) throw new UsageError('compare needs two report files: compare A.json B.json');
    return { cmd: 'compare', a: args[1], b: args[2] };
  }
  if (first === 'areas') return { cmd: 'areas' };
  if (first === 'site') return { cmd: 'site', args: args.slice(1) };
  return runOf(first === 'run' ? args.slice(1) : args);
}

function runOf(args: string[]): Parsed {
  const o: RunOptions = { tags: [], areas: [], reports: 'reports', cucumberArgs: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--') {
      o.cucumberArgs = args.slice(i + 1);
      break;
    } else if (a === '--adapter') o.adapter = value();
    else if (a === '--command') o.command = value();
    else if (a === '--tags') o.tags.push(value());
    else if (a === '--area') o.areas.push(value());
    else if (a === '--expect') o.expect = value();
    else if (a === '--reports') o.reports = value();
    else if (a === '--max-timeouts') {
      const v = value();
      if (!/^\d+$/.test(v)) throw new UsageError(`--max-timeouts needs a whole number (0: never stop early), not "${v}"`);
      o.maxTimeouts = Number(v);
    } else if (!a.startsWith('-')) {
      if (!/[/\\]|\.feature/.test(a) && !fs.existsSync(a)) throw new UsageError(`unknown command "${a}" (see pmix-conformance --help)`);
      (o.paths ??= []).push(a);
    } else throw new UsageError(`unknown option "${a}" (see pmix-conformance --help; cucumber's own options go after --)`);
  }
  if (o.adapter && o.command) throw new UsageError('give --adapter or --command, not both');
  return { cmd: 'run', options: o };
}

/** The tag expression cucumber gets: every --tags, and any of the --area values. */
export function tagExpression(o: RunOptions): string | undefined {
  const parts = o.tags.map((t) => `(${t})`);
  if (o.areas.length > 0) parts.push(`(${o.areas.map((a) => `@area:${a}`).join(' or ')})`);
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

const quoteWord = (w: string) => `'${w.replace(/'/g, "'\\''")}'`;

/**
 * The suite runs in the repository (its features and config live there), but
 * a harness command is the user's: run it in the user's directory.
 */
export function commandIn(command: string, cwd: string): string {
  if (path.resolve(cwd) === ROOT) return command;
  return `sh -c ${quoteWord('cd "$0" && exec "$@"')} ${quoteWord(cwd)} ${command}`;
}

export function areas(): Map<string, number> {
  const { loadScenarios, tagValues } = require('./lib/scenarios') as typeof import('./lib/scenarios');
  const counts = new Map<string, number>();
  for (const s of loadScenarios(ROOT)) for (const a of tagValues(s.tags, 'area')) counts.set(a, (counts.get(a) ?? 0) + 1);
  return new Map([...counts.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

async function run(o: RunOptions, cwd: string): Promise<number> {
  const known = areas();
  for (const a of o.areas) {
    if (known.has(a)) continue;
    const { nearest } = require('./lib/selection') as typeof import('./lib/selection');
    const near = nearest(a, [...known.keys()]);
    throw new UsageError(`no scenario is in area "${a}"${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; the areas are: ${[...known.keys()].join(', ')}`);
  }
  const reports = path.resolve(cwd, o.reports);
  const expect = o.expect ? path.resolve(cwd, o.expect) : undefined;
  if (expect && !fs.existsSync(expect)) throw new UsageError(`no expectations file ${expect}`);
  // Before anything runs: the selection, the scenario ids and the expectations, every problem at once.
  const before = preflight(o, expect);
  const { translateScenarioArgs, adapterProblem, stagingDir, publish } = require('./lib/run-setup') as typeof import('./lib/run-setup');
  const { loadScenarios } = require('./lib/scenarios') as typeof import('./lib/scenarios');
  const selected = translateScenarioArgs([...(o.paths ?? []), ...o.cucumberArgs], loadScenarios(ROOT), cwd, ROOT);
  before.push(...selected.problems);
  if (before.length > 0) throw new UsageError(`nothing was run:\n${before.map((p) => `  - ${p}`).join('\n')}`);
  // An implementation that cannot start is diagnosed once, here, instead of once per scenario.
  if (o.command) {
    const { smoke } = require('./lib/smoke') as typeof import('./lib/smoke');
    const result = await smoke({ command: o.command, cwd, timeoutMs: envMs('PMIX_CONFORMANCE_TIMEOUT_MS'), startTimeoutMs: envMs('PMIX_CONFORMANCE_START_TIMEOUT_MS') });
    if (!result.ok) {
      const last = result.steps[result.steps.length - 1];
      throw new UsageError(`nothing was run: the harness \`${o.command}\` failed at "${last.step}": ${last.detail.split('\n').slice(0, 3).map((l) => l.trim()).join(' ')} (diagnosis: pmix-conformance smoke --command ${JSON.stringify(o.command)})`);
    }
  }

  const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' };
  if (o.maxTimeouts !== undefined) env.PMIX_CONFORMANCE_MAX_TIMEOUTS = String(o.maxTimeouts);
  if (o.adapter) {
    const adapter = path.resolve(cwd, o.adapter);
    if (!fs.existsSync(adapter) && !['.ts', '.js'].some((x) => fs.existsSync(adapter + x))) throw new UsageError(`no adapter module ${adapter}`);
    // One that cannot load or start: one line now, instead of a stack from cucumber's BeforeAll.
    const problem = await adapterProblem(adapter);
    if (problem) throw new UsageError(`nothing was run: ${problem}`);
    env.PMIX_CONFORMANCE_ADAPTER = adapter;
  }
  if (o.command) {
    env.PMIX_CONFORMANCE_ADAPTER = path.join(ROOT, 'adapters', 'subprocess');
    env.PMIX_CONFORMANCE_COMMAND = commandIn(o.command, cwd);
  }
  const tags = tagExpression(o);
  // Written beside the reports directory, moved into it when the run completes: the previous reports stay until then.
  const staging = stagingDir(reports);
  const ndjson = path.join(staging, 'conformance.ndjson');
  // Wherever npm put it (hoisted above the package when installed as a dependency).
  const cucumber = path.join(path.dirname(require.resolve('@cucumber/cucumber/package.json')), 'bin', 'cucumber.js');
  const args = [
    cucumber,
    ...['html:conformance.html', 'junit:conformance.junit.xml', 'message:conformance.ndjson'].flatMap((f) => {
      const [kind, file] = f.split(':');
      return ['--format', `${kind}:${path.join(staging, file)}`];
    }),
    ...(tags ? ['--tags', tags] : []),
    ...selected.args,
  ];
  const target = o.command ? `the harness \`${o.command}\`` : o.adapter ? `the adapter ${o.adapter}` : 'the built-in reference engine';
  console.log(`pmix-conformance: running the suite against ${target}${tags ? ` (tags: ${tags})` : ''}`);
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: 'inherit' });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  if (!fs.existsSync(ndjson)) {
    fs.rmSync(staging, { recursive: true, force: true });
    console.error(`pmix-conformance: cucumber exited with status ${code} before writing its message stream; nothing to report (the previous reports in ${reports} are left as they were)`);
    return 2;
  }
  const { verdictText, writeReports } = require('./report') as typeof import('./report');
  let written: import('./report').Written;
  try {
    written = writeReports({ ndjson, outDir: staging, expect, source: path.join(path.relative(cwd, reports) || '.', 'conformance.ndjson') });
  } catch (e) {
    // The run itself completed: its message stream may have cost an hour of a
    // live runtime. Keep it, say where, and how to make the reports again.
    const reportCmd = `node -r ./tools/register.js tools/report.ts --ndjson ${ndjson} --out ${reports}${expect ? ` --expect ${expect}` : ''}`;
    console.error(`pmix-conformance: the run completed but its reports could not be written; its message stream is kept in ${staging} (make the reports again with: ${reportCmd})`);
    throw e;
  }
  publish(staging, reports);
  written = { ...written, json: path.join(reports, 'conformance.json'), summary: path.join(reports, 'summary.md'), html: path.join(reports, 'report.html') };
  console.log(`\n${verdictText(written)}`);
  const html = path.relative(cwd, path.join(reports, 'conformance.html'));
  console.log(`html report (every step): ${html.startsWith('..') ? path.join(reports, 'conformance.html') : html}`);
  return written.report.verdict.matchesExpectations ? 0 : 1;
}

/** What would make the run meaningless, found before it starts: an unknown tag, an empty selection, a broken expectations file. */
export function preflight(o: RunOptions, expect: string | undefined): string[] {
  const { loadScenarios } = require('./lib/scenarios') as typeof import('./lib/scenarios');
  const { checkSelection } = require('./lib/selection') as typeof import('./lib/selection');
  const suite = loadScenarios(ROOT);
  const problems = checkSelection(tagExpression(o), suite);
  if (expect) {
    const { loadExpectations, judge } = require('./lib/expectations') as typeof import('./lib/expectations');
    try {
      const expectations = loadExpectations(expect);
      for (const p of judge([], expectations, suite).invalid) problems.push(`${path.basename(expect)}: ${p.id}: ${p.problem}`);
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  return problems;
}

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  try {
    const p = parseArgs(argv);
    switch (p.cmd) {
      case 'help':
        console.log(HELP.trimEnd());
        return 0;
      case 'areas':
        for (const [a, n] of areas()) console.log(`${a.padEnd(24)} ${n} scenario(s)`);
        return 0;
      case 'site': {
        const site = require('./site/build') as typeof import('./site/build');
        let o: import('./site/build').SiteOptions;
        try {
          o = site.resolveSiteOptions(site.parseSiteArgs(p.args), cwd);
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        const built = site.buildSite(o);
        console.log(`site: ${built.pages.length} pages in ${o.out} (open ${path.join(o.out, 'index.html')})`);
        return 0;
      }
      case 'compare':
        const { compareFiles } = require('./compare-reports') as typeof import('./compare-reports');
        console.log(compareFiles(path.resolve(cwd, p.a), path.resolve(cwd, p.b)));
        return 0;
      case 'smoke': {
        const { renderSmoke, smoke } = require('./lib/smoke') as typeof import('./lib/smoke');
        const result = await smoke({ command: p.command, cwd, timeoutMs: envMs('PMIX_CONFORMANCE_TIMEOUT_MS'), startTimeoutMs: envMs('PMIX_CONFORMANCE_START_TIMEOUT_MS') });
        console.log(renderSmoke(p.command, result));
        return result.ok ? 0 : 1;
      }
      case 'run':
        return await run(p.options, cwd);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`pmix-conformance: ${e.message}`);
      return 2;
    }
    console.error(`pmix-conformance: ${(e as Error).message}`);
    return 2;
  }
}

function envMs(name: string): number | undefined {
  const v = process.env[name];
  return v ? Number(v) : undefined;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
