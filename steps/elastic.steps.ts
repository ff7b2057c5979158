/**
 * Steps for what a client sees of jobs and nodes while the elastic DVM
 * changes size: a job parked, held or launched (and where), a node joining,
 * leaving or ready, the DVM's membership and a node's slots in use.
 *
 * Driving the daemons is in daemons.steps.ts, submitting and staging jobs in
 * job-staging.steps.ts, the launch fence, campaigns and parked-job lists
 * (introspection) in elastic-internals.steps.ts.
 */
import { Then } from './support/claims';
import type { JobView } from '../seam/messages';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';
import { describeNode, elasticScenario, nodeViews } from './support/elastic';

const jobView = (world: ConformanceWorld, alias: string): Promise<JobView> => world.observedJob(alias);

const describeProcs = (job: JobView): string =>
  job.procs.map((p) => `rank ${p.rank} on ${p.node || '(unmapped)'}${p.running ? ' running' : ''}`).join('; ') || 'no processes';

const describeJob = (job: JobView) => `state ${job.state}; ${describeProcs(job)}`;

Then('job {string} is parked', async function (this: ConformanceWorld, alias: string) {
  const expected = `job ${alias} parked: PRRTE_JOB_STATE_WAITING_FOR_DAEMONS, no process launched`;
  const job = await jobView(this, alias);
  if (job.state !== 'WAITING_FOR_DAEMONS' || job.procs.some((p) => p.running)) this.fail(expected, describeJob(job));
});

Then('job {string} has not launched', async function (this: ConformanceWorld, alias: string) {
  const expected = `job ${alias} not launched yet: no process running, not failed`;
  const job = await jobView(this, alias);
  if (!['PENDING', 'WAITING_FOR_DAEMONS'].includes(job.state) || job.procs.some((p) => p.running)) this.fail(expected, describeJob(job));
});

/** Parked or aborted, whichever: where a reading leaves open which (IP-READING-GROW-FAILURE-ABORTS). */
Then('job {string} has no process running', async function (this: ConformanceWorld, alias: string) {
  const expected = `job ${alias} with no process running (parked, or aborted without launching)`;
  const job = await jobView(this, alias);
  if (!['PENDING', 'WAITING_FOR_DAEMONS', 'NEVER_LAUNCHED'].includes(job.state) || job.procs.some((p) => p.running)) this.fail(expected, describeJob(job));
});

Then('job {string} was never launched', async function (this: ConformanceWorld, alias: string) {
  const expected = `job ${alias} aborted without launching (NEVER_LAUNCHED), nothing of it running`;
  const job = await jobView(this, alias);
  if (job.state !== 'NEVER_LAUNCHED' || job.procs.some((p) => p.running)) this.fail(expected, describeJob(job));
});

Then('job {string} has launched', async function (this: ConformanceWorld, alias: string) {
  const expected = `job ${alias} launched: RUNNING, every process of it running`;
  const job = await jobView(this, alias);
  if (job.state !== 'RUNNING' || job.procs.length === 0 || job.procs.some((p) => !p.running)) this.fail(expected, describeJob(job));
});

/** Launched once: exactly np processes, ranks 0..np-1 each once, all running. */
Then('job {string} has launched {int} process(es)', async function (this: ConformanceWorld, alias: string, np: number) {
  const expected = `job ${alias} launched exactly once: ${np} running processes, ranks 0..${np - 1} each once`;
  const job = await jobView(this, alias);
  const ranks = job.procs.map((p) => p.rank).sort((a, b) => a - b);
  const once = ranks.length === np && ranks.every((r, i) => r === i);
  if (job.state !== 'RUNNING' || !once || job.procs.some((p) => !p.running)) this.fail(expected, describeJob(job));
});

Then('job {string} is running on node(s) {string}', async function (this: ConformanceWorld, alias: string, names: string) {
  const allowed = new Set(splitNames(names));
  const expected = `job ${alias} launched, every process of it running on ${[...allowed].join(', ')}`;
  const job = await jobView(this, alias);
  if (job.state !== 'RUNNING' || job.procs.length === 0 || job.procs.some((p) => !p.running || !allowed.has(p.node))) this.fail(expected, describeJob(job));
});

Then('job {string} has launched on its original mapping', async function (this: ConformanceWorld, alias: string) {
  const mapping = elasticScenario(this).mappings.get(alias);
  if (!mapping) throw new Error(`job ${alias} was never seen mapped, so it has no original mapping to compare with`);
  const original = [...mapping].map(([r, n]) => `rank ${r} on ${n}`).join('; ');
  const expected = `job ${alias} launched on the mapping it was first given (${original})`;
  const job = await jobView(this, alias);
  const same = job.procs.length === mapping.size && job.procs.every((p) => mapping.get(p.rank) === p.node);
  if (job.state !== 'RUNNING' || !same || job.procs.some((p) => !p.running)) this.fail(expected, describeJob(job));
});

for (const [words, state] of [
  ['joining', 'joining'],
  ['leaving', 'leaving'],
] as const) {
  Then(`node(s) {string} is/are ${words} the DVM`, async function (this: ConformanceWorld, names: string) {
    const list = splitNames(names);
    const views = await nodeViews(this, list);
    for (const name of list) {
      const v = views.get(name);
      if (!v || v.daemon !== state) this.fail(`node ${name} ${words} the DVM (its daemon ${state === 'joining' ? 'launched, not yet wired' : 'a shrink target, not yet departed'})`, describeNode(name, v));
    }
  });
}

Then('node(s) {string} is/are ready', async function (this: ConformanceWorld, names: string) {
  const list = splitNames(names);
  const views = await nodeViews(this, list);
  for (const name of list) {
    const v = views.get(name);
    if (!v || v.daemon !== 'ready') this.fail(`node ${name} a member of the DVM with a wired, ready daemon`, describeNode(name, v));
  }
});

/** Membership: exactly these nodes are in the DVM (whatever their daemons' state). */
Then('the DVM\'s nodes are exactly {string}', async function (this: ConformanceWorld, names: string) {
  await this.ready();
  const snap = await this.snapshot({});
  const have = snap.nodes.map((n) => n.name).sort();
  const want = splitNames(names).sort();
  if (have.join(',') !== want.join(',')) this.fail(`the DVM's members exactly ${want.join(', ')}`, `members: ${snap.nodes.map((n) => `${n.name} (${n.daemon})`).join(', ') || 'none'}`);
});

Then('node {string} has {int} slot(s) in use', async function (this: ConformanceWorld, name: string, n: number) {
  const v = (await nodeViews(this, [name])).get(name);
  if (!v || v.slotsInUse !== n) this.fail(`node ${name} with ${n} of its slots in use (tool processes take none)`, describeNode(name, v));
});
