/**
 * The frame checks (steps/support/frame.ts): each forbids what nothing the
 * scenario did can explain, and allows everything a conforming
 * implementation may do (an unanswered request, a queued grant under an id
 * never returned, the scheduler's completion event after a reclaim).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventView, JobView, NodeView, ProcId, Snapshot } from '../../seam/messages';
import { Directive, Key, Status } from '../../seam/pmix';
import { frameViolations, type FrameInput } from '../../steps/support/frame';
import type { JournalEntry } from '../../steps/support/journal';

const A: ProcId = { nspace: 'A', rank: 0 };
const T: ProcId = { nspace: 'T', rank: 0 };
const SCHED: ProcId = { nspace: 'sched', rank: 0 };
const node = (name: string, availableTo = ''): NodeView => ({ name, slots: 1, slotsInUse: 0, availableTo, daemon: 'ready' });
const job = (nspace: string, state: JobView['state'], procs: [string, boolean][]): JobView => ({ nspace, state, procs: procs.map(([n, running], rank) => ({ rank, node: n, running })) });
let seq = 0;
const event = (code: number, to: ProcId, allocId?: string): EventView => ({ seq: ++seq, code, to, info: allocId === undefined ? [] : [{ key: Key.PMIX_ALLOC_ID, value: allocId }] });
const alloc = (requester: ProcId, status: number | undefined, allocId?: string, directive = Directive.PMIX_ALLOC_NEW): JournalEntry => ({
  op: 'allocate',
  req: { requester, directive, info: [] },
  ...(status === undefined ? {} : { answer: { status, info: allocId === undefined ? [] : [{ key: Key.PMIX_ALLOC_ID, value: allocId }] } }),
});
const spawned = (nspace: string | undefined, status: number = Status.PMIX_SUCCESS): JournalEntry => ({ op: 'spawn', req: { requester: A, apps: [], info: [] }, answer: { status, nspace, info: [] } });
const input = (journal: JournalEntry[], final: Partial<Snapshot>, more: Partial<FrameInput> = {}): FrameInput => ({
  journal,
  final: { nodes: [], jobs: [], events: [], ...final },
  departed: new Set(),
  elastic: true,
  scheduler: SCHED,
  ...more,
});
const clauses = (i: FrameInput) => frameViolations(i).map((v) => v.clause);

test('a timeout warning the scheduler never issued is the runtime\'s own: NR.warn.relay-only', () => {
  const warning = event(Status.PMIX_ALLOC_TIMEOUT_WARNING, A, 'R');
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R')], { events: [warning] })), ['NR.warn.relay-only']);
  const warned: JournalEntry = { op: 'scheduler', req: { action: 'timeout-warning', allocId: 'R', timeRemaining: 60 } };
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R'), warned], { events: [warning] })), []);
  // Relayed twice to the same process for one warning: one is the runtime's own.
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R'), warned], { events: [warning, event(Status.PMIX_ALLOC_TIMEOUT_WARNING, A, 'R')] })), ['NR.warn.relay-only']);
  // A warning about another allocation does not explain this one.
  const other: JournalEntry = { op: 'scheduler', req: { action: 'timeout-warning', allocId: 'Q' } };
  assert.deepEqual(clauses(input([other], { events: [warning] })), ['NR.warn.relay-only']);
});

test('completion events: only in elastic mode, only to an accepted requester, at most one per accepted request', () => {
  const ready = (to: ProcId, id = 'R') => event(Status.PMIX_DVM_IS_READY, to, id);
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R')], { events: [ready(A)] }, { elastic: false })), ['ED.gate.elastic-mode-only']);
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R')], { events: [ready(A)] })), []);
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_ERR_NO_PERMISSIONS)], { events: [ready(A)] })), ['ED.deliver.no-event-on-reject']);
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R')], { events: [ready(A), ready(T)] })), ['EP.event.directed']);
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R')], { events: [ready(A), ready(A)] })), ['ED.deliver.exactly-one']);
  // Two requests, two events, but both for the allocation only one of them named.
  const two = [alloc(A, Status.PMIX_SUCCESS, 'R'), alloc(A, Status.PMIX_SUCCESS, 'Q')];
  assert.deepEqual(clauses(input(two, { events: [ready(A, 'R'), ready(A, 'R')] })), ['ED.deliver.exactly-one']);
});

test('completion events a conforming implementation may send are allowed', () => {
  const ready = (to: ProcId, id: string) => event(Status.PMIX_DVM_IS_READY, to, id);
  // No answer came (the requester ended first): it may have been accepted.
  assert.deepEqual(clauses(input([alloc(A, undefined)], { events: [ready(A, 'R')] })), []);
  // Queued, then granted under an id the answer could not name.
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_OPERATION_IN_PROGRESS)], { events: [ready(A, 'late')] })), []);
  // Under one reading a reclaim's completion event goes to the scheduler.
  const reclaim: JournalEntry = { op: 'scheduler', req: { action: 'reclaim', allocId: 'R' } };
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R'), reclaim], { events: [ready(SCHED, 'R')] })), []);
  // An extend names its allocation in its attributes.
  const extend: JournalEntry = { op: 'allocate', req: { requester: T, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: 'R' }] }, answer: { status: Status.PMIX_SUCCESS, info: [] } };
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R'), extend], { events: [ready(A, 'R'), ready(A, 'R')] })), []);
});

test('a process stops only because its job was ended, its node left, or the DVM was torn down: NR.mapped.teardown-never-kills', () => {
  const nodes = [node('n1'), node('n2')];
  const killed = job('J', 'KILLED', [['n1', false], ['n2', true]]);
  assert.deepEqual(clauses(input([spawned('J')], { nodes, jobs: [killed] })), ['NR.mapped.teardown-never-kills']);
  assert.deepEqual(clauses(input([spawned('J')], { nodes, jobs: [killed] }, { departed: new Set(['n1']) })), []);
  assert.deepEqual(clauses(input([spawned('J')], { nodes: [node('n2')], jobs: [killed] })), []);
  assert.deepEqual(clauses(input([spawned('J'), { op: 'terminateJob', req: { nspace: 'J' } }], { nodes, jobs: [job('J', 'TERMINATED', [['n1', false]])] })), []);
  assert.deepEqual(clauses(input([spawned('J'), { op: 'daemon', req: { event: 'crash', node: 'n1' } }], { nodes, jobs: [killed] })), []);
  assert.deepEqual(clauses(input([spawned('J'), { op: 'scheduler', req: { action: 'teardown' } }], { nodes, jobs: [killed] })), []);
  // Never ran: nothing ended it.
  assert.deepEqual(clauses(input([spawned('J')], { nodes, jobs: [job('J', 'NEVER_LAUNCHED', [['n1', false]])] })), []);
});

test('a job no accepted spawn launched, a node reserved to an allocation no accepted request made', () => {
  assert.deepEqual(clauses(input([spawned(undefined, Status.PMIX_ERR_NO_PERMISSIONS)], { jobs: [job('X', 'RUNNING', [['n1', true]])], nodes: [node('n1')] })), ['NR.reject.spawn-no-effect']);
  assert.deepEqual(clauses(input([], { jobs: [job('X', 'RUNNING', [['n1', true]])], nodes: [node('n1')] })), ['NR.conformance.2']);
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_ERR_NO_PERMISSIONS)], { nodes: [node('s1', 'ghost')] })), ['NR.reject.alloc-no-effect']);
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_SUCCESS, 'R')], { nodes: [node('s1', 'R')] })), []);
  assert.deepEqual(clauses(input([alloc(A, Status.PMIX_OPERATION_IN_PROGRESS)], { nodes: [node('s1', 'granted-later')] })), []);
  const queried: JournalEntry = { op: 'queryAllocation', answer: { status: Status.PMIX_SUCCESS, allocId: 'Q' } };
  assert.deepEqual(clauses(input([queried], { nodes: [node('s1', 'Q')] })), []);
});
