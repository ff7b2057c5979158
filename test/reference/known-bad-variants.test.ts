/**
 * The two known-bad implementations that are the reference engine with a
 * variation point set (known-bad/primary-target-last.ts,
 * known-bad/extend-keeps-inheritance.ts) must break exactly the rule they say
 * they break, where the default engine keeps it: the self-test needs the
 * suite to reject them, so an engine whose variant quietly did the right
 * thing would leave the suite's sensitivity untested.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Implementation } from '../../seam/implementation';
import { Directive, Inheritance, Key, Status } from '../../seam/pmix';
import { createImplementation as reference } from '../../reference/adapter';
import { createImplementation as primaryLast } from '../../known-bad/primary-target-last';
import { createImplementation as extendKeeps } from '../../known-bad/extend-keeps-inheritance';
import { cluster, idOf } from './support/engines';

const setup = cluster();

/** Where an untargeted child of a job targeted at [R1, R2] lands: PL.spawn.primary-first-valid says R1's node. */
async function childLandsOn(impl: Implementation): Promise<string> {
  await impl.start(setup);
  const { proc: tool } = await impl.connectTool({ label: 'T' });
  const ids: string[] = [];
  for (const node of ['s1', 's2']) {
    const r = await impl.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: node }] });
    ids.push(idOf(r.info));
  }
  const parent = await impl.spawn({ requester: tool, apps: [{ cmd: 'p', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: ['', ...ids] }] });
  assert.equal(parent.status, Status.PMIX_SUCCESS);
  const child = await impl.spawn({ requester: { nspace: parent.nspace!, rank: 0 }, apps: [{ cmd: 'c', np: 1 }], info: [] });
  assert.equal(child.status, Status.PMIX_SUCCESS);
  const job = (await impl.observe({ jobs: [child.nspace!] })).jobs[0];
  await impl.stop();
  return job.procs[0].node;
}

test('primary-target-last breaks PL.spawn.primary-first-valid where the reference engine keeps it', async () => {
  assert.equal(await childLandsOn(reference()), 's1', 'the first valid target (after the default session) is primary');
  assert.equal(await childLandsOn(primaryLast()), 's2', 'the known-bad makes the last one primary');
});

/** What becomes of the reservation when its owner ends after an EXTEND changed NONE to DEFAULT: PL.extend.inheritance-replaces says unreserved (the node stays). */
async function nodeStaysAfterOwnerEnds(impl: Implementation): Promise<boolean> {
  await impl.start(setup);
  const { proc: tool } = await impl.connectTool({ label: 'T' });
  const owner = await impl.spawn({ requester: tool, apps: [{ cmd: 'o', np: 1 }], info: [] });
  const me = { nspace: owner.nspace!, rank: 0 };
  const r = await impl.allocate({ requester: me, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }, { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_NONE }] });
  const id = idOf(r.info);
  const x = await impl.allocate({ requester: me, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: id }, { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_DEFAULT }] });
  assert.equal(x.status, Status.PMIX_SUCCESS);
  await impl.terminateJob({ nspace: owner.nspace! });
  const stays = (await impl.observe({ nodes: ['s1'] })).nodes.length === 1;
  await impl.stop();
  return stays;
}

test('extend-keeps-inheritance breaks PL.extend.inheritance-replaces where the reference engine keeps it', async () => {
  assert.equal(await nodeStaysAfterOwnerEnds(reference()), true, 'DEFAULT (from the EXTEND): unreserved, the node stays in the DVM');
  assert.equal(await nodeStaysAfterOwnerEnds(extendKeeps()), false, 'the known-bad keeps NONE: the node goes back to the scheduler');
});
