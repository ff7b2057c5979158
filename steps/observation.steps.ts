/** What a client can see: where nodes are available, where processes run, and that a rejection changed nothing. */
import { Then } from './support/claims';
import { isDeepStrictEqual } from 'node:util';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';
import { diff } from './support/diff';
import { noEffectOf } from './support/charge';

async function nodeViews(world: ConformanceWorld, names: string[]) {
  await world.ready();
  const snap = await world.snapshot({ nodes: names });
  return new Map(snap.nodes.map((n) => [n.name, n]));
}

Then('node(s) {string} is/are reserved to allocation {string}', async function (this: ConformanceWorld, names: string, alias: string) {
  const views = await nodeViews(this, splitNames(names));
  for (const name of splitNames(names)) {
    const v = views.get(name);
    if (!v || v.availableTo !== this.allocId(alias)) {
      this.fail(`node ${name} available only to allocation ${alias}`, v ? `available to ${this.nameOf(v.availableTo)}` : 'not in the DVM');
    }
  }
});

Then('node(s) {string} is/are in the default session', async function (this: ConformanceWorld, names: string) {
  const views = await nodeViews(this, splitNames(names));
  for (const name of splitNames(names)) {
    const v = views.get(name);
    if (!v || v.availableTo !== '') this.fail(`node ${name} in the DVM's default session`, v ? `available to ${this.nameOf(v.availableTo)}` : 'not in the DVM');
  }
});

Then('node(s) {string} is/are not in the DVM', async function (this: ConformanceWorld, names: string) {
  const views = await nodeViews(this, splitNames(names));
  for (const name of splitNames(names)) {
    const v = views.get(name);
    if (v) this.fail(`node ${name} not to be a member of the DVM`, `it is, available to ${this.nameOf(v.availableTo)}`);
  }
});

const jobView = (world: ConformanceWorld, alias: string) => world.observedJob(alias);

Then('every process of job {string} is on node(s) {string}', async function (this: ConformanceWorld, alias: string, names: string) {
  const allowed = new Set(splitNames(names));
  const job = await jobView(this, alias);
  const outside = job.procs.filter((p) => !allowed.has(p.node));
  if (job.procs.length === 0 || outside.length > 0) {
    this.fail(`every process of job ${alias} on ${[...allowed].join(', ')}`, job.procs.map((p) => `rank ${p.rank} on ${p.node || '(nowhere)'}`).join('; ') || 'no processes');
  }
});

Then('no process of job {string} is on node(s) {string}', async function (this: ConformanceWorld, alias: string, names: string) {
  const banned = new Set(splitNames(names));
  const job = await jobView(this, alias);
  const inside = job.procs.filter((p) => banned.has(p.node));
  if (inside.length > 0) this.fail(`no process of job ${alias} on ${[...banned].join(', ')}`, inside.map((p) => `rank ${p.rank} on ${p.node}`).join('; '));
});

Then('job {string} has processes on node(s) {string}', async function (this: ConformanceWorld, alias: string, names: string) {
  const job = await jobView(this, alias);
  const used = new Set(job.procs.map((p) => p.node));
  const missing = splitNames(names).filter((n) => !used.has(n));
  if (missing.length > 0) this.fail(`job ${alias} to have a process on each of ${names}`, `none on ${missing.join(', ')}; placed on ${[...used].join(', ')}`);
});

/**
 * A rejection has no partial effect: everything a client can observe (and,
 * with the introspection capability, the owner sets and recorded
 * dispositions) is exactly as it was before the rejected request.
 */
Then('nothing changed', async function (this: ConformanceWorld) {
  const last = this.last;
  if (!last) throw new Error('no request was made');
  if (!last.before) throw new Error(`"nothing changed" found no observation recorded before ${last.operation}: is the step's text in COMPARES_WITH_BEFORE (steps/support/world.ts)?`);
  const before = last.before;
  const now = await this.observe();
  if (!isDeepStrictEqual(now.snapshot, before.snapshot)) {
    this.fail('no observable change after the rejected request', diff(before.snapshot, now.snapshot), noEffectOf(last.operation));
  }
  if (before.introspection && !isDeepStrictEqual(now.introspection, before.introspection)) {
    this.fail('no change to any allocation\'s owners, disposition or nodes', diff(before.introspection, now.introspection), noEffectOf(last.operation));
  }
});

