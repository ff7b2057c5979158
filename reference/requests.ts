/**
 * The bookkeeping of requests by their PMIX_ALLOC_REQ_ID (for status queries
 * and cancels): what became of each, per requester (IP-REQ-ID-SCOPE). Below
 * both allocation.ts and directives.ts, so neither imports the other's way.
 */
import type { AllocateRequest, ProcId } from '../seam/messages';
import { reqKey, type RequestRec, type State } from './state';

export function recordRequest(state: State, requester: ProcId, reqId: string | undefined, allocId: string): void {
  if (reqId !== undefined) setRequest(state, requester.nspace, reqId, { requester: { ...requester }, state: 'granted', allocId });
}

export function enqueue(state: State, req: AllocateRequest, reqId: string | undefined): void {
  state.queue.push({ req: { ...req, info: req.info.map((i) => ({ ...i })) }, reqId });
  if (reqId !== undefined) setRequest(state, req.requester.nspace, reqId, { requester: { ...req.requester }, state: 'pending' });
}

export function cancelled(state: State, q: { req: AllocateRequest; reqId?: string }): void {
  setRequest(state, q.req.requester.nspace, q.reqId!, { requester: q.req.requester, state: 'cancelled' });
}

export function setRequest(state: State, nspace: string, reqId: string, rec: RequestRec): void {
  const key = reqKey(nspace, reqId);
  state.requests.set(key, rec);
  state.latestRequest.set(reqId, key);
}
