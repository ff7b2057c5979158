/**
 * Every scenario of the suite as cucumber will run it (one per Examples row),
 * with its effective tags, parsed with cucumber's own Gherkin parser.
 */
import { AstBuilder, compile, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ScenarioInfo {
  /** Stable id: feature path relative to the repository + the scenario's line (+ the Examples row's line). */
  id: string;
  uri: string;
  name: string;
  tags: string[];
  /** The text of each step, as run (Examples values substituted). */
  steps?: string[];
  /** Per step: whether it carries a data table or a doc string. */
  stepHasArgument?: boolean[];
}

export function listFeatureFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFeatureFiles(p));
    else if (entry.name.endsWith('.feature')) out.push(p);
  }
  return out.sort();
}

export function loadScenarios(root: string): ScenarioInfo[] {
  const newId = IdGenerator.incrementing();
  const out: ScenarioInfo[] = [];
  for (const file of listFeatureFiles(path.join(root, 'features'))) {
    const uri = path.relative(root, file).split(path.sep).join('/');
    const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
    const doc = parser.parse(fs.readFileSync(file, 'utf8'));
    const lines = new Map<string, number>();
    const index = (children: readonly { scenario?: { id: string; location: { line: number }; examples: readonly { tableBody: readonly { id: string; location: { line: number } }[] }[] }; rule?: { children: readonly unknown[] } }[]) => {
      for (const child of children) {
        if (child.scenario) {
          lines.set(child.scenario.id, child.scenario.location.line);
          for (const ex of child.scenario.examples) for (const row of ex.tableBody) lines.set(row.id, row.location.line);
        }
        if (child.rule) index(child.rule.children as never);
      }
    };
    if (doc.feature) index(doc.feature.children as never);
    for (const pickle of compile({ ...doc, uri }, uri, newId)) {
      const scenarioLine = lines.get(pickle.astNodeIds[0]);
      const rowLine = pickle.astNodeIds.length > 1 ? lines.get(pickle.astNodeIds[pickle.astNodeIds.length - 1]) : undefined;
      out.push({
        id: `${uri}:${scenarioLine}${rowLine !== undefined ? `:${rowLine}` : ''}`,
        uri,
        name: pickle.name,
        tags: pickle.tags.map((t) => t.name),
        steps: pickle.steps.map((st) => st.text),
        stepHasArgument: pickle.steps.map((st) => st.argument !== undefined),
      });
    }
  }
  return out;
}

export const tagValues = (tags: string[], prefix: string): string[] =>
  tags.filter((t) => t.startsWith(`@${prefix}:`)).map((t) => t.slice(prefix.length + 2));
