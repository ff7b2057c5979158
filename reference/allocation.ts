/**
 * PMIx_Allocation_request: where dynamically allocated nodes go (the
 * decision table), NEW versus EXTEND, the response, and RELEASE.
 *
 * Every check runs before anything is changed, so a rejection has no
 * partial effect; the commit functions at the bottom cannot fail.
 */
import type { AllocateRequest, AllocateResult, Info } from '../seam/messages';
import { Directive, Inheritance, Key, Status } from '../seam/pmix';
import * as attr from './attributes';
import { Rejection } from './attributes';
import { enqueue, recordRequest } from './requests';
import { departNode, startGrow, withShrink, type SizeChangeContext } from './elastic';
import { returnNode, returnToScheduler } from './lifecycle';
import { planGrant, Shortfall, type Grant } from './scheduler';
import { classify, indexAllocation, mayUse, mintAllocId, reqKey, unindexAllocation, type AllocationRec, type RequesterClass, type State } from './state';

/** NEW, EXTEND and RELEASE (engine.ts sends REAQUIRE and CANCEL to directives.ts). */
export function allocate(state: State, req: AllocateRequest): AllocateResult {
  try {
    const who = classify(state, req.requester);
    if (!who) throw new Rejection(Status.PMIX_ERR_UNREACH, `requester ${req.requester.nspace}:${req.requester.rank} is not a live process`);
    switch (req.directive) {
      case Directive.PMIX_ALLOC_NEW:
        return allocateNew(state, req, who);
      case Directive.PMIX_ALLOC_EXTEND:
        return extend(state, req, who);
      case Directive.PMIX_ALLOC_RELEASE:
        return release(state, req);
      default:
        throw new Rejection(Status.PMIX_ERR_NOT_SUPPORTED, `directive ${req.directive} is not supported`);
    }
  } catch (e) {
    if (e instanceof Rejection) return { status: e.status, info: [] };
    throw e;
  }
}

interface Common {
  info: Map<string, Info>;
  target?: string;
  share: boolean;
  inheritance?: number;
  reqId?: string;
  allocId?: string;
  nodeList?: string;
  numNodes?: number;
  required: { nodeList: boolean; numNodes: boolean };
  forwarded: Info[];
}

/** The checks NEW and EXTEND share, in the order the error table lists them. */
function common(state: State, req: AllocateRequest, who: RequesterClass): Common {
  const info = attr.recognised(state, req.info);
  const target = attr.str(info, Key.PMIX_ALLOC_TARGET);
  // The spec rejects an application's PMIX_ALLOC_TARGET whatever
  // PMIX_ALLOC_SHARE says (the plan's code tested SHARE first; the spec wins).
  if (target !== undefined && who === 'application') {
    throw new Rejection(Status.PMIX_ERR_NO_PERMISSIONS, 'an application may not name PMIX_ALLOC_TARGET');
  }
  if (target === '') {
    // Interpretation point IP-TARGET-INVALID: a reservation for the invalid namespace would be owned by no one.
    throw new Rejection(Status.PMIX_ERR_BAD_PARAM, 'PMIX_ALLOC_TARGET names the invalid namespace');
  }
  const share = attr.bool(info, Key.PMIX_ALLOC_SHARE) ?? false;
  const inheritance = attr.inheritance(state, req.info);
  const reqId = attr.str(info, Key.PMIX_ALLOC_REQ_ID);
  const allocId = attr.str(info, Key.PMIX_ALLOC_ID);
  const warn = attr.uint(info, Key.PMIX_ALLOC_WARN_TIMEOUT, attr.LIMITS.UINT32);
  const nodeList = attr.str(info, Key.PMIX_ALLOC_NODE_LIST);
  const numNodes = attr.uint(info, Key.PMIX_ALLOC_NUM_NODES, Number.MAX_SAFE_INTEGER);
  const forwarded: Info[] = warn === undefined ? [] : [{ key: Key.PMIX_ALLOC_WARN_TIMEOUT, value: warn }];
  const required = { nodeList: info.get(Key.PMIX_ALLOC_NODE_LIST)?.required === true, numNodes: info.get(Key.PMIX_ALLOC_NUM_NODES)?.required === true };
  return { info, target, share, inheritance, reqId, allocId, nodeList, numNodes, required, forwarded };
}

/**
 * A request whose required resources the scheduler cannot grant now is
 * refused, or queued when the scheduler's policy says so (the RFC leaves this
 * to the host); everything else about it has been validated first.
 */
function grantOrQueue(state: State, req: AllocateRequest, c: Common, queued: boolean): Grant | AllocateResult {
  try {
    return planGrant(state, c.nodeList, c.numNodes, c.required);
  } catch (e) {
    if (!(e instanceof Shortfall) || queued || state.config.scheduler?.whenShort !== 'queue') throw e;
    enqueue(state, req, c.reqId);
    const info: Info[] = c.reqId !== undefined ? [{ key: Key.PMIX_ALLOC_REQ_ID, value: c.reqId }] : [];
    return { status: Status.PMIX_OPERATION_IN_PROGRESS, info };
  }
}

const isResult = (g: Grant | AllocateResult): g is AllocateResult => 'status' in g;

export function allocateNew(state: State, req: AllocateRequest, who: RequesterClass, queued = false): AllocateResult {
  const c = common(state, req, who);
  if (c.target !== undefined && !liveNamespace(state, c.target)) {
    // IP-TARGET-UNKNOWN: a reservation owned by a namespace that is not running would never be released by its disposition.
    throw new Rejection(Status.PMIX_ERR_NOT_FOUND, `PMIX_ALLOC_TARGET names ${c.target}, which is not a running namespace`);
  }
  const grant = grantOrQueue(state, req, c, queued);
  if (isResult(grant)) return grant;
  // The owning namespace: TARGET for a tool's request, otherwise the requester.
  const owner = c.target ?? req.requester.nspace;
  const sessionId = nextSessionId(state);
  const alloc: AllocationRec = {
    allocId: mintAllocId(state, owner, sessionId),
    sessionId,
    reqId: c.reqId,
    latestReqId: c.reqId,
    owner,
    owners: new Set([owner]),
    requester: { ...req.requester },
    inheritance: c.inheritance ?? Inheritance.PMIX_ALLOC_INHERIT_DEFAULT,
    reserved: !c.share,
    nodes: new Set(),
    spawnedInto: new Set(),
    forwarded: c.forwarded,
  };
  state.allocations.set(alloc.allocId, alloc);
  state.bySessionId.set(sessionId, alloc.allocId);
  const change: SizeChangeContext = { requester: req.requester, reqId: c.reqId };
  if (c.reqId !== undefined) {
    alloc.reqKey = reqKey(req.requester.nspace, c.reqId);
    state.byReqId.set(alloc.reqKey, alloc.allocId);
  }
  indexAllocation(state, alloc);
  commitGrant(state, alloc, grant, change);
  recordRequest(state, req.requester, c.reqId, alloc.allocId);
  return { status: Status.PMIX_SUCCESS, info: response(state, alloc, c.reqId) };
}

export function extend(state: State, req: AllocateRequest, who: RequesterClass, queued = false): AllocateResult {
  const c = common(state, req, who);
  const alloc = lookup(state, c.allocId, c.reqId, req.requester.nspace);
  // The spec: EXTEND succeeds only when the *requester's* namespace owns the
  // reservation (the plan's prose says the TARGET namespace; the spec wins).
  if (!mayUse(state, alloc, req.requester.nspace)) {
    throw new Rejection(Status.PMIX_ERR_NO_PERMISSIONS, `${req.requester.nspace} does not own ${alloc.allocId}`);
  }
  const grant = grantOrQueue(state, req, c, queued);
  if (isResult(grant)) return grant;
  if (c.inheritance !== undefined && state.variant.extendInheritance !== 'keep') {
    unindexAllocation(state, alloc);
    alloc.inheritance = c.inheritance;
    indexAllocation(state, alloc);
  }
  // The warning follows the most recent requester.
  alloc.requester = { ...req.requester };
  if (c.reqId !== undefined) alloc.latestReqId = c.reqId;
  if (c.forwarded.length > 0) alloc.forwarded = c.forwarded;
  commitGrant(state, alloc, grant, { requester: req.requester, reqId: c.reqId });
  // The EXTEND's own request id reports what became of it, queued or not (RF.id.follow-on, IP-QUEUED-REQUESTS).
  recordRequest(state, req.requester, c.reqId, alloc.allocId);
  return { status: Status.PMIX_SUCCESS, info: response(state, alloc, c.reqId) };
}

function release(state: State, req: AllocateRequest): AllocateResult {
  const info = attr.recognised(state, req.info);
  const allocId = attr.str(info, Key.PMIX_ALLOC_ID);
  const reqId = attr.str(info, Key.PMIX_ALLOC_REQ_ID);
  const nodeList = attr.str(info, Key.PMIX_ALLOC_NODE_LIST);
  const numNodes = attr.uint(info, Key.PMIX_ALLOC_NUM_NODES, Number.MAX_SAFE_INTEGER);
  if (nodeList !== undefined || numNodes !== undefined) return releasePart(state, req, { allocId, reqId, nodeList, numNodes });
  const alloc = lookup(state, allocId, reqId, req.requester.nspace);
  if (!mayUse(state, alloc, req.requester.nspace)) {
    throw new Rejection(Status.PMIX_ERR_NO_PERMISSIONS, `${req.requester.nspace} does not own ${alloc.allocId}`);
  }
  // A release that names a period (PMIX_ALLOC_TIME) lends the nodes back for
  // that long instead of giving them up (IP-LEND).
  const period = attr.uint(info, Key.PMIX_ALLOC_TIME, attr.LIMITS.UINT32);
  withShrink(state, { requester: req.requester, allocId: alloc.allocId, reqId, creationReqId: alloc.reqId }, () => {
    if (period !== undefined) lend(state, alloc);
    else returnToScheduler(state, alloc);
  });
  return { status: Status.PMIX_SUCCESS, info: [{ key: Key.PMIX_ALLOC_ID, value: alloc.allocId }] };
}

/**
 * A partial release (IP-PARTIAL-RELEASE): named nodes, or a number of nodes
 * of one allocation, go back to the scheduler; the allocation lives on. Each
 * node must belong to an allocation the requester may release; a count never
 * takes a node the requester itself runs on.
 */
function releasePart(
  state: State,
  req: AllocateRequest,
  p: { allocId?: string; reqId?: string; nodeList?: string; numNodes?: number },
): AllocateResult {
  const named = p.allocId !== undefined || p.reqId !== undefined ? lookup(state, p.allocId, p.reqId, req.requester.nspace) : undefined;
  let picked: { alloc: AllocationRec; node: string }[] = [];
  // Scheduler nodes an unreserve left in the default session go back to the
  // scheduler "when the session ends or they are explicitly released": the
  // scheduler may release them by name (IP-RELEASE-UNRESERVED).
  const unreserved: string[] = [];
  if (p.nodeList !== undefined) {
    const names = p.nodeList.split(',').map((x) => x.trim()).filter((x) => x.length > 0);
    if (names.length === 0 || new Set(names).size !== names.length) throw new Rejection(Status.PMIX_ERR_BAD_PARAM, `PMIX_ALLOC_NODE_LIST "${p.nodeList}" names no node, or a node twice`);
    for (const name of names) {
      const node = state.nodes.get(name);
      const alloc = node?.inDvm && node.allocId !== null ? state.allocations.get(node.allocId) : undefined;
      if (!alloc && !named && node?.inDvm && node.origin === 'scheduler' && node.allocId === null && req.requester.nspace === state.schedulerNspace) {
        unreserved.push(name);
        continue;
      }
      if (!alloc) throw new Rejection(Status.PMIX_ERR_NOT_FOUND, `node "${name}" belongs to no allocation`);
      if (named && alloc !== named) throw new Rejection(Status.PMIX_ERR_BAD_PARAM, `node "${name}" is not part of ${named.allocId}`);
      picked.push({ alloc, node: name });
    }
  } else {
    if (!named) throw new Rejection(Status.PMIX_ERR_BAD_PARAM, 'a release by count must name the allocation');
    const mine = new Set(state.jobs.get(req.requester.nspace)?.procs.filter((x) => x.running && x.rank === req.requester.rank).map((x) => x.node) ?? []);
    const eligible = [...named.nodes].filter((n) => !mine.has(n));
    if (eligible.length < p.numNodes!) throw new Rejection(Status.PMIX_ERR_BAD_PARAM, `${named.allocId} has ${eligible.length} nodes that may be released, ${p.numNodes} asked`);
    picked = eligible.slice(eligible.length - p.numNodes!).map((node) => ({ alloc: named, node }));
  }
  for (const { alloc } of picked) {
    if (!mayUse(state, alloc, req.requester.nspace)) throw new Rejection(Status.PMIX_ERR_NO_PERMISSIONS, `${req.requester.nspace} does not own ${alloc.allocId}`);
  }
  // The event names the allocation the request named, else the one the nodes came from (IP-ELASTIC-SHRINK-ALLOC-ID).
  const allocId = named?.allocId ?? picked[0]?.alloc.allocId;
  withShrink(state, { requester: req.requester, allocId, reqId: p.reqId, creationReqId: (named ?? picked[0]?.alloc)?.reqId }, () => {
    for (const { alloc, node } of picked) returnNode(state, alloc, node);
    for (const node of unreserved) departNode(state, node);
  });
  // Phase one names the allocation the completion event will name (IP-ELASTIC-RELEASE-RESPONSE-ID).
  const info: Info[] = allocId !== undefined ? [{ key: Key.PMIX_ALLOC_ID, value: allocId }] : [];
  return { status: Status.PMIX_SUCCESS, info };
}

/** Resolve an existing allocation by PMIX_ALLOC_ID first, then by the requester's own PMIX_ALLOC_REQ_ID. */
export function lookup(state: State, allocId: string | undefined, reqId: string | undefined, requester: string): AllocationRec {
  if (allocId === undefined && reqId === undefined) {
    throw new Rejection(Status.PMIX_ERR_BAD_PARAM, 'neither PMIX_ALLOC_ID nor PMIX_ALLOC_REQ_ID names the allocation');
  }
  const byAlloc = allocId !== undefined ? state.allocations.get(allocId) : undefined;
  if (byAlloc) return byAlloc;
  const viaReq = reqId !== undefined ? state.byReqId.get(reqKey(requester, reqId)) : undefined;
  const byReq = viaReq !== undefined ? state.allocations.get(viaReq) : undefined;
  if (byReq) return byReq;
  throw new Rejection(Status.PMIX_ERR_NOT_FOUND, `no allocation ${allocId ?? ''}${reqId !== undefined ? ` / request ${reqId}` : ''}`);
}

export function response(state: State, alloc: AllocationRec, reqId: string | undefined): Info[] {
  const info: Info[] = [{ key: Key.PMIX_ALLOC_ID, value: alloc.allocId }];
  if (reqId !== undefined) info.push({ key: Key.PMIX_ALLOC_REQ_ID, value: reqId });
  if (alloc.reserved && state.variant.sessionIdInResponse !== false) info.push({ key: Key.PMIX_SESSION_ID, value: alloc.sessionId });
  return info;
}

function nextSessionId(state: State): number {
  do state.counters.session += state.variant.sessionIdStride ?? 1;
  while (state.bySessionId.has(state.counters.session));
  return state.counters.session;
}

/** Place granted nodes: always into the DVM; into the reservation when reserved, else the default session. */
export function commitGrant(state: State, alloc: AllocationRec, grant: Grant, ctx: SizeChangeContext = {}): void {
  for (const name of grant.fromScheduler) {
    const node = state.nodes.get(name)!;
    state.schedulerFree.delete(name);
    node.inDvm = true;
    node.allocId = alloc.allocId;
    alloc.nodes.add(name);
    if (!alloc.reserved) state.defaultPool.add(name);
  }
  for (const name of grant.carved) {
    const node = state.nodes.get(name)!;
    node.allocId = alloc.allocId;
    alloc.nodes.add(name);
    if (alloc.reserved) state.defaultPool.delete(name);
  }
  // Scheduler nodes join the DVM through a grow campaign in elastic mode (carved ones already have daemons).
  startGrow(state, grant.fromScheduler, { allocId: alloc.allocId, creationReqId: alloc.reqId, ...ctx });
}

/** A namespace that can own a reservation now: a job not yet ended, a connected tool, or the scheduler. */
function liveNamespace(state: State, nspace: string): boolean {
  if (nspace === state.schedulerNspace) return true;
  const job = state.jobs.get(nspace);
  if (job) return job.stage !== 'done';
  return state.tools.get(nspace)?.connected === true;
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
