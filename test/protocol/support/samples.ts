/**
 * A corpus of wire messages, each declared with the seam's TypeScript type
 * (so tsc checks them against seam/messages.ts) and validated against the
 * schemas (so ajv checks them against schemas/). Negative samples are valid
 * samples with one thing broken; each names where and which rule must catch it.
 */
import { PROTOCOL_VERSION, type Args, type Command, type Result } from '../../../protocol/messages';
import { Directive, Inheritance, Key, Status } from '../../../seam/pmix';

const tool = { nspace: 'prte-tool@1', rank: 0 };
const job = { nspace: 'prte-job@1', rank: 0 };

export const requests: { [C in Command]: Args<C>[] } = {
  'start-protocol': [{ protocolVersion: PROTOCOL_VERSION }, { protocolVersion: 'pmix-dynres-wire/2' }],
  start: [
    { startupNodes: [{ name: 'n1', slots: 4 }], schedulerNodes: [], withoutKeys: [], elastic: false },
    {
      startupNodes: [{ name: 'n1', slots: 4 }],
      schedulerNodes: [{ name: 's1', slots: 2 }, { name: 's2', slots: 2 }],
      withoutKeys: ['PMIX_ALLOC_TARGET', 'PMIX_SPAWN_TARGET'],
      elastic: true,
      scheduler: { whenShort: 'queue', reacquire: 'any-nodes' },
    },
    { startupNodes: [], schedulerNodes: [], withoutKeys: [], elastic: false, scheduler: {} },
  ],
  'connect-tool': [{ label: 'T' }],
  'disconnect-tool': [{ proc: tool }],
  allocate: [
    { requester: job, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 2, required: true }] },
    {
      requester: tool,
      directive: Directive.PMIX_ALLOC_EXTERNAL,
      info: [
        { key: Key.PMIX_ALLOC_TARGET, value: ['prte-job@1', ''] },
        { key: Key.PMIX_ALLOC_SHARE, value: false },
        { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_CHILD },
        { key: 'vendor.unknown.key', value: 'passed through' },
        { key: Key.PMIX_ALLOC_TIME, value: 1.5 },
      ],
    },
  ],
  spawn: [
    { requester: tool, apps: [{ cmd: 'hostname', np: 2 }], info: [] },
    { requester: job, apps: [{ cmd: 'a.out', np: 1, hosts: ['s1'] }, { cmd: 'b.out', np: 3 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: 'prte-alloc@1' }] },
    { requester: tool, apps: [{ cmd: 'debugger', np: 1, tool: true }], info: [], hold: 'map' },
  ],
  'terminate-job': [{ nspace: 'prte-job@1' }],
  scheduler: [
    { action: 'reclaim', allocId: 'R1' },
    { action: 'timeout-warning', allocId: 'R1', timeRemaining: 30 },
    { action: 'timeout-warning', allocId: 'R1' },
    { action: 'teardown' },
    { action: 'add-nodes', nodes: ['s3', 's4'] },
    { action: 'fail-next-shrink-order', cause: Status.PMIX_ERR_UNREACH },
    { action: 'grant-queued' },
  ],
  daemon: [{ event: 'report', node: 's1' }, { event: 'wireup' }, { event: 'crash', node: 's1', cause: Status.PMIX_ERR_UNREACH }],
  'advance-job': [{ nspace: 'prte-job@1', to: 'launch' }, { nspace: 'prte-job@1', to: 'map', holdBeforeLaunch: true }],
  'query-allocation': [{ requester: job, qualifiers: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'a-1' }] }],
  observe: [{}, { nodes: ['n1'], jobs: ['prte-job@1'] }],
  inspect: [{}],
  stop: [{}],
};

export const responses: { [C in Command]: Result<C>[] } = {
  'start-protocol': [
    { protocolVersion: PROTOCOL_VERSION, implementation: { name: 'reference engine', version: '0.1.0' }, capabilities: ['PMIX_ALLOC_TARGET', 'introspection', 'scheduler-policy'] },
    { protocolVersion: PROTOCOL_VERSION, implementation: { name: 'bare', version: '' }, capabilities: [] },
  ],
  start: [{ scheduler: { nspace: 'scheduler', rank: 0 } }],
  'connect-tool': [{ proc: tool }],
  'disconnect-tool': [{ status: Status.PMIX_SUCCESS }],
  allocate: [
    { status: Status.PMIX_SUCCESS, info: [{ key: Key.PMIX_ALLOC_ID, value: 'R1' }, { key: Key.PMIX_ALLOC_NODE_LIST, value: 's1,s2' }] },
    { status: Status.PMIX_ERR_OUT_OF_RESOURCE, info: [] },
    { status: -9999, info: [] },
  ],
  spawn: [
    { status: Status.PMIX_SUCCESS, nspace: 'prte-job@2', info: [] },
    { status: Status.PMIX_ERR_NOT_FOUND, info: [] },
  ],
  'terminate-job': [{ status: Status.PMIX_SUCCESS }],
  scheduler: [{ status: Status.PMIX_ERR_UNREACH }],
  daemon: [{ status: Status.PMIX_SUCCESS }],
  'advance-job': [{ status: Status.PMIX_ERR_NOT_FOUND }],
  'query-allocation': [
    { status: Status.PMIX_SUCCESS, state: 'granted', allocId: 'R1' },
    { status: Status.PMIX_SUCCESS, state: 'pending' },
    { status: Status.PMIX_ERR_NOT_FOUND },
  ],
  observe: [
    { nodes: [], jobs: [], events: [] },
    {
      nodes: [
        { name: 'n1', slots: 4, slotsInUse: 1, availableTo: '', daemon: 'ready' },
        { name: 's1', slots: 2, slotsInUse: 0, availableTo: 'R1', daemon: 'joining' },
      ],
      jobs: [
        { nspace: 'prte-job@1', state: 'RUNNING', procs: [{ rank: 0, node: 'n1', running: true }] },
        { nspace: 'prte-job@2', state: 'NEVER_LAUNCHED', procs: [{ rank: 0, node: '', running: false }] },
        { nspace: 'prte-job@3', state: 'PENDING', procs: [] },
      ],
      events: [{ seq: 1, code: Status.PMIX_ALLOC_TIMEOUT_WARNING, to: job, info: [{ key: Key.PMIX_TIME_REMAINING, value: 30 }] }],
    },
  ],
  inspect: [
    { allocations: [] },
    {
      allocations: [
        {
          allocId: 'R1',
          reqId: 'a-1',
          owner: 'prte-job@1',
          owners: ['prte-job@1', 'prte-tool@1'],
          requester: job,
          inheritance: Inheritance.PMIX_ALLOC_INHERIT_DEFAULT,
          reserved: true,
          nodes: ['s1'],
          forwardedToScheduler: [{ key: Key.PMIX_ALLOC_WARN_TIMEOUT, value: 60 }],
        },
      ],
      elastic: {
        fence: 2,
        campaigns: [
          { id: 1, kind: 'grow', targets: ['s1', 's2'], pending: ['s2'], allocId: 'R1', reqId: 'a-1', requester: job },
          { id: 2, kind: 'shrink', targets: ['n2'], pending: [] },
        ],
        parkedAtMap: ['prte-job@3'],
        parkedAtLaunch: [],
        shrinkOffers: [{ campaign: 2, component: 'ras', eventsBefore: 4 }],
      },
    },
  ],
  stop: [{}],
};

export interface Negative {
  why: string;
  /** The message type (schema file stem). */
  type: string;
  value: unknown;
  /** Where (ajv instancePath) and which rule (ajv keyword) must catch it. */
  path: string;
  rule: string;
}

/** A copy of `base` with `patch` applied at the top level; an undefined value deletes the field. */
function edit(base: object, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...structuredClone(base) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}
const req = <C extends Command>(cmd: C, i: number, patch: Record<string, unknown>) => edit({ seq: 1, cmd, ...requests[cmd][i] }, patch);
const res = <C extends Command>(cmd: C, i: number, patch: Record<string, unknown>) => edit({ seq: 1, ...responses[cmd][i] }, patch);

const snapshot = responses.observe[1];
const view = responses.inspect[1].allocations[0];
const elastic = responses.inspect[1].elastic!;

export const negatives: Negative[] = [
  { why: 'missing required field', type: 'allocate-request', value: req('allocate', 0, { info: undefined }), path: '', rule: 'required' },
  { why: 'missing seq', type: 'observe-request', value: req('observe', 0, { seq: undefined }), path: '', rule: 'required' },
  { why: 'negative seq', type: 'stop-request', value: req('stop', 0, { seq: -1 }), path: '/seq', rule: 'minimum' },
  { why: 'fractional seq', type: 'stop-response', value: res('stop', 0, { seq: 1.5 }), path: '/seq', rule: 'type' },
  { why: 'cmd of another request', type: 'connect-tool-request', value: req('connect-tool', 0, { cmd: 'connect' }), path: '/cmd', rule: 'const' },
  { why: 'directive outside pmix_alloc_directive_t', type: 'allocate-request', value: req('allocate', 0, { directive: 6 }), path: '/directive', rule: 'enum' },
  { why: 'directive given by name', type: 'allocate-request', value: req('allocate', 0, { directive: 'PMIX_ALLOC_NEW' }), path: '/directive', rule: 'type' },
  { why: 'rank as a string', type: 'allocate-request', value: req('allocate', 0, { requester: { nspace: 'x', rank: '0' } }), path: '/requester/rank', rule: 'type' },
  { why: 'rank beyond uint32', type: 'disconnect-tool-request', value: req('disconnect-tool', 0, { proc: { nspace: 'x', rank: 2 ** 32 } }), path: '/proc/rank', rule: 'maximum' },
  { why: 'info value an object', type: 'allocate-request', value: req('allocate', 0, { info: [{ key: 'k', value: { a: 1 } }] }), path: '/info/0/value', rule: 'type' },
  { why: 'info array value of numbers', type: 'allocate-request', value: req('allocate', 0, { info: [{ key: 'k', value: [1] }] }), path: '/info/0/value/0', rule: 'type' },
  { why: 'info with an unknown field', type: 'allocate-request', value: req('allocate', 0, { info: [{ key: 'k', value: 1, type: 'PMIX_UINT8' }] }), path: '/info/0', rule: 'additionalProperties' },
  { why: 'fractional np', type: 'spawn-request', value: req('spawn', 0, { apps: [{ cmd: 'x', np: 1.5 }] }), path: '/apps/0/np', rule: 'type' },
  { why: 'app without cmd', type: 'spawn-request', value: req('spawn', 0, { apps: [{ np: 1 }] }), path: '/apps/0', rule: 'required' },
  { why: 'withoutKeys names a key that is not optional', type: 'start-request', value: req('start', 0, { withoutKeys: ['PMIX_ALLOC_ID'] }), path: '/withoutKeys/0', rule: 'enum' },
  { why: 'withoutKeys as key strings', type: 'start-request', value: req('start', 0, { withoutKeys: ['pmix.alloc.tgt'] }), path: '/withoutKeys/0', rule: 'enum' },
  { why: 'withoutKeys repeats a key', type: 'start-request', value: req('start', 0, { withoutKeys: ['PMIX_ALLOC_SHARE', 'PMIX_ALLOC_SHARE'] }), path: '/withoutKeys', rule: 'uniqueItems' },
  { why: 'unknown scheduler policy', type: 'start-request', value: req('start', 0, { scheduler: { whenShort: 'wait' } }), path: '/scheduler/whenShort', rule: 'enum' },
  { why: 'elastic as a string', type: 'start-request', value: req('start', 0, { elastic: 'yes' }), path: '/elastic', rule: 'type' },
  { why: 'extra property on a request', type: 'start-request', value: req('start', 0, { nodes: [] }), path: '', rule: 'additionalProperties' },
  { why: 'unknown scheduler action', type: 'scheduler-request', value: req('scheduler', 3, { action: 'explode' }), path: '/action', rule: 'enum' },
  { why: 'reclaim without allocId', type: 'scheduler-request', value: req('scheduler', 0, { allocId: undefined }), path: '', rule: 'required' },
  { why: 'reclaim with timeRemaining', type: 'scheduler-request', value: req('scheduler', 0, { timeRemaining: 5 }), path: '/timeRemaining', rule: 'false schema' },
  { why: 'teardown naming an allocation', type: 'scheduler-request', value: req('scheduler', 3, { allocId: 'R1' }), path: '/allocId', rule: 'false schema' },
  { why: 'protocol version not of the form pmix-dynres-wire/<n>', type: 'start-protocol-request', value: req('start-protocol', 0, { protocolVersion: '1.0' }), path: '/protocolVersion', rule: 'pattern' },
  { why: 'status name instead of its integer', type: 'allocate-response', value: res('allocate', 0, { status: 'PMIX_SUCCESS' }), path: '/status', rule: 'type' },
  { why: 'unknown status name', type: 'terminate-job-response', value: res('terminate-job', 0, { status: 'PMIX_ERR_EXPLODED' }), path: '/status', rule: 'type' },
  { why: 'extra property on a response', type: 'allocate-response', value: res('allocate', 0, { allocId: 'R1' }), path: '', rule: 'additionalProperties' },
  { why: 'response missing info', type: 'spawn-response', value: res('spawn', 0, { info: undefined }), path: '', rule: 'required' },
  { why: 'a response echoing cmd', type: 'stop-response', value: res('stop', 0, { cmd: 'stop' }), path: '', rule: 'additionalProperties' },
  { why: 'unknown job state', type: 'observe-response', value: res('observe', 1, { jobs: [{ ...snapshot.jobs[0], state: 'CRASHED' }] }), path: '/jobs/0/state', rule: 'enum' },
  { why: 'event delivery order from 0', type: 'observe-response', value: res('observe', 1, { events: [{ ...snapshot.events[0], seq: 0 }] }), path: '/events/0/seq', rule: 'minimum' },
  { why: 'node view missing availableTo', type: 'observe-response', value: res('observe', 1, { nodes: [{ name: 'n1', slots: 1, slotsInUse: 0, daemon: 'ready' }] }), path: '/nodes/0', rule: 'required' },
  { why: 'unknown daemon state', type: 'observe-response', value: res('observe', 1, { nodes: [{ ...snapshot.nodes[0], daemon: 'gone' }] }), path: '/nodes/0/daemon', rule: 'enum' },
  { why: 'add-nodes without nodes', type: 'scheduler-request', value: req('scheduler', 4, { nodes: undefined }), path: '', rule: 'required' },
  { why: 'fail-next-shrink-order naming an allocation', type: 'scheduler-request', value: req('scheduler', 5, { allocId: 'R1' }), path: '/allocId', rule: 'false schema' },
  { why: 'unknown daemon event', type: 'daemon-request', value: req('daemon', 0, { event: 'reboot' }), path: '/event', rule: 'enum' },
  { why: 'advance-job to an unknown boundary', type: 'advance-job-request', value: req('advance-job', 0, { to: 'run' }), path: '/to', rule: 'enum' },
  { why: 'unknown hold boundary', type: 'spawn-request', value: req('spawn', 2, { hold: 'start' }), path: '/hold', rule: 'enum' },
  { why: 'campaign of an unknown kind', type: 'inspect-response', value: res('inspect', 1, { elastic: { ...structuredClone(elastic), campaigns: [{ ...elastic.campaigns[0], kind: 'resize' }] } }), path: '/elastic/campaigns/0/kind', rule: 'enum' },
  { why: 'unknown query state', type: 'query-allocation-response', value: res('query-allocation', 0, { state: 'done' }), path: '/state', rule: 'enum' },
  { why: 'inheritance outside pmix_alloc_inheritance_t', type: 'inspect-response', value: res('inspect', 1, { allocations: [{ ...view, inheritance: 7 }] }), path: '/allocations/0/inheritance', rule: 'enum' },
  { why: 'unknown capability', type: 'start-protocol-response', value: res('start-protocol', 0, { capabilities: ['teleport'] }), path: '/capabilities/0', rule: 'enum' },
  { why: 'capability declared twice', type: 'start-protocol-response', value: res('start-protocol', 0, { capabilities: ['elastic', 'elastic'] }), path: '/capabilities', rule: 'uniqueItems' },
  { why: 'handshake without implementation', type: 'start-protocol-response', value: res('start-protocol', 0, { implementation: undefined }), path: '', rule: 'required' },
  { why: 'implementation with an empty name', type: 'start-protocol-response', value: res('start-protocol', 0, { implementation: { name: '', version: '1' } }), path: '/implementation/name', rule: 'minLength' },
  { why: 'error without a message', type: 'error-response', value: { seq: 1, error: { kind: 'internal' } }, path: '/error', rule: 'required' },
  { why: 'error with an empty message', type: 'error-response', value: { seq: 1, error: { message: '' } }, path: '/error/message', rule: 'minLength' },
  { why: 'error of an unknown kind', type: 'error-response', value: { seq: 1, error: { message: 'x', kind: 'oops' } }, path: '/error/kind', rule: 'enum' },
];
