/**
 * Steps for the elastic DVM's daemons and its scheduler: turning elastic mode
 * on, driving daemons (report in, wireup, exit: daemon-control; crash, fail
 * to start: daemon-faults or daemon-control), waiting for daemons that act
 * on their own, and the scheduler's own acts on the DVM (pushing nodes in,
 * failing a shrink order).
 *
 * What a client then sees of jobs and nodes is in elastic.steps.ts; the
 * completion events in elastic-events.steps.ts.
 */
import { Given, When } from '@cucumber/cucumber';
import type { DaemonEvent } from '../seam/messages';
import { describeStatus } from '../seam/pmix';
import { schedulerActs } from './support/actions';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';
import { describeNode, elasticScenario, nodeViews } from './support/elastic';
import { describeNodes, settle, SETTLE_MS, unsettledNodes } from './support/settle';

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

When('the scheduler pushes node(s) {string} into the DVM', async function (this: ConformanceWorld, names: string) {
  await schedulerActs(this, `the scheduler pushes ${names} into the DVM (no PMIx requester)`, { action: 'add-nodes', nodes: splitNames(names) });
});

When('the next shrink order fails with {status}', async function (this: ConformanceWorld, cause: number) {
  await schedulerActs(this, `the next shrink order fails (${describeStatus(cause)})`, { action: 'fail-next-shrink-order', cause });
});
