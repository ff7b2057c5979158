/**
 * The feature files as documents, parsed with cucumber's own Gherkin parser
 * (@cucumber/gherkin): each feature's prose, background, rules, scenarios,
 * steps with their data tables and doc strings, and Examples tables, each
 * scenario and Examples row under the stable id the reports use
 * (tools/lib/scenarios.ts: `uri:line[:examples row line]`).
 */
import { AstBuilder, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listFeatureFiles } from '../lib/scenarios';

export interface Step {
  keyword: string;
  text: string;
  table?: string[][];
  docString?: string;
}

export interface ExamplesBlock {
  name: string;
  tags: string[];
  header: string[];
  /** Each row with the id of the scenario it becomes. */
  rows: { id: string; line: number; cells: string[] }[];
}

export interface ScenarioDoc {
  uri: string;
  line: number;
  keyword: string;
  name: string;
  description: string;
  /** Its own tags. */
  tags: string[];
  /** Feature, rule, scenario (and, for an outline, every Examples block's) tags. */
  effectiveTags: string[];
  steps: Step[];
  examples: ExamplesBlock[];
  /** The ids of the scenarios it runs as: itself, or one per Examples row. */
  ids: string[];
  /** Each id's effective tags (an Examples row has its block's tags, not the other blocks'). */
  tagsOf: Record<string, string[]>;
  rule?: string;
}

export interface RuleDoc {
  name: string;
  description: string;
  tags: string[];
  background?: Step[];
  scenarios: ScenarioDoc[];
}

export interface FeatureDoc {
  uri: string;
  name: string;
  description: string;
  tags: string[];
  background?: Step[];
  /** Scenarios outside any Rule. */
  scenarios: ScenarioDoc[];
  rules: RuleDoc[];
}

interface AstTag { name: string }
interface AstStep { keyword: string; text: string; dataTable?: { rows: { cells: { value: string }[] }[] }; docString?: { content: string } }
interface AstScenario {
  location: { line: number };
  keyword: string;
  name: string;
  description: string;
  tags: AstTag[];
  steps: AstStep[];
  examples: { name: string; tags: AstTag[]; tableHeader?: { cells: { value: string }[] }; tableBody: { location: { line: number }; cells: { value: string }[] }[] }[];
}
interface AstChild { background?: { steps: AstStep[] }; scenario?: AstScenario; rule?: { name: string; description: string; tags: AstTag[]; children: AstChild[] } }

const names = (tags: AstTag[]) => tags.map((t) => t.name);
const steps = (list: AstStep[]): Step[] =>
  list.map((s) => ({
    keyword: s.keyword.trim(),
    text: s.text,
    ...(s.dataTable ? { table: s.dataTable.rows.map((r) => r.cells.map((c) => c.value)) } : {}),
    ...(s.docString ? { docString: s.docString.content } : {}),
  }));
const dedent = (s: string) => s.split('\n').map((l) => l.trim()).join('\n').trim();

function scenarioOf(uri: string, s: AstScenario, inherited: string[], rule?: string): ScenarioDoc {
  const own = names(s.tags);
  const examples: ExamplesBlock[] = s.examples.map((e) => ({
    name: e.name,
    tags: names(e.tags),
    header: e.tableHeader?.cells.map((c) => c.value) ?? [],
    rows: e.tableBody.map((r) => ({ id: `${uri}:${s.location.line}:${r.location.line}`, line: r.location.line, cells: r.cells.map((c) => c.value) })),
  }));
  const ids = examples.length > 0 ? examples.flatMap((e) => e.rows.map((r) => r.id)) : [`${uri}:${s.location.line}`];
  const effectiveTags = [...new Set([...inherited, ...own, ...examples.flatMap((e) => e.tags)])];
  const tagsOf: Record<string, string[]> = {};
  if (examples.length === 0) tagsOf[ids[0]] = [...new Set([...inherited, ...own])];
  for (const e of examples) for (const r of e.rows) tagsOf[r.id] = [...new Set([...inherited, ...own, ...e.tags])];
  return { uri, line: s.location.line, keyword: s.keyword, name: s.name, description: dedent(s.description ?? ''), tags: own, effectiveTags, steps: steps(s.steps), examples, ids, tagsOf, ...(rule ? { rule } : {}) };
}

export function parseFeature(root: string, file: string): FeatureDoc | undefined {
  const uri = path.relative(root, file).split(path.sep).join('/');
  const parser = new Parser(new AstBuilder(IdGenerator.incrementing()), new GherkinClassicTokenMatcher());
  const doc = parser.parse(fs.readFileSync(file, 'utf8'));
  const f = doc.feature as unknown as { name: string; description: string; tags: AstTag[]; children: AstChild[] } | undefined;
  if (!f) return undefined;
  const featureTags = names(f.tags);
  const out: FeatureDoc = { uri, name: f.name, description: dedent(f.description ?? ''), tags: featureTags, scenarios: [], rules: [] };
  for (const child of f.children) {
    if (child.background) out.background = steps(child.background.steps);
    if (child.scenario) out.scenarios.push(scenarioOf(uri, child.scenario, featureTags));
    if (child.rule) {
      const r = child.rule;
      const ruleTags = names(r.tags);
      const rule: RuleDoc = { name: r.name, description: dedent(r.description ?? ''), tags: ruleTags, scenarios: [] };
      for (const c of r.children) {
        if (c.background) rule.background = steps(c.background.steps);
        if (c.scenario) rule.scenarios.push(scenarioOf(uri, c.scenario, [...featureTags, ...ruleTags], r.name));
      }
      out.rules.push(rule);
    }
  }
  return out;
}

export function loadFeatures(root: string): FeatureDoc[] {
  return listFeatureFiles(path.join(root, 'features'))
    .map((f) => parseFeature(root, f))
    .filter((f): f is FeatureDoc => f !== undefined);
}

export const allScenarios = (f: FeatureDoc): ScenarioDoc[] => [...f.scenarios, ...f.rules.flatMap((r) => r.scenarios)];
