/**
 * The allocation RFC's directives beyond NEW/EXTEND/RELEASE: the scheduler's
 * policy where the RFC leaves it to the host, its queue, and status queries.
 */
import { When } from '@cucumber/cucumber';
import { Then } from './support/claims';
import type { QueryAllocationResult } from '../seam/messages';
import { ACCEPTED_STATUSES, describeStatus, Key, Status } from '../seam/pmix';
import { actorName, procOf } from './support/actions';
import type { Actor } from './support/parameters';
import type { ConformanceWorld } from './support/world';

type WithQuery = ConformanceWorld & { lastQuery?: QueryAllocationResult };

When('the scheduler works through its queue', async function (this: ConformanceWorld) {
  await this.ready();
  const ack = await this.call('scheduler', () => this.impl.scheduler({ action: 'grant-queued' }));
  if (ack.status !== Status.PMIX_SUCCESS) this.fail('the scheduler to work through its queue', describeStatus(ack.status));
});

Then('the request is accepted and queued', function (this: ConformanceWorld) {
  const last = this.last;
  if (!last) throw new Error('no request was made');
  if (last.status !== Status.PMIX_OPERATION_IN_PROGRESS) this.fail('PMIX_OPERATION_IN_PROGRESS (accepted, waiting at the scheduler)', describeStatus(last.status));
});

async function query(world: WithQuery, actor: Actor, key: string, value: string) {
  await world.ready();
  const requester = procOf(world, actor);
  world.lastQuery = await world.call('queryAllocation', () => world.impl.queryAllocation({ requester, qualifiers: [{ key, value }] }));
}

When('{actor} queries the status of request {string}', async function (this: WithQuery, actor: Actor, reqId: string) {
  await query(this, actor, Key.PMIX_ALLOC_REQ_ID, reqId);
});

When('{actor} queries the status of allocation {string}', async function (this: WithQuery, actor: Actor, alias: string) {
  await query(this, actor, Key.PMIX_ALLOC_ID, this.allocations.get(alias) ?? alias);
});

Then('the status is {string}', function (this: WithQuery, expected: string) {
  const q = this.lastQuery;
  if (!q) throw new Error('no status query was made');
  if (q.status !== Status.PMIX_SUCCESS || q.state !== expected) this.fail(`a PMIX_QUERY_ALLOC_STATUS answer "${expected}"`, q.status === Status.PMIX_SUCCESS ? `"${q.state}"` : describeStatus(q.status));
});

Then('the status names allocation {string}', function (this: WithQuery, alias: string) {
  const q = this.lastQuery;
  if (!q) throw new Error('no status query was made');
  if (q.allocId === undefined) this.fail(`the answer to name the granted allocation`, 'no PMIX_ALLOC_ID in it');
  // A request granted from the queue gets its id only now: name it.
  if (!this.allocations.has(alias)) this.allocations.set(alias, q.allocId);
  else if (this.allocations.get(alias) !== q.allocId) this.fail(`PMIX_ALLOC_ID of allocation ${alias}`, JSON.stringify(q.allocId));
});

Then('the status query is refused with {status}', function (this: WithQuery, status: number) {
  const q = this.lastQuery;
  if (!q) throw new Error('no status query was made');
  if (q.status !== status) this.fail(describeStatus(status), describeStatus(q.status));
});

Then('{actor} can see the request is {string}', async function (this: WithQuery, actor: Actor, expected: string) {
  // RF: any process may poll; used to check a third party sees the same.
  const reqId = this.last?.info.find((i) => i.key === Key.PMIX_ALLOC_REQ_ID)?.value;
  if (typeof reqId !== 'string') throw new Error('the last request carried no PMIX_ALLOC_REQ_ID');
  await query(this, actor, Key.PMIX_ALLOC_REQ_ID, reqId);
  if (this.lastQuery!.state !== expected) this.fail(`${actorName(actor)} to see request ${reqId} as "${expected}"`, `"${this.lastQuery!.state ?? describeStatus(this.lastQuery!.status)}"`);
});

Then('the status query is refused \\(the RFC names no status)', function (this: WithQuery) {
  const q = this.lastQuery;
  if (!q) throw new Error('no status query was made');
  if (ACCEPTED_STATUSES.includes(q.status)) this.fail('the status query refused with an error status (the RFC names none)', describeStatus(q.status));
});
