/**
 * The allocation RFC's directives beyond NEW / EXTEND / RELEASE: lending
 * nodes back and reacquiring them, cancelling requests still queued at the
 * scheduler, and querying a request's status. Where the RFC leaves a choice
 * to the host, the simulated scheduler's policy (EngineConfig.scheduler)
 * makes it, and a scenario can set it.
 */
import type { AllocateRequest, AllocateResult, Info, ProcId, QueryAllocationRequest, QueryAllocationResult } from '../seam/messages';
import { Directive, Key, Status } from '../seam/pmix';
import { allocateNew, commitGrant, extend, lookup, response } from './allocation';
import * as attr from './attributes';
import { Rejection } from './attributes';
import { returnToScheduler } from './lifecycle';
import { planGrant, Shortfall, type Grant } from './scheduler';
import { classify, indexAllocation, mayUse, reqKey, type AllocationRec, type RequestRec, type State } from './state';

export function recordRequest(state: State, requester: ProcId, reqId: string | undefined, allocId: string): void {
  if (reqId !== undefined) setRequest(state, requester.nspace, reqId, { requester: { ...requester }, state: 'granted', allocId });
}

export function enqueue(state: State, req: AllocateRequest, reqId: string | undefined): void {
  state.queue.push({ req: { ...req, info: req.info.map((i) => ({ ...i })) }, reqId });
  if (reqId !== undefined) setRequest(state, req.requester.nspace, reqId, { requester: { ...req.requester }, state: 'pending' });
}

/** The scheduler works through its queue in arrival order; what it still cannot grant stays queued. */
export function grantQueued(state: State): void {
  const waiting = state.queue;
  state.queue = [];
  for (const q of waiting) {
    const who = classify(state, q.req.requester);
    if (!who) {
      // Nobody left to grant it to.
      if (q.reqId !== undefined) cancelled(state, q);
      continue;
    }
    try {
      const result = q.req.directive === Directive.PMIX_ALLOC_NEW ? allocateNew(state, q.req, who, true) : extend(state, q.req, who, true);
      if (result.status !== Status.PMIX_SUCCESS && q.reqId !== undefined) cancelled(state, q);
    } catch (e) {
      if (!(e instanceof Rejection)) throw e;
      if (e instanceof Shortfall) state.queue.push(q);
      else if (q.reqId !== undefined) cancelled(state, q);
    }
  }
}

/**
 * PMIX_ALLOC_REQ_CANCEL: cancel the named request still in the queue, or,
 * naming none, every request the requester still has queued. A request is
 * named by the requester's own id (PMIX_ALLOC_REQ_ID; the RFC's "allocation
 * ID" was the requester-chosen one) or PMIX_ALLOC_ID. Only its requester's
 * namespace, or the scheduler, may cancel it.
 */
export function cancel(state: State, req: AllocateRequest): AllocateResult {
  const info = attr.recognised(state, req.info);
  const name = attr.str(info, Key.PMIX_ALLOC_REQ_ID) ?? attr.str(info, Key.PMIX_ALLOC_ID);
  const isScheduler = req.requester.nspace === state.schedulerNspace;
  const mine = (q: { req: AllocateRequest }) => isScheduler || q.req.requester.nspace === req.requester.nspace;
  if (name === undefined) {
    const gone = state.queue.filter(mine);
    state.queue = state.queue.filter((q) => !mine(q));
    for (const q of gone) if (q.reqId !== undefined) cancelled(state, q);
    return { status: Status.PMIX_SUCCESS, info: [] };
  }
  // The requester's own request of that name first; the scheduler may cancel anyone's.
  const target = state.queue.find((q) => q.reqId === name && q.req.requester.nspace === req.requester.nspace) ?? state.queue.find((q) => q.reqId === name);
  if (!target) throw new Rejection(Status.PMIX_ERR_NOT_FOUND, `no queued request "${name}"`);
  if (!mine(target)) throw new Rejection(Status.PMIX_ERR_NO_PERMISSIONS, `request "${name}" is not ${req.requester.nspace}'s`);
  state.queue = state.queue.filter((q) => q !== target);
  cancelled(state, target);
  return { status: Status.PMIX_SUCCESS, info: [{ key: Key.PMIX_ALLOC_REQ_ID, value: name }] };
}

/** Lend: the nodes go back to the scheduler as on a release, but the allocation stays, to be reacquired. */
export function lend(state: State, alloc: AllocationRec): void {
  const nodes = [...alloc.nodes];
  // The return path forgets the allocation; put it back, empty, marked lent.
  returnToScheduler(state, alloc);
  state.ended.delete(alloc.allocId);
  alloc.nodes = new Set();
  alloc.lent = nodes;
  state.allocations.set(alloc.allocId, alloc);
  state.bySessionId.set(alloc.sessionId, alloc.allocId);
  if (alloc.reqKey !== undefined) state.byReqId.set(alloc.reqKey, alloc.allocId);
  indexAllocation(state, alloc);
}

/**
 * PMIX_ALLOC_REAQUIRE: take back what was lent. The scheduler's policy says
 * whether it must be the very same nodes or any free nodes of that number.
 */
export function reacquire(state: State, req: AllocateRequest): AllocateResult {
  const info = attr.recognised(state, req.info);
  const alloc = lookup(state, attr.str(info, Key.PMIX_ALLOC_ID), attr.str(info, Key.PMIX_ALLOC_REQ_ID), req.requester.nspace);
  if (!mayUse(state, alloc, req.requester.nspace)) {
    throw new Rejection(Status.PMIX_ERR_NO_PERMISSIONS, `${req.requester.nspace} does not own ${alloc.allocId}`);
  }
  if (!alloc.lent) throw new Rejection(Status.PMIX_ERR_BAD_PARAM, `${alloc.allocId} has nothing lent to reacquire`);
  const grant: Grant =
    state.config.scheduler?.reacquire === 'any-nodes'
      ? planGrant(state, undefined, alloc.lent.length, { nodeList: false, numNodes: true })
      : planGrant(state, alloc.lent.join(','), undefined, { nodeList: true, numNodes: false });
  alloc.lent = undefined;
  commitGrant(state, alloc, grant, { requester: req.requester, reqId: attr.str(info, Key.PMIX_ALLOC_REQ_ID) });
  return { status: Status.PMIX_SUCCESS, info: response(state, alloc, undefined) };
}

export function query(state: State, req: QueryAllocationRequest): QueryAllocationResult {
  if (!classify(state, req.requester)) return { status: Status.PMIX_ERR_UNREACH };
  const byKey = (key: string) => req.qualifiers.find((i: Info) => i.key === key)?.value;
  const reqId = byKey(Key.PMIX_ALLOC_REQ_ID);
  const allocId = byKey(Key.PMIX_ALLOC_ID);
  if (typeof reqId === 'string') {
    // The asker's own request of that id, else (any process may poll) the latest request that used it (IP-REQ-ID-SCOPE).
    const latest = state.latestRequest.get(reqId);
    const rec = state.requests.get(reqKey(req.requester.nspace, reqId)) ?? (latest !== undefined ? state.requests.get(latest) : undefined);
    if (!rec) return { status: Status.PMIX_ERR_NOT_FOUND };
    if (rec.state !== 'granted') return { status: Status.PMIX_SUCCESS, state: rec.state };
    return { status: Status.PMIX_SUCCESS, ...allocationState(state, rec.allocId!) };
  }
  if (typeof allocId === 'string') {
    if (!state.allocations.has(allocId) && !state.ended.has(allocId)) return { status: Status.PMIX_ERR_NOT_FOUND };
    return { status: Status.PMIX_SUCCESS, ...allocationState(state, allocId) };
  }
  return { status: Status.PMIX_ERR_BAD_PARAM };
}

function allocationState(state: State, allocId: string): Pick<QueryAllocationResult, 'state' | 'allocId'> {
  const alloc = state.allocations.get(allocId);
  if (!alloc) return { state: 'ended', allocId };
  return { state: alloc.lent ? 'lent' : 'granted', allocId };
}

function cancelled(state: State, q: { req: AllocateRequest; reqId?: string }): void {
  setRequest(state, q.req.requester.nspace, q.reqId!, { requester: q.req.requester, state: 'cancelled' });
}

function setRequest(state: State, nspace: string, reqId: string, rec: RequestRec): void {
  const key = reqKey(nspace, reqId);
  state.requests.set(key, rec);
  state.latestRequest.set(reqId, key);
}
