/**
 * The clause lint (after test262's esid check): every scenario cites at least
 * one registered clause; every tag names something that exists (a clause, a
 * capability, an optional PMIx key, an interpretation point); and every
 * clause in the enforced scope has at least one scenario. Prints the
 * coverage figure per document. Exit status 1 on any error.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isCapabilityName } from '../seam/capabilities';
import { OPTIONAL_KEYS } from '../seam/pmix';
import { SCHEDULER_POLICIES } from '../steps/support/policies';
import { loadInterpretations, loadRegistry, matches } from './lib/registry';
import { loadScenarios, tagValues } from './lib/scenarios';
import { READINGS, readingTagProblem } from '../seam/readings';

/**
 * The capability a daemon step needs (steps/daemons.steps.ts daemonEventAllowed):
 * a report-in, a wireup, a clean exit or a repeated departure on command need
 * daemon-control; a crash or a failed start can be caused from outside
 * (daemon-faults). Waiting for daemons ("has joined", "runs its course") needs neither.
 */
export function daemonStepNeeds(step: string): 'daemon-control' | 'daemon-faults' | undefined {
  if (/^the daemons? on nodes? "[^"]*" (reports? in|exits|reports its departure again)$/.test(step) || step === 'the head node distributes the wireup') return 'daemon-control';
  if (/^the next shrink order fails with /.test(step)) return undefined; // a scheduler act (scheduler-control)
  if (/^the daemon on node "[^"]*" (crashes|fails to start)( with \w+)?$/.test(step) || /^the daemon on node "[^"]*" cannot start$/.test(step)) return 'daemon-faults';
  return undefined;
}

const root = path.resolve(__dirname, '..');
const registry = loadRegistry(root);
const interpretations = loadInterpretations(root);
const scenarios = loadScenarios(root);
const scope = JSON.parse(fs.readFileSync(path.join(root, 'tools', 'clause-scope.json'), 'utf8')) as { enforced: string[] };

const errors: string[] = [];
const covered = new Map<string, number>();

for (const d of registry.duplicates) errors.push(`clause id ${d} is registered twice`);

for (const s of scenarios) {
  const where = `${s.id} "${s.name}"`;
  const clauses = tagValues(s.tags, 'clause');
  if (clauses.length === 0) errors.push(`${where}: cites no @clause`);
  for (const c of clauses) {
    const clause = registry.clauses.get(c);
    if (!clause) errors.push(`${where}: @clause:${c} names no registered clause`);
    else if (clause.retired) errors.push(`${where}: @clause:${c} is retired`);
    else if (clause.notTestable !== undefined) errors.push(`${where}: @clause:${c} is marked not testable ("${clause.notTestable}")`);
    else covered.set(c, (covered.get(c) ?? 0) + 1);
  }
  for (const cap of tagValues(s.tags, 'needs')) {
    if (!isCapabilityName(cap)) errors.push(`${where}: @needs:${cap} names no capability of seam/capabilities.ts`);
  }
  for (const key of tagValues(s.tags, 'without')) {
    if (!(OPTIONAL_KEYS as readonly string[]).includes(key)) errors.push(`${where}: @without:${key} names no optional PMIx key`);
  }
  for (const policy of tagValues(s.tags, 'scheduler')) {
    if (!(policy in SCHEDULER_POLICIES)) errors.push(`${where}: @scheduler:${policy} names no policy of steps/support/policies.ts`);
  }
  for (const ip of tagValues(s.tags, 'interpretation')) {
    if (!interpretations.has(ip)) errors.push(`${where}: @interpretation:${ip} names no entry of features/INTERPRETATIONS.md`);
  }
  // An exact status is asserted only where a cited clause names it; elsewhere
  // the step says the request is rejected and the specification names no status.
  for (const step of s.steps ?? []) {
    const m = /(?:rejected|refused) with (PMIX_[A-Z_]+(?: or PMIX_[A-Z_]+)*)$/.exec(step);
    for (const status of m ? m[1].split(' or ') : []) {
      if (!clauses.some((c) => registry.clauses.get(c)?.status === status)) {
        errors.push(`${where}: "${step}" asserts ${status}, which no clause the scenario cites names (cite the clause that names it, or assert "the request is rejected (the specification names no status)")`);
      }
    }
  }
  for (const tag of s.tags.filter((t) => t.startsWith('@reading:'))) {
    const problem = readingTagProblem(tag);
    if (problem) errors.push(`${where}: ${problem}`);
  }
  // A step that makes a daemon act needs the capability that lets the runner cause it.
  const needs = tagValues(s.tags, 'needs');
  for (const step of s.steps ?? []) {
    const need = daemonStepNeeds(step);
    if (need === 'daemon-control' && !needs.includes('daemon-control')) errors.push(`${where}: "${step}" steps a daemon on command: tag it @needs:daemon-control`);
    if (need === 'daemon-faults' && !needs.includes('daemon-faults') && !needs.includes('daemon-control')) errors.push(`${where}: "${step}" causes a daemon fault: tag it @needs:daemon-faults (or @needs:daemon-control)`);
  }
}
// Every reading is explained where a reader of the features will see it.
for (const [name, r] of Object.entries(READINGS)) {
  if (!interpretations.has(r.ip)) errors.push(`reading ${name}: its interpretation point ${r.ip} is not in features/INTERPRETATIONS.md`);
}

const live = [...registry.clauses.values()].filter((c) => !c.retired && c.notTestable === undefined);
const notTestable = [...registry.clauses.values()].filter((c) => !c.retired && c.notTestable !== undefined);
const overruled = live.filter((c) => c.overruledBy !== undefined);
for (const c of overruled) {
  if (!interpretations.has(c.overruledBy!)) errors.push(`clause ${c.id} is overruled by ${c.overruledBy}, which INTERPRETATIONS.md does not define`);
}
const enforced = live.filter((c) => c.overruledBy === undefined && scope.enforced.some((p) => matches(c.id, p)));
const uncoveredEnforced = enforced.filter((c) => !covered.has(c.id));
for (const c of uncoveredEnforced) errors.push(`clause ${c.id} (${c.document}, "${c.section}") is in the enforced scope but no scenario cites it`);

const pending = live.filter((c) => c.overruledBy === undefined && !covered.has(c.id) && !enforced.includes(c));

console.log(`clause lint: ${scenarios.length} scenarios, ${registry.clauses.size} clauses in ${registry.documents.length} documents, ${interpretations.size} interpretation points`);
for (const d of registry.documents) {
  const ids = live.filter((c) => c.prefix === d.prefix && c.overruledBy === undefined);
  const n = ids.filter((c) => covered.has(c.id)).length;
  const pct = ids.length === 0 ? 100 : (100 * n) / ids.length;
  console.log(`  ${d.prefix.padEnd(3)} ${d.document.padEnd(34)} ${String(n).padStart(3)}/${String(ids.length).padEnd(3)} covered (${pct.toFixed(0)}%)`);
}
const coveredLive = live.filter((c) => c.overruledBy === undefined && covered.has(c.id)).length;
const total = live.length - overruled.length;
console.log(`  overall: ${coveredLive}/${total} clauses covered (${((100 * coveredLive) / total).toFixed(1)}%); enforced scope ${enforced.length - uncoveredEnforced.length}/${enforced.length}`);
if (notTestable.length > 0) console.log(`  not testable through a runtime (each with its reason in the registry): ${notTestable.map((c) => c.id).join(', ')}`);
if (overruled.length > 0) console.log(`  overruled by an interpretation point: ${overruled.map((c) => `${c.id} (${c.overruledBy})`).join(', ')}`);
if (process.argv.includes('--pending')) for (const c of pending) console.log(`  pending: ${c.id} — ${c.text}`);
else console.log(`  pending (not yet in the enforced scope, no scenario): ${pending.length} clauses; --pending lists them`);

if (errors.length > 0) {
  console.error(`\nclause lint: ${errors.length} error(s)`);
  for (const e of errors) console.error(`  ${e}`);
  process.exit(1);
}
