/**
 * The allocation RFC's directives beyond NEW / EXTEND / RELEASE: lending
 * nodes back and reacquiring them, cancelling requests still queued at the
 * scheduler, and querying a request's status. Where the RFC leaves a choice
 * to the host, the simulated scheduler's policy (EngineConfig.scheduler)
 * makes it, and a scenario can set it.
 */
import type { AllocateRequest, AllocateResult, Info, QueryAllocationRequest, QueryAllocationResult } from '../seam/messages';
import { Directive, Key, Status } from '../seam/pmix';
import { allocateNew, commitGrant, extend, lookup, response } from './allocation';
import { cancelled } from './requests';
import * as attr from './attributes';
import { Rejection } from './attributes';
import { planGrant, Shortfall, type Grant } from './scheduler';
import { classify, mayUse, reqKey, type State } from './state';

/** PMIX_ALLOC_REAQUIRE and PMIX_ALLOC_REQ_CANCEL, from a live requester; a refusal has no effect. */
export function directive(state: State, req: AllocateRequest): AllocateResult {
  try {
    if (!classify(state, req.requester)) throw new Rejection(Status.PMIX_ERR_UNREACH, `requester ${req.requester.nspace}:${req.requester.rank} is not a live process`);
    return req.directive === Directive.PMIX_ALLOC_REAQUIRE ? reacquire(state, req) : cancel(state, req);
  } catch (e) {
    if (e instanceof Rejection) return { status: e.status, info: [] };
    throw e;
  }
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

