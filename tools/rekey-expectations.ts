/**
 * An edit to a feature file moves the ids (file:line) of the scenarios below
 * the edit, and an expectations file that names them by their old ids no
 * longer loads ("names no scenario of the suite ... is now ..."). This
 * rewrites such ids to the scenario's new id, found by its name, and nothing
 * else: an entry is moved only when exactly one scenario of the same feature
 * file has its recorded name, so no verdict is ever carried over to a
 * different scenario. What it cannot move it prints, and the exit status is 1.
 *
 *   node -r ./tools/register.js tools/rekey-expectations.ts FILE [FILE...]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadScenarios } from './lib/scenarios';
import type { ScenarioInfo } from './lib/scenarios';

interface Entry {
  id: string;
  scenario?: string;
}

/** The new id of each entry that moved, or why it cannot be moved. Pure, for the tests. */
export function rekey(entries: readonly Entry[], suite: readonly ScenarioInfo[]): { moves: Map<string, string>; stuck: string[] } {
  const known = new Map(suite.map((s) => [s.id, s]));
  const moves = new Map<string, string>();
  const stuck: string[] = [];
  for (const e of entries) {
    const now = known.get(e.id);
    if (now && (e.scenario === undefined || now.name === e.scenario)) continue;
    const file = e.id.split(':')[0];
    const named = e.scenario === undefined ? [] : suite.filter((s) => s.name === e.scenario && s.id.split(':')[0] === file);
    if (named.length === 1) moves.set(e.id, named[0].id);
    else stuck.push(`${e.id}: ${named.length === 0 ? 'no scenario of its feature file has its name' : `${named.length} scenarios have its name`} (${JSON.stringify(e.scenario)})`);
  }
  const targets = [...moves.values()];
  for (const t of new Set(targets)) if (targets.filter((x) => x === t).length > 1) stuck.push(`${t}: more than one entry would move there`);
  return { moves, stuck };
}

function main(files: string[]): number {
  const root = path.resolve(__dirname, '..');
  const suite = loadScenarios(root);
  let status = 0;
  for (const file of files) {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { expected: Entry[] };
    const { moves, stuck } = rekey(data.expected, suite);
    for (const e of data.expected) e.id = moves.get(e.id) ?? e.id;
    if (moves.size > 0) fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
    console.log(`${file}: ${moves.size} id(s) moved${[...moves].map(([a, b]) => `\n  ${a} -> ${b}`).join('')}`);
    for (const s of stuck) console.log(`  cannot move ${s}`);
    if (stuck.length > 0) status = 1;
  }
  return status;
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
