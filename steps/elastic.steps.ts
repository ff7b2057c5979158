/**
 * Steps for the elastic DVM: turning elastic mode on, driving daemons
 * (report in, wireup, exit: daemon-control; crash, fail to start:
 * daemon-faults or daemon-control), waiting for daemons that act on their
 * own, placing jobs at the
 * map-eligible and launch boundaries (job staging), what a client sees of
 * nodes and jobs while the DVM changes size, and, for implementations with
 * introspection, the launch fence, the campaigns and the parked-job lists.
 *
 * The phase-two completion events (PMIX_DVM_IS_READY, PMIX_ERR_DVM_MOD) are
 * checked in elastic-events.steps.ts.
 */
import { Given, When, type DataTable } from '@cucumber/cucumber';
import { Then } from './support/claims';
import type { AppSpec, CampaignView, DaemonEvent, ElasticView, Info, JobView, NodeView } from '../seam/messages';
import { ACCEPTED_STATUSES, describeStatus, Status } from '../seam/pmix';
import { actorName, formatInfo, infoFrom, procOf } from './support/actions';
import type { Actor } from './support/parameters';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';
import { describeNodes, settle, SETTLE_MS, unsettledNodes } from './support/settle';

// ------------------------------------------------------------ scenario state --

/** What the elastic steps remember about one scenario. */
export interface ElasticScenario {
  /** Completion events with a seq above this were delivered after the scenario's setup (see "have joined the DVM"). */
  mark: number;
  /** The mapping a job had when it was first seen mapped: rank -> node. */
  mappings: Map<string, Map<number, string>>;
  /** The last departure event driven for each node, to repeat it. */
  departures: Map<string, DaemonEvent>;
  /** Campaign ids the introspection showed, by the sorted target list they were first seen with. */
  campaigns: Map<string, number>;
}

const scenarios = new WeakMap<ConformanceWorld, ElasticScenario>();

export function elasticScenario(world: ConformanceWorld): ElasticScenario {
  let s = scenarios.get(world);
  if (!s) scenarios.set(world, (s = { mark: 0, mappings: new Map(), departures: new Map(), campaigns: new Map() }));
  return s;
}

const nodesKey = (names: string[]) => [...names].sort().join(',');

// ------------------------------------------------------------------ setup --

Given('a DVM in elastic mode', function (this: ConformanceWorld) {
  // The DVM starts at the first action; elastic mode is part of how it starts.
  if (this.impl && (this as unknown as { started?: boolean }).started) throw new Error('"a DVM in elastic mode" must come before the first action of the scenario');
  this.setup.elastic = true;
});

// ------------------------------------------------------------- daemons --

/**
 * Which capability lets the runner cause a daemon event: a crash or a failed
 * start can be caused from outside a live runtime (daemon-faults: kill the
 * daemon, keep it from starting), or stepped by a hook (daemon-control);
 * a report-in, a wireup or a clean exit on command only by the hook.
 */
export function daemonEventAllowed(has: (c: 'daemon-faults' | 'daemon-control') => boolean, event: DaemonEvent['event']): boolean {
  if (has('daemon-control')) return true;
  return (event === 'crash' || event === 'fail-to-start') && has('daemon-faults');
}

async function daemonDoes(world: ConformanceWorld, event: DaemonEvent, operation: string) {
  if (!daemonEventAllowed((c) => world.has(c), event.event)) {
    const tag = event.event === 'crash' || event.event === 'fail-to-start' ? '@needs:daemon-faults (or @needs:daemon-control)' : '@needs:daemon-control';
    throw new Error(`this scenario makes a daemon act (${operation}): tag it ${tag}`);
  }
  await world.ready();
  const before = await world.observeBefore();
  const ack = await world.call('daemon', () => world.impl.daemon(event));
  world.last = { operation, status: ack.status, info: [], before };
  if (event.node !== undefined && (event.event === 'exit' || event.event === 'crash' || event.event === 'fail-to-start')) {
    elasticScenario(world).departures.set(event.node, event);
  }
  return ack;
}

When('the daemon(s) on node(s) {string} report(s) in', async function (this: ConformanceWorld, names: string) {
  for (const node of splitNames(names)) await daemonDoes(this, { event: 'report', node }, `the daemon on ${node} reports in`);
});

When('the head node distributes the wireup', async function (this: ConformanceWorld) {
  await daemonDoes(this, { event: 'wireup' }, 'the head node distributes the wireup (nidmap)');
});

When('the daemon on node {string} exits', async function (this: ConformanceWorld, node: string) {
  await daemonDoes(this, { event: 'exit', node }, `the daemon on ${node} exits cleanly`);
});

When('the daemon on node {string} crashes', async function (this: ConformanceWorld, node: string) {
  await daemonDoes(this, { event: 'crash', node }, `the daemon on ${node} crashes`);
});

When('the daemon on node {string} crashes with {status}', async function (this: ConformanceWorld, node: string, cause: number) {
  await daemonDoes(this, { event: 'crash', node, cause }, `the daemon on ${node} crashes (${describeStatus(cause)})`);
});

When('the daemon on node {string} fails to start', async function (this: ConformanceWorld, node: string) {
  await daemonDoes(this, { event: 'fail-to-start', node }, `the daemon on ${node} fails to start`);
});

When('the daemon on node {string} fails to start with {status}', async function (this: ConformanceWorld, node: string, cause: number) {
  await daemonDoes(this, { event: 'fail-to-start', node, cause }, `the daemon on ${node} fails to start (${describeStatus(cause)})`);
});

/**
 * Arranged before the node's daemon is launched (daemon-faults: a live
 * harness keeps it from starting, e.g. its launch agent refuses the node):
 * when a grow launches it, it never comes up.
 */
Given('the daemon on node {string} cannot start', async function (this: ConformanceWorld, node: string) {
  await daemonDoes(this, { event: 'fail-to-start', node }, `the daemon on ${node} is kept from starting (before it is launched)`);
});

/**
 * The same departing daemon produces another failure event (004: "a daemon
 * that emits more than one failure event"): the last departure driven for
 * the node is repeated; a crash if none was.
 */
When('the daemon on node {string} reports its departure again', async function (this: ConformanceWorld, node: string) {
  const previous = elasticScenario(this).departures.get(node) ?? { event: 'crash' as const, node };
  await daemonDoes(this, { ...previous }, `the daemon on ${node} reports its departure again (${previous.event})`);
});

/**
 * Setup: the daemons a grow launched on these nodes report in and are wired,
 * and the nodes are then ready. Whatever completion events that produced
 * belong to the setup: event assertions count only later ones. Without
 * daemon control the daemons do it on their own, and the step waits for them
 * (see "the size change runs its course").
 */
Given('the daemon(s) on node(s) {string} has/have joined the DVM', async function (this: ConformanceWorld, names: string) {
  const list = splitNames(names);
  if (this.has('daemon-control')) {
    for (const node of list) await daemonDoes(this, { event: 'report', node }, `the daemon on ${node} reports in`);
    await daemonDoes(this, { event: 'wireup' }, 'the head node distributes the wireup (nidmap)');
  } else {
    await sizeChangeRunsItsCourse(this);
  }
  const views = await nodeViews(this, list);
  for (const node of list) {
    const v = views.get(node);
    if (!v || v.daemon !== 'ready') this.fail(`the daemon on ${node} wired into the DVM after reporting in and the wireup`, describeNode(node, v));
  }
  const snap = await this.snapshot({});
  elasticScenario(this).mark = snap.events.reduce((max, e) => Math.max(max, e.seq), 0);
});

/**
 * The size change in progress runs its course: every daemon of a grow starts,
 * reports in and is wired, every daemon of a shrink departs, as a DVM's
 * daemons do on their own. Written for runtimes without test hooks (the
 * live elastic tier, size-changes-on-their-own.feature):
 * - an implementation that offers daemon control is driven to it, in
 *   rounds: each joining node's daemon reports in, the head node
 *   distributes the wireup, each leaving node's daemon exits;
 * - against any other, the step waits until no node is joining or leaving
 *   and the observations have stopped changing (support/settle.ts: the same
 *   settings, PMIX_CONFORMANCE_QUIET_MS and PMIX_CONFORMANCE_SETTLE_MS). A
 *   size change that has not finished by then fails the scenario's clauses:
 *   the specification gives every accepted size change an end.
 */
async function sizeChangeRunsItsCourse(world: ConformanceWorld): Promise<void> {
  await world.ready();
  if (world.has('daemon-control')) {
    for (let round = 0; round < 10; round++) {
      const nodes = unsettledNodes((await world.freshSnapshot()).nodes);
      if (nodes.length === 0) return;
      const joining = nodes.filter((n) => n.daemon === 'joining').map((n) => n.name);
      for (const node of joining) await daemonDoes(world, { event: 'report', node }, `the daemon on ${node} reports in`);
      if (joining.length > 0) await daemonDoes(world, { event: 'wireup' }, 'the head node distributes the wireup (nidmap)');
      for (const n of nodes.filter((v) => v.daemon === 'leaving')) await daemonDoes(world, { event: 'exit', node: n.name }, `the daemon on ${n.name} exits cleanly`);
    }
    const left = unsettledNodes((await world.freshSnapshot()).nodes);
    world.fail('the size change to complete once its daemons reported in, were wired and departed', `still ${describeNodes(left)}`);
  }
  const settled = await settle(() => world.rawSnapshot(), { daemonsToo: true, quietMs: world.quietMs });
  // What was kept from before the wait is stale now.
  world.forget();
  if (settled.unsettled) world.fail(`the size change to complete within ${SETTLE_MS} ms (PMIX_CONFORMANCE_SETTLE_MS)`, settled.unsettled);
}

When('the size change runs its course', async function (this: ConformanceWorld) {
  await sizeChangeRunsItsCourse(this);
});

/** Setup: as above, and whatever completion events it produced belong to the setup (event assertions count only later ones). */
Given('the size change has run its course', async function (this: ConformanceWorld) {
  await sizeChangeRunsItsCourse(this);
  const snap = await this.freshSnapshot();
  elasticScenario(this).mark = snap.events.reduce((max, e) => Math.max(max, e.seq), 0);
});

// ------------------------------------------------------- the scheduler --

async function schedulerDoes(world: ConformanceWorld, action: Parameters<ConformanceWorld['impl']['scheduler']>[0], operation: string) {
  await world.ready();
  const before = await world.observeBefore();
  const ack = await world.call('scheduler', () => world.impl.scheduler(action));
  world.last = { operation, status: ack.status, info: [], before };
  if (ack.status !== Status.PMIX_SUCCESS) world.fail(`${operation} to be carried out`, describeStatus(ack.status));
}

When('the scheduler pushes node(s) {string} into the DVM', async function (this: ConformanceWorld, names: string) {
  await schedulerDoes(this, { action: 'add-nodes', nodes: splitNames(names) }, `the scheduler pushes ${names} into the DVM (no PMIx requester)`);
});

When('the next shrink order fails with {status}', async function (this: ConformanceWorld, cause: number) {
  await schedulerDoes(this, { action: 'fail-next-shrink-order', cause }, `the next shrink order fails (${describeStatus(cause)})`);
});

// ------------------------------------------------------ spawning, staged --

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
  const job = await jobView(world, alias);
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

// ------------------------------------------------------------ what is seen --

const jobView = (world: ConformanceWorld, alias: string): Promise<JobView> => world.observedJob(alias);

async function nodeViews(world: ConformanceWorld, names: string[]): Promise<Map<string, NodeView>> {
  await world.ready();
  const snap = await world.snapshot({ nodes: names });
  return new Map(snap.nodes.map((n) => [n.name, n]));
}

export const describeProcs = (job: JobView): string =>
  job.procs.map((p) => `rank ${p.rank} on ${p.node || '(unmapped)'}${p.running ? ' running' : ''}`).join('; ') || 'no processes';

const describeJob = (job: JobView) => `state ${job.state}; ${describeProcs(job)}`;

const describeNode = (name: string, v: NodeView | undefined) => (v ? `node ${name}: daemon ${v.daemon}, ${v.slotsInUse}/${v.slots} slots in use` : `node ${name} is not in the DVM`);

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

// ------------------------------------------------------ introspection --

async function elasticView(world: ConformanceWorld): Promise<ElasticView> {
  if (!world.has('elastic-internals')) throw new Error('this step needs the elastic-internals capability (tag the scenario @needs:elastic-internals)');
  const { introspection } = await world.observe();
  if (!introspection) throw new Error('the implementation declares elastic-internals but has no inspect()');
  // Outside elastic mode there may be no elastic bookkeeping at all: nothing raised, nothing parked.
  const view = introspection.elastic ?? { fence: 0, campaigns: [], parkedAtMap: [], parkedAtLaunch: [], shrinkOffers: [] };
  for (const c of view.campaigns) if (!elasticScenario(world).campaigns.has(`${c.kind}:${nodesKey(c.targets)}`)) elasticScenario(world).campaigns.set(`${c.kind}:${nodesKey(c.targets)}`, c.id);
  return view;
}

const describeCampaigns = (v: ElasticView) =>
  v.campaigns.map((c) => `${c.kind} #${c.id} targets [${c.targets.join(', ')}] pending [${c.pending.join(', ')}]`).join('; ') || 'no campaign';

Then('the launch fence is {int}', async function (this: ConformanceWorld, n: number) {
  const v = await elasticView(this);
  if (v.fence !== n) this.fail(`launch fence ${n}`, `fence ${v.fence}; ${describeCampaigns(v)}`);
});

/**
 * The plans' fence accounting, spelt out: the fence is the sum of what each
 * size change in progress still counts, a grow its whole set of targets
 * until it is drained, a shrink its targets not yet departed. The table
 * lists every size change in progress:
 *   | size change             | nodes counted |
 *   | shrink of nodes "s2,s3" | s3            |
 */
Then('the launch fence is {int}, counting:', async function (this: ConformanceWorld, n: number, table: DataTable) {
  const rows = table.hashes().map((r) => {
    const m = /^(grow|shrink) of nodes? "([^"]+)"$/.exec(r['size change'] ?? '');
    if (!m) throw new Error(`"${r['size change']}": a size change is written 'grow of nodes "s1,s2"' or 'shrink of node "s3"'`);
    return { kind: m[1] as 'grow' | 'shrink', targets: splitNames(m[2]), counted: splitNames(r['nodes counted'] ?? '') };
  });
  const total = rows.reduce((sum, r) => sum + r.counted.length, 0);
  if (total !== n) throw new Error(`the table counts ${total} nodes, not ${n}`);
  const v = await elasticView(this);
  for (const r of rows) {
    const c = findCampaign(this, v, r.kind, r.targets);
    const counted = c && (c.kind === 'grow' ? c.targets : c.pending);
    if (!counted || nodesKey(counted) !== nodesKey(r.counted)) this.fail(`the ${r.kind} campaign of ${r.targets.join(',')} in progress, counting ${r.counted.join(', ')} in the fence`, describeCampaigns(v));
  }
  if (v.campaigns.length !== rows.length) this.fail(`exactly the size changes the table lists in progress (${rows.length})`, describeCampaigns(v));
  if (v.fence !== n) this.fail(`launch fence ${n} (grow targets + shrink targets not yet departed)`, `fence ${v.fence}; ${describeCampaigns(v)}`);
});

Then('no size change is in progress', async function (this: ConformanceWorld) {
  const v = await elasticView(this);
  if (v.campaigns.length > 0 || v.fence !== 0) this.fail('no grow or shrink campaign in progress, launch fence 0', `fence ${v.fence}; ${describeCampaigns(v)}`);
});

function findCampaign(world: ConformanceWorld, v: ElasticView, kind: 'grow' | 'shrink', targets: string[]): CampaignView | undefined {
  const id = elasticScenario(world).campaigns.get(`${kind}:${nodesKey(targets)}`);
  return v.campaigns.find((c) => c.id === id) ?? v.campaigns.find((c) => c.kind === kind && nodesKey(c.targets) === nodesKey(targets));
}

for (const kind of ['grow', 'shrink'] as const) {
  Then(`exactly one ${kind} campaign is in progress, targeting node(s) {string}`, async function (this: ConformanceWorld, names: string) {
    const v = await elasticView(this);
    const mine = v.campaigns.filter((c) => c.kind === kind);
    if (mine.length !== 1 || nodesKey(mine[0].targets) !== nodesKey(splitNames(names))) {
      this.fail(`exactly one ${kind} campaign, targeting ${names}`, describeCampaigns(v));
    }
  });

  Then(`the ${kind} campaign of node(s) {string} still waits for node(s) {string}`, async function (this: ConformanceWorld, targets: string, pending: string) {
    const v = await elasticView(this);
    const c = findCampaign(this, v, kind, splitNames(targets));
    if (!c || nodesKey(c.pending) !== nodesKey(splitNames(pending))) {
      this.fail(`the ${kind} campaign of ${targets} in progress, its targets unchanged, still waiting for ${pending}`, describeCampaigns(v));
    }
  });

  Then(`the ${kind} campaign of node(s) {string} is over`, async function (this: ConformanceWorld, targets: string) {
    const v = await elasticView(this);
    const id = elasticScenario(this).campaigns.get(`${kind}:${nodesKey(splitNames(targets))}`);
    if (id === undefined) throw new Error(`the ${kind} campaign of ${targets} was never seen in progress (check it with "exactly one ${kind} campaign is in progress, …" first)`);
    if (v.campaigns.some((c) => c.id === id)) this.fail(`the ${kind} campaign of ${targets} removed`, describeCampaigns(v));
  });
}

for (const [words, list] of [
  ['map-eligible', 'parkedAtMap'],
  ['launch', 'parkedAtLaunch'],
] as const) {
  Then(`job {string} is held at the ${words} boundary`, async function (this: ConformanceWorld, alias: string) {
    const v = await elasticView(this);
    const ns = this.jobNspace(alias);
    const other = list === 'parkedAtMap' ? v.parkedAtLaunch : v.parkedAtMap;
    if (!v[list].includes(ns) || other.includes(ns)) {
      this.fail(`job ${alias} held at the ${words} boundary only`, `parked at map: [${v.parkedAtMap.map((x) => this.nameOf(x)).join(', ')}]; at launch: [${v.parkedAtLaunch.map((x) => this.nameOf(x)).join(', ')}]`);
    }
  });
}

Then('no job is held at either boundary', async function (this: ConformanceWorld) {
  const v = await elasticView(this);
  if (v.parkedAtMap.length > 0 || v.parkedAtLaunch.length > 0) {
    this.fail('no parked job', `parked at map: [${v.parkedAtMap.map((x) => this.nameOf(x)).join(', ')}]; at launch: [${v.parkedAtLaunch.map((x) => this.nameOf(x)).join(', ')}]`);
  }
});

/** Exported for the event steps: the campaign id the introspection showed for these targets. */
export function campaignId(world: ConformanceWorld, kind: 'grow' | 'shrink', targets: string[]): number | undefined {
  return elasticScenario(world).campaigns.get(`${kind}:${nodesKey(targets)}`);
}
export { elasticView as readElasticView };
