/** PMIx_Spawn, and the ownership probe "may (not) spawn into". */
import { When, type DataTable } from '@cucumber/cucumber';
import { Then } from './support/claims';
import { describeStatus, Key, Status } from '../seam/pmix';
import { accepted, ACCEPTED, actorName, infoFrom, spawn } from './support/actions';
import type { Actor } from './support/parameters';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';

When('{actor} spawns job {string} with {int} process(es)', async function (this: ConformanceWorld, actor: Actor, alias: string, np: number) {
  await spawn(this, actor, alias, [{ cmd: alias, np }], []);
});

When('{actor} spawns job {string} with {int} process(es) and:', async function (this: ConformanceWorld, actor: Actor, alias: string, np: number, table: DataTable) {
  await spawn(this, actor, alias, [{ cmd: alias, np }], infoFrom(this, table));
});

When('{actor} spawns job {string} with {int} process(es) on host(s) {string}', async function (this: ConformanceWorld, actor: Actor, alias: string, np: number, hosts: string) {
  await spawn(this, actor, alias, [{ cmd: alias, np, hosts: splitNames(hosts) }], []);
});

When('{actor} spawns job {string} with {int} process(es) on host(s) {string} and:', async function (this: ConformanceWorld, actor: Actor, alias: string, np: number, hosts: string, table: DataTable) {
  await spawn(this, actor, alias, [{ cmd: alias, np, hosts: splitNames(hosts) }], infoFrom(this, table));
});

/**
 * Ownership is observable only through its consequence: an owner's spawn
 * into the reservation succeeds, anyone else's is refused with
 * PMIX_ERR_NO_PERMISSIONS. The probe is a one-process job left running. It
 * names the reservation with PMIX_SPAWN_TARGET, or, on a PMIx without that
 * key, with the older PMIX_ALLOC_ID (IP-LEGACY-SESSION-ATTRIBUTES), so the
 * routing rules stay testable there.
 */
async function probe(world: ConformanceWorld, actor: Actor, alloc: string) {
  const alias = `probe-${world.jobs.size + 1}`;
  const usable = world.has('PMIX_SPAWN_TARGET') && !world.setup.withoutKeys.includes('PMIX_SPAWN_TARGET');
  const key = usable ? Key.PMIX_SPAWN_TARGET : Key.PMIX_ALLOC_ID;
  return spawn(world, actor, alias, [{ cmd: 'probe', np: 1 }], [{ key, value: world.allocId(alloc) }]);
}

Then('{actor} may spawn into allocation {string}', async function (this: ConformanceWorld, actor: Actor, alloc: string) {
  const r = await probe(this, actor, alloc);
  if (!accepted(r.status)) this.fail(`${actorName(actor)} to be an owner of allocation ${alloc}: its spawn into it is accepted (${ACCEPTED})`, describeStatus(r.status));
  await landsIn(this, alloc, r.nspace!);
});

/**
 * "Spawn into" means the processes land on the reservation's nodes, not only
 * that the spawn is accepted. Checked when the reservation has nodes in the
 * DVM now (a shared allocation's nodes are the default session's, so any
 * node of the DVM will do) and the probe has been placed (a job held by a
 * size change has no processes yet).
 */
async function landsIn(world: ConformanceWorld, alloc: string, nspace: string) {
  const id = world.allocId(alloc);
  const snapshot = await world.snapshot({});
  const reserved = new Set(snapshot.nodes.filter((n) => n.availableTo === id).map((n) => n.name));
  if (reserved.size === 0) return;
  const job = snapshot.jobs.find((j) => j.nspace === nspace);
  const outside = (job?.procs ?? []).filter((p) => !reserved.has(p.node));
  if (outside.length > 0) {
    world.fail(
      `the probe spawned into allocation ${alloc} to run on its nodes (${[...reserved].sort().join(', ')})`,
      outside.map((p) => `rank ${p.rank} on ${p.node}`).join('; '),
    );
  }
}

Then('{actor} may not spawn into allocation {string}', async function (this: ConformanceWorld, actor: Actor, alloc: string) {
  const r = await probe(this, actor, alloc);
  if (r.status !== Status.PMIX_ERR_NO_PERMISSIONS) this.fail(`${actorName(actor)} not to own allocation ${alloc}: PMIX_ERR_NO_PERMISSIONS`, describeStatus(r.status));
});
