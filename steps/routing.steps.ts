/**
 * The routing decision table (node-reservation spec, "Allocation behavior"):
 * where the nodes of a PMIx_Allocation_request go, one step per kind of
 * destination, for the table's outline in features/reservation/allocation-routing.feature.
 */
import { Then } from './support/claims';
import { describeStatus, Key, Status, statusName } from '../seam/pmix';
import { accepted, ACCEPTED, actorName, requireAccepted, spawn } from './support/actions';
import { namingStatus, noEffectOf } from './support/charge';
import type { Actor } from './support/parameters';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';

/** The requesters the scenario has set up: each tool, and rank 0 of each job (ownership probes aside). */
function requesters(world: ConformanceWorld): Actor[] {
  return [
    ...[...world.tools.keys()].map((alias): Actor => ({ kind: 'tool', alias })),
    ...[...world.jobs.keys()].filter((alias) => !alias.startsWith('probe-')).map((alias): Actor => ({ kind: 'job', alias, rank: 0 })),
  ];
}

const same = (a: Actor, b: Actor): boolean => a.kind === b.kind && (a.kind === 'scheduler' || a.alias === (b as { alias: string }).alias);

async function nodeViews(world: ConformanceWorld, names: string[]) {
  await world.ready();
  const snap = await world.snapshot({ nodes: names });
  return new Map(snap.nodes.map((n) => [n.name, n]));
}

/**
 * A reservation owned by a namespace: the nodes are available only to the
 * allocation the response names, the owner's spawn into it is accepted and
 * lands on them, and every other requester's is refused with
 * PMIX_ERR_NO_PERMISSIONS (the ownership probe of "may (not) spawn into").
 */
Then('node(s) {string} go(es) to a reservation owned by {actor}', async function (this: ConformanceWorld, names: string, owner: Actor) {
  requireAccepted(this);
  const id = this.last!.info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value;
  if (typeof id !== 'string' || id === '') this.fail('the response to name the reservation with a PMIX_ALLOC_ID', 'no PMIX_ALLOC_ID in the response');
  const views = await nodeViews(this, splitNames(names));
  for (const name of splitNames(names)) {
    const v = views.get(name);
    if (!v || v.availableTo !== id) this.fail(`node ${name} available only to the allocation the response names`, v ? `available to ${this.nameOf(v.availableTo)}` : 'not in the DVM');
  }
  const usable = this.has('PMIX_SPAWN_TARGET') && !this.setup.withoutKeys.includes('PMIX_SPAWN_TARGET');
  for (const actor of requesters(this)) {
    const alias = `probe-${this.jobs.size + 1}`;
    const r = await spawn(this, actor, alias, [{ cmd: 'probe', np: 1 }], [{ key: usable ? Key.PMIX_SPAWN_TARGET : Key.PMIX_ALLOC_ID, value: id }]);
    if (!same(actor, owner)) {
      if (r.status !== Status.PMIX_ERR_NO_PERMISSIONS) this.fail(`${actorName(actor)} not to own the reservation: PMIX_ERR_NO_PERMISSIONS`, describeStatus(r.status));
      continue;
    }
    if (!accepted(r.status)) this.fail(`${actorName(actor)} to own the reservation: its spawn into it is accepted (${ACCEPTED})`, describeStatus(r.status));
    const job = (await this.snapshot({})).jobs.find((j) => j.nspace === r.nspace);
    const outside = (job?.procs ?? []).filter((p) => !splitNames(names).includes(p.node));
    if (outside.length > 0) this.fail(`the owner's probe to run on the reservation's nodes (${names})`, outside.map((p) => `rank ${p.rank} on ${p.node}`).join('; '));
  }
});

/** The default session: the nodes are available to everyone, and each requester's job placed on them runs there. */
Then('node(s) {string} go(es) to the default session', async function (this: ConformanceWorld, names: string) {
  requireAccepted(this);
  const views = await nodeViews(this, splitNames(names));
  for (const name of splitNames(names)) {
    const v = views.get(name);
    if (!v || v.availableTo !== '') this.fail(`node ${name} in the DVM's default session`, v ? `available to ${this.nameOf(v.availableTo)}` : 'not in the DVM');
  }
  for (const actor of requesters(this)) {
    const alias = `default-session-${this.jobs.size + 1}`;
    const r = await spawn(this, actor, alias, [{ cmd: 'probe', np: 1, hosts: splitNames(names) }], []);
    if (!accepted(r.status)) this.fail(`${actorName(actor)}'s job on ${names} in the default session to be accepted (${ACCEPTED})`, describeStatus(r.status));
    const job = (await this.snapshot({})).jobs.find((j) => j.nspace === r.nspace);
    const outside = (job?.procs ?? []).filter((p) => !splitNames(names).includes(p.node));
    if (outside.length > 0) this.fail(`${actorName(actor)}'s job to run on ${names}`, outside.map((p) => `rank ${p.rank} on ${p.node}`).join('; '));
  }
});

/** Rejected: the status the table names, and the nodes went nowhere (a scheduler's node is not added to the DVM). */
Then('node(s) {string} go(es) to no one: the request is rejected with {status}', async function (this: ConformanceWorld, names: string, status: number) {
  const last = this.last;
  if (!last) throw new Error('no request was made');
  if (last.status !== status) this.fail(describeStatus(status), describeStatus(last.status), namingStatus(statusName(status)));
  const views = await nodeViews(this, splitNames(names));
  for (const name of splitNames(names)) {
    const v = views.get(name);
    if (v) this.fail(`node ${name} to stay out of the DVM after the refused request`, `it is in the DVM, available to ${this.nameOf(v.availableTo)}`, noEffectOf(last.operation));
  }
});
