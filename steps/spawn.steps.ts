/** PMIx_Spawn, and the ownership probe "may (not) spawn into". */
import { Then, When, type DataTable } from '@cucumber/cucumber';
import { describeStatus, Key, Status } from '../seam/pmix';
import { actorName, infoFrom, spawn } from './support/actions';
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
  if (r.status !== Status.PMIX_SUCCESS) this.fail(`${actorName(actor)} to be an owner of allocation ${alloc}: its spawn into it succeeds`, describeStatus(r.status));
});

Then('{actor} may not spawn into allocation {string}', async function (this: ConformanceWorld, actor: Actor, alloc: string) {
  const r = await probe(this, actor, alloc);
  if (r.status !== Status.PMIX_ERR_NO_PERMISSIONS) this.fail(`${actorName(actor)} not to own allocation ${alloc}: PMIX_ERR_NO_PERMISSIONS`, describeStatus(r.status));
});
