/**
 * pmix-conformance site: a static, self-contained site (inline CSS, no
 * script, no external asset) built from one or more conformance.json runs.
 *
 *   pmix-conformance site --out DIR [--expect NAME=FILE]… RUN.json…
 *
 * Pages: index.html (the matrix), clause/<id>.html, impl/<name>.html,
 * diff/<name>-<n>.html (run n → run n+1 of one implementation),
 * feature/<path>.html (living documentation), features.html,
 * interpretations.html.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeLinker, page, paths } from './html';
import { loadSite, type SiteData } from './load';
import { clausePage } from './pages/clause';
import { diffPage } from './pages/diff';
import { featurePage, featuresIndexPage } from './pages/feature';
import { implPage } from './pages/impl';
import { indexPage } from './pages/index';
import { interpretationsPage } from './pages/interpretations';

const ROOT = path.resolve(__dirname, '..', '..');

export interface SiteOptions {
  out: string;
  runs: string[];
  /** Implementation name -> expectations file. */
  expect?: Map<string, string>;
  root?: string;
  now?: Date;
}

export interface Built {
  site: SiteData;
  /** Site-relative paths of every page written. */
  pages: string[];
}

export function buildSite(o: SiteOptions): Built {
  const site = loadSite({ root: o.root ?? ROOT, runs: o.runs, expect: o.expect ?? new Map(), now: o.now });
  const linker = makeLinker(site.interpretations.ids, new Set(site.clauses.map((c) => c.id)));
  const pages: string[] = [];
  const write = (rel: string, p: { title: string; body: string }) => {
    const file = path.join(o.out, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, page({ path: rel, title: p.title, body: p.body, generated: site.generated }));
    pages.push(rel);
  };
  fs.mkdirSync(o.out, { recursive: true });
  write(paths.index(), indexPage(site, linker));
  write('features.html', featuresIndexPage(site, linker));
  write(paths.interpretations(), interpretationsPage(site, linker));
  for (const c of site.clauses) write(paths.clause(c.id), clausePage(site, c, linker));
  for (const i of site.implementations) {
    write(paths.impl(i.name), implPage(site, i, linker));
    for (let k = 1; k < i.runs.length; k++) write(paths.diff(i.name, k), diffPage(site, i, k, linker));
  }
  for (const f of site.features) write(paths.feature(f.uri), featurePage(site, f, linker));
  return { site, pages };
}

/** The command line: --out DIR, --expect NAME=FILE (repeatable), then the runs. Throws an Error with a usage message. */
export function parseSiteArgs(args: string[]): SiteOptions {
  const o: SiteOptions = { out: '', runs: [], expect: new Map() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--out') o.out = value();
    else if (arg === '--expect') {
      const v = value();
      const eq = v.indexOf('=');
      if (eq <= 0 || eq === v.length - 1) throw new Error(`--expect takes NAME=FILE (the implementation's name as its report gives it), not "${v}"`);
      o.expect!.set(v.slice(0, eq), v.slice(eq + 1));
    } else if (arg.startsWith('--')) throw new Error(`unknown option "${arg}" for site`);
    else o.runs.push(arg);
  }
  if (!o.out) throw new Error('site needs --out DIR');
  if (o.runs.length === 0) throw new Error('site needs at least one conformance.json');
  return o;
}

export function resolveSiteOptions(o: SiteOptions, cwd: string): SiteOptions {
  return { ...o, out: path.resolve(cwd, o.out), runs: o.runs.map((r) => path.resolve(cwd, r)), expect: new Map([...(o.expect ?? new Map())].map(([k, v]) => [k, path.resolve(cwd, v)])) };
}

if (require.main === module) {
  try {
    const o = resolveSiteOptions(parseSiteArgs(process.argv.slice(2)), process.cwd());
    const built = buildSite(o);
    console.log(`site: ${built.pages.length} pages in ${o.out} (open ${path.join(o.out, 'index.html')})`);
  } catch (e) {
    console.error(`site: ${(e as Error).message}`);
    process.exitCode = 2;
  }
}
