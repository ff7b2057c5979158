/**
 * Steps for the lifecycle of a reservation: the scheduler's own actions
 * (reclaim, DVM teardown), an explicit release by name, and what a client can
 * see of jobs afterwards (still running, ended, which nodes their running
 * processes are on).
 */
import { When } from '@cucumber/cucumber';
import { Then } from './support/claims';
import type { JobView } from '../seam/messages';
import { describeStatus, Directive, Key, Status } from '../seam/pmix';
import { allocate, requireAccepted, schedulerActs } from './support/actions';
import { ImplementationFault } from './support/failures';
import type { Actor } from './support/parameters';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';

/** A job is over once it reached a final state; a job the observation no longer lists is over too. */
const FINAL_STATES: ReadonlyArray<JobView['state']> = ['TERMINATED', 'KILLED', 'NEVER_LAUNCHED'];

const jobView = (world: ConformanceWorld, alias: string): Promise<JobView> => world.observedJob(alias);

const describeProcs = (job: JobView): string =>
  job.procs.map((p) => `rank ${p.rank} on ${p.node || '(nowhere)'}${p.running ? '' : ' (not running)'}`).join('; ') || 'no processes';

When('the scheduler reclaims allocation {string}', async function (this: ConformanceWorld, alias: string) {
  const allocId = this.allocId(alias);
  await schedulerActs(this, `the scheduler: reclaim allocation ${alias}`, { action: 'reclaim', allocId });
});

When('the DVM is torn down', async function (this: ConformanceWorld) {
  await schedulerActs(this, 'the DVM is torn down', { action: 'teardown' });
});

/** PMIX_ALLOC_RELEASE naming the allocation by its PMIX_ALLOC_ID; the outcome is checked by the steps that follow. */
When('{actor} releases allocation {string}', async function (this: ConformanceWorld, actor: Actor, alias: string) {
  await allocate(this, actor, Directive.PMIX_ALLOC_RELEASE, [{ key: Key.PMIX_ALLOC_ID, value: this.allocId(alias) }]);
});

/**
 * A job releasing the reservation it runs in: its node leaves the DVM with
 * the release, and the shrink that removes a node ends the jobs on it (plan
 * 8.2.2.11.4), so the job may end before the answer reaches it
 * (IP-RELEASER-ENDED-BY-RELEASE). A fault is excused only when the job has
 * in fact ended; while it still runs, a fault is a fault.
 */
When('job {string} releases allocation {string}, which may end it before the answer', async function (this: ConformanceWorld, alias: string, allocAlias: string) {
  const actor: Actor = { kind: 'job', alias, rank: 0 };
  try {
    await allocate(this, actor, Directive.PMIX_ALLOC_RELEASE, [{ key: Key.PMIX_ALLOC_ID, value: this.allocId(allocAlias) }]);
  } catch (e) {
    if (!(e instanceof ImplementationFault)) throw e;
    const job = await jobView(this, alias);
    if (!(FINAL_STATES.includes(job.state) && job.procs.every((p) => !p.running))) throw e;
    this.last = undefined;
    this.endedBeforeAnswer = `job ${alias}`;
  }
});

Then('the request succeeds, if job {string} lived to hear the answer', function (this: ConformanceWorld, alias: string) {
  if (this.endedBeforeAnswer === `job ${alias}`) return;
  requireAccepted(this);
});

/**
 * For a scenario outline in which, for some rows, the job has already been
 * terminated (its nodes left the DVM): the job's remaining processes exit,
 * and nothing happens if none is left.
 */
When('job {string} terminates, if it is still running', async function (this: ConformanceWorld, alias: string) {
  const job = await jobView(this, alias);
  if (job.state !== 'RUNNING') return;
  const nspace = this.jobNspace(alias);
  const ack = await this.call('terminateJob', () => this.impl.terminateJob({ nspace }));
  if (ack.status !== Status.PMIX_SUCCESS) this.fail(`job ${alias} to terminate`, describeStatus(ack.status));
});

Then('job {string} is still running', async function (this: ConformanceWorld, alias: string) {
  const job = await jobView(this, alias);
  const stopped = job.procs.filter((p) => !p.running);
  if (job.state !== 'RUNNING' || job.procs.length === 0 || stopped.length > 0) {
    this.fail(`job ${alias} still running, every process of it alive`, `state ${job.state}; ${describeProcs(job)}`);
  }
});

Then('job {string} has ended', async function (this: ConformanceWorld, alias: string) {
  const job = await jobView(this, alias);
  const running = job.procs.filter((p) => p.running);
  if (!FINAL_STATES.includes(job.state) || running.length > 0) {
    this.fail(`job ${alias} to have ended, no process of it running`, `state ${job.state}; ${describeProcs(job)}`);
  }
});

Then('no process of job {string} is running on node(s) {string}', async function (this: ConformanceWorld, alias: string, names: string) {
  const banned = new Set(splitNames(names));
  const job = await jobView(this, alias);
  const inside = job.procs.filter((p) => p.running && banned.has(p.node));
  if (inside.length > 0) this.fail(`no running process of job ${alias} on ${[...banned].join(', ')}`, inside.map((p) => `rank ${p.rank} running on ${p.node}`).join('; '));
});

Then('job {string} has processes running on node(s) {string}', async function (this: ConformanceWorld, alias: string, names: string) {
  const job = await jobView(this, alias);
  const used = new Set(job.procs.filter((p) => p.running).map((p) => p.node));
  const missing = splitNames(names).filter((n) => !used.has(n));
  if (missing.length > 0) this.fail(`job ${alias} to have a running process on each of ${names}`, `none running on ${missing.join(', ')}; ${describeProcs(job)}`);
});

Then('no process of any job is running on node(s) {string}', async function (this: ConformanceWorld, names: string) {
  await this.ready();
  const banned = new Set(splitNames(names));
  const snap = await this.snapshot({});
  const inside = snap.jobs.flatMap((j) => j.procs.filter((p) => p.running && banned.has(p.node)).map((p) => `${this.nameOf(j.nspace)} rank ${p.rank} on ${p.node}`));
  if (inside.length > 0) this.fail(`no process of any job running on ${[...banned].join(', ')}`, inside.join('; '));
});
