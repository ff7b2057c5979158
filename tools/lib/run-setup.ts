/**
 * What `pmix-conformance run` (and scripts/conformance.sh, which runs it, and
 * scripts/prrte-run.sh) settles before and after cucumber:
 *
 * - scenario ids as the reports print them (`features/x.feature:101:113`:
 *   the outline's line and the Examples row's line) become what cucumber
 *   needs to run exactly that scenario (`features/x.feature:113`: cucumber
 *   runs an outline row when given the row's line; given both numbers it
 *   runs the whole outline too). A path is relative to the current
 *   directory, like every path the command line takes;
 * - an adapter module is loaded and asked to describe itself before the run,
 *   so one that cannot load or start is one line, not a stack per scenario;
 * - the reports are written into a directory beside the reports directory
 *   and moved into it only when the run completed, so a run that cannot
 *   start, or is interrupted, leaves the previous reports in place.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScenarioInfo } from './scenarios';

const FEATURE_ARG = /^(.*\.feature)((?::\d+)+)$/;

export interface TranslatedArgs {
  /** What cucumber gets (paths relative to the repository when inside it, absolute otherwise). */
  args: string[];
  /** Ids and paths that name nothing, each with the nearest scenario. */
  problems: string[];
}

/**
 * Feature paths and scenario ids among cucumber arguments, made exact:
 * `file:line:rowLine` (a report's id) becomes `file:rowLine`. Options and
 * their values pass unchanged; a path is resolved against `cwd`.
 */
export function translateScenarioArgs(argv: readonly string[], suite: readonly ScenarioInfo[], cwd: string, root: string): TranslatedArgs {
  const ids = new Map(suite.map((s) => [s.id, s]));
  const lines = new Map<string, Set<number>>();
  for (const s of suite) {
    const m = FEATURE_ARG.exec(s.id)!;
    const set = lines.get(m[1]) ?? new Set<number>();
    for (const n of m[2].slice(1).split(':')) set.add(Number(n));
    lines.set(m[1], set);
  }
  const problems: string[] = [];
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('-')) {
      args.push(a);
      // The value of an option that takes one passes unchanged (--tags "@x", --name "y").
      if (!a.includes('=') && i + 1 < argv.length && !argv[i + 1].startsWith('-') && OPTIONS_WITH_VALUE.has(a)) args.push(argv[++i]);
      continue;
    }
    const m = FEATURE_ARG.exec(a);
    const file = m ? m[1] : a;
    const abs = path.resolve(cwd, file);
    const rel = path.relative(root, abs).split(path.sep).join('/');
    const inside = !rel.startsWith('..') && !path.isAbsolute(rel);
    const shown = inside ? rel : abs;
    if (!fs.existsSync(abs)) {
      problems.push(`${a}: no such file or directory (paths are relative to the current directory, ${cwd})`);
      continue;
    }
    if (!m) {
      args.push(shown);
      continue;
    }
    const numbers = m[2].slice(1).split(':').map(Number);
    const id = `${rel}:${numbers.join(':')}`;
    if (inside && numbers.length === 2 && ids.has(id)) {
      // A report's id: the row's line alone runs exactly that row.
      args.push(`${shown}:${numbers[1]}`);
      continue;
    }
    const known = lines.get(rel);
    if (inside && known) {
      const unknown = numbers.filter((n) => !known.has(n));
      if (unknown.length > 0) {
        const nearest = suite.filter((s) => s.uri === rel).sort((x, y) => Math.abs(lineOf(x.id) - unknown[0]) - Math.abs(lineOf(y.id) - unknown[0]))[0];
        problems.push(`${a}: line ${unknown.join(', ')} of ${rel} begins no scenario and no Examples row${nearest ? ` (the nearest scenario is ${nearest.id}: "${nearest.name}")` : ''}`);
        continue;
      }
    }
    args.push(`${shown}${m[2]}`);
  }
  return { args, problems };
}

/** cucumber-js options followed by a value (so a value is never taken for a path). */
const OPTIONS_WITH_VALUE = new Set(['--tags', '-t', '--name', '--format', '-f', '--profile', '-p', '--require', '-r', '--import', '-i', '--world-parameters', '--format-options', '--parallel', '--retry', '--retry-tag-filter', '--order', '--language', '--require-module', '--shard']);

const lineOf = (id: string) => Number(/\.feature:(\d+)/.exec(id)?.[1] ?? 0);

/**
 * Load an adapter module and ask it to describe itself, as the suite's
 * BeforeAll would: the one-line problem if it cannot, else undefined.
 */
export async function adapterProblem(file: string, timeoutMs = 20000): Promise<string | undefined> {
  let mod: { createImplementation?: unknown };
  try {
    mod = require(file) as { createImplementation?: unknown };
  } catch (e) {
    return `the adapter module ${file} cannot be loaded: ${firstLine(e)}`;
  }
  if (typeof mod.createImplementation !== 'function') return `the adapter module ${file} exports no createImplementation() (seam/implementation.ts)`;
  let impl: { describe(): Promise<unknown>; stop(): Promise<void> };
  try {
    impl = (mod.createImplementation as () => typeof impl)();
  } catch (e) {
    return `the adapter module ${file}: createImplementation() threw: ${firstLine(e)}`;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([impl.describe(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`describe() gave no answer within ${timeoutMs} ms`)), timeoutMs)))]);
    return undefined;
  } catch (e) {
    return `the implementation behind ${file} cannot start: ${firstLine(e)}`;
  } finally {
    clearTimeout(timer);
    await impl.stop().catch(() => undefined);
  }
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0];

/** The files a run writes into its reports directory (the ones a new run replaces). */
export const RUN_FILES = ['conformance.ndjson', 'conformance.html', 'conformance.junit.xml', 'conformance.json', 'summary.md', 'report.html'];

/** A fresh directory beside `reports` for this run's files (reports itself is untouched until publish()). */
export function stagingDir(reports: string): string {
  fs.mkdirSync(path.dirname(reports), { recursive: true });
  return fs.mkdtempSync(path.join(path.dirname(reports), `.${path.basename(reports)}.new-`));
}

/**
 * Move a completed run's files into `reports`, replacing the previous run's
 * (a previous run's file this run did not write is removed, so nothing
 * stale is left beside the new ones); other files there are left alone.
 */
export function publish(staging: string, reports: string): void {
  fs.mkdirSync(reports, { recursive: true });
  const written = new Set(fs.readdirSync(staging));
  for (const f of RUN_FILES) if (!written.has(f)) fs.rmSync(path.join(reports, f), { force: true });
  for (const f of written) {
    const to = path.join(reports, f);
    fs.rmSync(to, { recursive: true, force: true });
    fs.renameSync(path.join(staging, f), to);
  }
  fs.rmSync(staging, { recursive: true, force: true });
}
