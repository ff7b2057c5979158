/**
 * Steps for submitting jobs while the DVM may change size: PMIx_Spawn,
 * optionally held before the map-eligible or launch boundary (job staging),
 * and moving a held job on to a boundary. Each job's first complete mapping
 * is remembered for "has launched on its original mapping" (elastic.steps.ts).
 */
import { When, type DataTable } from '@cucumber/cucumber';
import type { AppSpec, Info } from '../seam/messages';
import { ACCEPTED_STATUSES, describeStatus, Status } from '../seam/pmix';
import { actorName, formatInfo, infoFrom, procOf } from './support/actions';
import type { Actor } from './support/parameters';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';
import { elasticScenario } from './support/elastic';

type Hold = 'map' | 'launch' | undefined;

/**
 * PMIx_Spawn, optionally held before a boundary (job staging). A job
 * submitted while the DVM changes size must be accepted (held, never
 * failed), so anything but an acceptance fails here; the job gets its name.
 */
async function submit(world: ConformanceWorld, actor: Actor, alias: string, apps: AppSpec[], info: Info[], hold: Hold) {
  await world.ready();
  if (hold && !world.has('job-staging')) throw new Error('this scenario holds a job before a boundary: tag it @needs:job-staging');
  const requester = procOf(world, actor);
  const before = await world.observeBefore();
  const result = await world.call('spawn', () => world.impl.spawn({ requester, apps, info, ...(hold ? { hold } : {}) }));
  const where = hold ? `, held before the ${hold === 'map' ? 'map-eligible' : 'launch'} boundary` : '';
  world.last = {
    operation: `${actorName(actor)}: PMIx_Spawn(job ${alias}: ${apps.map((a) => `${a.np} x ${a.cmd}${a.tool ? ' (tool app)' : ''}${a.hosts ? ` on ${a.hosts.join(',')}` : ''}`).join(' + ')}; ${formatInfo(world, info)})${where}`,
    status: result.status,
    info: result.info,
    before,
    nspace: result.nspace,
  };
  if (!ACCEPTED_STATUSES.includes(result.status) || typeof result.nspace !== 'string' || result.nspace === '') {
    world.fail(`job ${alias} accepted with a namespace (a job submitted while the DVM may be changing size is held, never failed)`, `${describeStatus(result.status)}, namespace ${JSON.stringify(result.nspace)}`);
  }
  world.jobs.set(alias, result.nspace);
  await rememberMapping(world, alias);
}

/** Record the job's mapping the first time every process of it has a node. */
async function rememberMapping(world: ConformanceWorld, alias: string) {
  const s = elasticScenario(world);
  if (s.mappings.has(alias)) return;
  const job = await world.observedJob(alias);
  if (job.procs.length > 0 && job.procs.every((p) => p.node !== '')) s.mappings.set(alias, new Map(job.procs.map((p) => [p.rank, p.node])));
}

const apps = (alias: string, np: number, hosts?: string, toolNp?: number): AppSpec[] => [
  { cmd: alias, np, ...(hosts !== undefined ? { hosts: splitNames(hosts) } : {}) },
  ...(toolNp !== undefined ? [{ cmd: `${alias}-tool`, np: toolNp, tool: true }] : []),
];

When('{actor} submits job {string} with {int} process(es)', async function (this: ConformanceWorld, actor: Actor, alias: string, np: number) {
  await submit(this, actor, alias, apps(alias, np), [], undefined);
});

When('{actor} submits job {string} with {int} process(es) and:', async function (this: ConformanceWorld, actor: Actor, alias: string, np: number, table: DataTable) {
  await submit(this, actor, alias, apps(alias, np), infoFrom(this, table), undefined);
});

When('{actor} submits job {string} with {int} process(es) on host(s) {string} and:', async function (this: ConformanceWorld, actor: Actor, alias: string, np: number, hosts: string, table: DataTable) {
  await submit(this, actor, alias, apps(alias, np, hosts), infoFrom(this, table), undefined);
});

for (const [words, hold] of [
  ['map-eligible', 'map'],
  ['launch', 'launch'],
] as const) {
  When(`{actor} spawns job {string} with {int} process(es), held before the ${words} boundary`, async function (this: ConformanceWorld, actor: Actor, alias: string, np: number) {
    await submit(this, actor, alias, apps(alias, np), [], hold);
  });
  When(`{actor} spawns job {string} with {int} process(es), held before the ${words} boundary, and:`, async function (this: ConformanceWorld, actor: Actor, alias: string, np: number, table: DataTable) {
    await submit(this, actor, alias, apps(alias, np), infoFrom(this, table), hold);
  });
  When(`{actor} spawns job {string} with {int} process(es) on host(s) {string}, held before the ${words} boundary, and:`, async function (this: ConformanceWorld, actor: Actor, alias: string, np: number, hosts: string, table: DataTable) {
    await submit(this, actor, alias, apps(alias, np, hosts), infoFrom(this, table), hold);
  });
  /** A job with a second, tool app (PRRTE_APP_FLAG_TOOL): its processes take no slot. */
  When(`{actor} spawns job {string} with {int} process(es) and a tool app of {int} process(es), held before the ${words} boundary, and:`, async function (this: ConformanceWorld, actor: Actor, alias: string, np: number, toolNp: number, table: DataTable) {
    await submit(this, actor, alias, apps(alias, np, undefined, toolNp), infoFrom(this, table), hold);
  });
}

async function advance(world: ConformanceWorld, alias: string, to: 'map' | 'launch') {
  await world.ready();
  const nspace = world.jobNspace(alias);
  const before = await world.observeBefore();
  const ack = await world.call('advanceJob', () => world.impl.advanceJob({ nspace, to }));
  const operation = `job ${alias} reaches the ${to === 'map' ? 'map-eligible' : 'launch'} boundary`;
  world.last = { operation, status: ack.status, info: [], before };
  if (ack.status !== Status.PMIX_SUCCESS) throw new Error(`the harness could not move job ${alias} on (${describeStatus(ack.status)}): is it held before that boundary?`);
  await rememberMapping(world, alias);
}

When('job {string} reaches the map-eligible boundary', async function (this: ConformanceWorld, alias: string) {
  await advance(this, alias, 'map');
});

When('job {string} reaches the launch boundary', async function (this: ConformanceWorld, alias: string) {
  await advance(this, alias, 'launch');
});
