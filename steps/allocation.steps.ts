/** PMIx_Allocation_request and what its response must say. */
import { Given, When, type DataTable } from '@cucumber/cucumber';
import { Then } from './support/claims';
import { describeStatus, Directive, Key, statusName } from '../seam/pmix';
import { accepted, allocate, infoFrom, requireAccepted } from './support/actions';
import { clause, namingStatus, refusalOf } from './support/charge';
import type { Actor } from './support/parameters';
import type { ConformanceWorld } from './support/world';

When('{actor} requests {directive} with:', async function (this: ConformanceWorld, actor: Actor, directive: number, table: DataTable) {
  await allocate(this, actor, directive, infoFrom(this, table));
});

When('{actor} requests {directive} for allocation {string} with:', async function (this: ConformanceWorld, actor: Actor, directive: number, alias: string, table: DataTable) {
  await allocate(this, actor, directive, infoFrom(this, table), alias);
});

async function holds(world: ConformanceWorld, actor: Actor, alias: string, nodes: string, table?: DataTable) {
  const info = [{ key: Key.PMIX_ALLOC_NODE_LIST, value: nodes }, ...infoFrom(world, table)];
  const result = await allocate(world, actor, Directive.PMIX_ALLOC_NEW, info, alias, { setup: true });
  if (!accepted(result.status) || !world.allocations.has(alias)) {
    world.fail(`allocation ${alias} of ${nodes} to be granted with a PMIX_ALLOC_ID`, `${describeStatus(result.status)}, info ${JSON.stringify(result.info)}`);
  }
}

Given('{actor} holds allocation {string} of node(s) {string}', async function (this: ConformanceWorld, actor: Actor, alias: string, nodes: string) {
  await holds(this, actor, alias, nodes);
});

Given('{actor} holds allocation {string} of node(s) {string} with:', async function (this: ConformanceWorld, actor: Actor, alias: string, nodes: string, table: DataTable) {
  await holds(this, actor, alias, nodes, table);
});

Then('the request succeeds', function (this: ConformanceWorld) {
  requireAccepted(this);
});

Then('the request is rejected with {status}', function (this: ConformanceWorld, status: number) {
  const last = this.last;
  if (!last) throw new Error('no request was made');
  if (last.status !== status) this.fail(describeStatus(status), describeStatus(last.status), namingStatus(statusName(status)));
});

Then('the request is rejected', function (this: ConformanceWorld) {
  const last = this.last;
  if (!last) throw new Error('no request was made');
  if (accepted(last.status)) this.fail('an error status (the specification names none)', describeStatus(last.status));
});

function responseValue(world: ConformanceWorld, key: string) {
  return world.last?.info.find((i) => i.key === key)?.value;
}

Then('the response carries a PMIX_ALLOC_ID', function (this: ConformanceWorld) {
  const id = responseValue(this, Key.PMIX_ALLOC_ID);
  if (typeof id !== 'string' || id === '') this.fail('a non-empty PMIX_ALLOC_ID string in the response', JSON.stringify(this.last?.info), clause('NR.report.alloc-id'));
});

Then('the response carries the PMIX_ALLOC_ID of allocation {string}', function (this: ConformanceWorld, alias: string) {
  const id = responseValue(this, Key.PMIX_ALLOC_ID);
  if (id !== this.allocId(alias)) this.fail(`PMIX_ALLOC_ID ${JSON.stringify(this.allocId(alias))} (allocation ${alias})`, id === undefined ? 'no PMIX_ALLOC_ID in the response' : JSON.stringify(id));
});

Then('the response echoes PMIX_ALLOC_REQ_ID {string}', function (this: ConformanceWorld, reqId: string) {
  const got = responseValue(this, Key.PMIX_ALLOC_REQ_ID);
  if (got !== reqId) this.fail(`PMIX_ALLOC_REQ_ID ${JSON.stringify(reqId)} echoed`, got === undefined ? 'no PMIX_ALLOC_REQ_ID in the response' : JSON.stringify(got), clause('NR.report.req-id-echo'));
});

Then('allocations {string} and {string} have different ids', function (this: ConformanceWorld, a: string, b: string) {
  if (this.allocId(a) === this.allocId(b)) this.fail(`two distinct PMIX_ALLOC_IDs`, `both are ${JSON.stringify(this.allocId(a))}`);
});

/** Where the specification says only that a request is refused: any error status, and (a separate step) no effect. */
Then('the request is rejected \\(the specification names no status)', function (this: ConformanceWorld) {
  const last = this.last;
  if (!last) throw new Error('no request was made');
  if (accepted(last.status)) this.fail('the request refused with an error status (the specification names none)', describeStatus(last.status), refusalOf(last.operation));
});

/** Where two rows of the error table can each apply, depending on a reading (e.g. IP-REQ-ID-SCOPE): either status. */
Then('the request is rejected with {status} or {status}', function (this: ConformanceWorld, a: number, b: number) {
  const last = this.last;
  if (!last) throw new Error('no request was made');
  if (last.status !== a && last.status !== b) this.fail(`${describeStatus(a)} or ${describeStatus(b)}`, describeStatus(last.status));
});
