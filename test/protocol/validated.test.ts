/**
 * protocol/validated.ts: the default adapter refuses every request that could
 * not have arrived over the wire as it is, the same way it refuses any
 * malformed request (PMIX_ERR_BAD_PARAM for a status method, a throw for the
 * others), and the implementation behind it is never called. Two kinds used
 * to slip through (issue 23, item 4): a missing or non-object request to a
 * method without a status (observe(null) threw inside the engine,
 * observe(undefined) and observe(5) were answered), and a field present but
 * undefined (the schemas skip it, so it reached the engine as it was).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Implementation } from '../../seam/implementation';
import { Directive, Key, Status } from '../../seam/pmix';
import { validated } from '../../protocol/validated';

/** An implementation that records every call it gets and answers a fixed success. */
function spy(): { impl: Implementation; calls: string[] } {
  const calls: string[] = [];
  const answer = (m: string, a: unknown) => async () => {
    calls.push(m);
    return a;
  };
  const impl = {
    describe: answer('describe', { name: 'spy', version: '0', capabilities: [] }),
    start: answer('start', { scheduler: { nspace: 's', rank: 0 } }),
    connectTool: answer('connectTool', { proc: { nspace: 't', rank: 0 } }),
    disconnectTool: answer('disconnectTool', { status: 0 }),
    spawn: answer('spawn', { status: 0, nspace: 'j', info: [] }),
    allocate: answer('allocate', { status: 0, info: [] }),
    terminateJob: answer('terminateJob', { status: 0 }),
    scheduler: answer('scheduler', { status: 0 }),
    daemon: answer('daemon', { status: 0 }),
    advanceJob: answer('advanceJob', { status: 0 }),
    queryAllocation: answer('queryAllocation', { status: 0, info: [] }),
    observe: answer('observe', { nodes: [], jobs: [], events: [] }),
    stop: answer('stop', undefined),
  } as unknown as Implementation;
  return { impl, calls };
}

const tool = { nspace: 'prte-tool@1', rank: 0 };
const call = (impl: Implementation, method: string, req?: unknown): Promise<unknown> =>
  (impl as unknown as Record<string, (r?: unknown) => Promise<unknown>>)[method](req);

const NO_STATUS: [string, unknown][] = [
  ['observe', undefined],
  ['observe', null],
  ['observe', 5],
  ['observe', 'nodes'],
  ['observe', []],
  ['observe', { nodes: undefined }],
  ['observe', { jobs: ['prte-job@1'], nodes: undefined }],
  ['connectTool', { label: 'T', unused: undefined }],
  ['start', null],
];

for (const [method, req] of NO_STATUS) {
  test(`validated: ${method}(${String(JSON.stringify(req))}${req !== null && typeof req === 'object' && Object.values(req).includes(undefined) ? ' with a field undefined' : ''}) is refused by a throw and never reaches the implementation`, async () => {
    const { impl, calls } = spy();
    await assert.rejects(call(validated(impl), method, req), /malformed/);
    assert.deepEqual(calls, []);
  });
}

const WITH_STATUS: [string, string, unknown][] = [
  ['allocate', 'no request', undefined],
  ['allocate', 'a null request', null],
  ['allocate', 'an optional field present but undefined', { requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [], unused: undefined }],
  ['allocate', 'an info value undefined', { requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: undefined }] }],
  ['allocate', 'an info entry\'s optional flag undefined', { requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1, required: undefined }] }],
  ['spawn', 'an app\'s optional hosts undefined', { requester: tool, apps: [{ cmd: 'a', np: 1, hosts: undefined }], info: [] }],
  ['spawn', 'the optional hold undefined', { requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [], hold: undefined }],
  ['scheduler', 'an action\'s optional field undefined', { action: 'grant-queued', allocId: undefined }],
  ['terminateJob', 'a number where the request should be', 7],
];

for (const [method, what, req] of WITH_STATUS) {
  test(`validated: ${method} with ${what} answers PMIX_ERR_BAD_PARAM and never reaches the implementation`, async () => {
    const { impl, calls } = spy();
    const answer = (await call(validated(impl), method, req)) as { status: number };
    assert.equal(answer.status, Status.PMIX_ERR_BAD_PARAM);
    assert.deepEqual(calls, []);
  });
}

test('validated: well-formed requests, optional fields absent, still reach the implementation', async () => {
  const { impl, calls } = spy();
  const v = validated(impl);
  await v.observe({});
  await v.observe({ nodes: ['n1'] });
  await v.connectTool({ label: 'T' });
  const a = await v.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }] });
  assert.equal(a.status, 0);
  await v.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [] });
  assert.deepEqual(calls, ['observe', 'observe', 'connectTool', 'allocate', 'spawn']);
});
