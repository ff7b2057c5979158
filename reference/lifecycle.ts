/**
 * How a reservation ends: the unconditional triggers (release, scheduler
 * reclaim, DVM teardown) and the namespace-termination disposition recorded
 * at its creation. "Returned to the scheduler" and "unreserved" share a
 * prefix (the nodes leave the reservation) and differ in the tail: only a
 * return sends scheduler-granted nodes out of the DVM, and only nodes that
 * leave the DVM take processes down with them.
 */
import { Inheritance, Key, Status } from '../seam/pmix';
import type { Ack, Info } from '../seam/messages';
import { departNode, drainAtTeardown, withShrink, withdraw } from './elastic';
import { classify, countDescendant, emit, unindexAllocation, type AllocationRec, type JobRec, type ProcRec, type State } from './state';

const CHILD_FLAVOURED: readonly number[] = [Inheritance.PMIX_ALLOC_INHERIT_CHILD, Inheritance.PMIX_ALLOC_INHERIT_CHILD_DEFAULT];
const RETURNS: readonly number[] = [Inheritance.PMIX_ALLOC_INHERIT_NONE, Inheritance.PMIX_ALLOC_INHERIT_CHILD];

/** Every process of the job exits normally (a job not yet launched is withdrawn). */
export function terminateJob(state: State, nspace: string): Ack {
  const job = state.jobs.get(nspace);
  if (!job || job.stage === 'done') return { status: Status.PMIX_ERR_NOT_FOUND };
  if (job.stage !== 'running') withdraw(state, job);
  for (const p of job.procs) if (p.running) stopProc(state, job, p);
  finishJob(state, job, 'TERMINATED');
  return { status: Status.PMIX_SUCCESS };
}

/** A tool finalizes: reservations it owns see their owning namespace terminate. */
export function disconnectTool(state: State, nspace: string): Ack {
  const tool = state.tools.get(nspace);
  if (!tool || !tool.connected) return { status: Status.PMIX_ERR_NOT_FOUND };
  tool.connected = false;
  ownerEnded(state, nspace);
  return { status: Status.PMIX_SUCCESS };
}

/** One process ends: constant work (a job's termination is linear in its size). */
function stopProc(state: State, job: JobRec, proc: ProcRec): void {
  proc.running = false;
  const node = state.nodes.get(proc.node)!;
  if (!proc.tool) node.slotsInUse -= 1;
  const ranks = node.procs.get(job.nspace);
  ranks?.delete(proc.rank);
  if (ranks && ranks.size === 0) node.procs.delete(job.nspace);
}

/** A job's process by rank: processes are created in rank order, so the rank is the index. */
const procOf = (job: JobRec, rank: number): ProcRec => (job.procs[rank]?.rank === rank ? job.procs[rank] : job.procs.find((p) => p.rank === rank)!);

export function finishJob(state: State, job: JobRec, end: 'TERMINATED' | 'KILLED' | 'NEVER_LAUNCHED' | 'FAILED_TO_MAP'): void {
  job.state = end;
  job.stage = 'done';
  countDescendant(state, job, -1);
  ownerEnded(state, job.nspace);
  // CHILD-flavoured reservations whose derived children include this job:
  // those owned by an ancestor, and those an ancestor was spawned into.
  for (let a: string | undefined = job.nspace; a !== undefined; a = state.jobs.get(a)?.parent) {
    for (const id of [...(state.drainingByOwner.get(a) ?? [])]) drainCheck(state, id);
    const anc = state.jobs.get(a);
    if (!anc) break;
    for (const t of anc.targets) if (t !== '') drainCheck(state, t);
  }
}

/** NONE and DEFAULT fire at the owning namespace's termination; CHILD flavours start draining. */
function ownerEnded(state: State, nspace: string): void {
  for (const id of [...(state.byOwner.get(nspace) ?? [])]) {
    const alloc = state.allocations.get(id);
    if (!alloc) continue;
    if (CHILD_FLAVOURED.includes(alloc.inheritance)) drainCheck(state, id);
    else dispose(state, alloc);
  }
}

function ownerGone(state: State, owner: string): boolean {
  const job = state.jobs.get(owner);
  if (job) return job.stage === 'done';
  const tool = state.tools.get(owner);
  if (tool) return !tool.connected;
  return false; // a namespace the DVM has never run cannot terminate
}

/**
 * CHILD and CHILD_DEFAULT fire once the owning namespace and every derived
 * child have ended. Derived children (IP-DERIVED-CHILDREN) are the owner's
 * spawn descendants at any depth, plus every job spawned into the
 * reservation and its descendants, whoever spawned it.
 */
function drainCheck(state: State, allocId: string): void {
  const alloc = state.allocations.get(allocId);
  if (!alloc || !CHILD_FLAVOURED.includes(alloc.inheritance) || !ownerGone(state, alloc.owner)) return;
  if (liveDerived(state, alloc) === 0) dispose(state, alloc);
}

function liveDerived(state: State, alloc: AllocationRec): number {
  const owner = state.jobs.get(alloc.owner) ?? state.tools.get(alloc.owner);
  let live = owner ? owner.liveDescendants : 0;
  for (const root of alloc.spawnedInto) {
    // Count a spawned-into subtree once: skip it when an ancestor is the
    // owner or another spawned-into job (its subtree is counted already).
    if (hasAncestorIn(state, root, alloc)) continue;
    const j = state.jobs.get(root)!;
    live += (j.stage !== 'done' ? 1 : 0) + j.liveDescendants;
  }
  return live;
}

function hasAncestorIn(state: State, nspace: string, alloc: AllocationRec): boolean {
  for (let a = state.jobs.get(nspace)?.parent; a !== undefined; a = state.jobs.get(a)?.parent) {
    if (a === alloc.owner || alloc.spawnedInto.has(a)) return true;
  }
  return false;
}

function dispose(state: State, alloc: AllocationRec): void {
  if (RETURNS.includes(alloc.inheritance)) returnToScheduler(state, alloc);
  else unreserve(state, alloc);
}

function forget(state: State, alloc: AllocationRec): void {
  state.allocations.delete(alloc.allocId);
  state.ended.add(alloc.allocId);
  state.bySessionId.delete(alloc.sessionId);
  if (alloc.reqKey !== undefined && state.byReqId.get(alloc.reqKey) === alloc.allocId) state.byReqId.delete(alloc.reqKey);
  unindexAllocation(state, alloc);
  for (const name of alloc.nodes) state.nodes.get(name)!.allocId = null;
}

/** Unreserve: the allocation goes away, every node stays in the DVM, in the default session. */
export function unreserve(state: State, alloc: AllocationRec): void {
  forget(state, alloc);
  for (const name of alloc.nodes) state.defaultPool.add(name);
}

/**
 * Return to the scheduler (the path of an explicit PMIX_ALLOC_RELEASE):
 * startup-pool nodes revert to the default session; scheduler-granted nodes
 * leave the DVM, and the processes on them are terminated first.
 */
export function returnToScheduler(state: State, alloc: AllocationRec): void {
  // One shrink for the whole return (elastic mode), joined to the release's when a release drives it.
  withShrink(state, { allocId: alloc.allocId, creationReqId: alloc.reqId }, () => {
    forget(state, alloc);
    for (const name of alloc.nodes) giveBack(state, name);
  });
}

/** A partial release: one node leaves its allocation and goes back, the allocation lives on. */
export function returnNode(state: State, alloc: AllocationRec, name: string): void {
  alloc.nodes.delete(name);
  state.nodes.get(name)!.allocId = null;
  giveBack(state, name);
}

function giveBack(state: State, name: string): void {
  const node = state.nodes.get(name)!;
  if (node.origin === 'startup') {
    state.defaultPool.add(name);
    return;
  }
  departNode(state, name);
}

export function killProcsOn(state: State, name: string): void {
  const node = state.nodes.get(name)!;
  for (const [nspace, ranks] of [...node.procs]) {
    const job = state.jobs.get(nspace)!;
    for (const r of [...ranks]) stopProc(state, job, procOf(job, r));
    if (job.state === 'RUNNING' && job.procs.every((p) => !p.running)) finishJob(state, job, 'KILLED');
  }
}

export function reclaim(state: State, allocId: string): Ack {
  const alloc = state.allocations.get(allocId);
  if (!alloc) return { status: Status.PMIX_ERR_NOT_FOUND };
  // Who asked for a reclaim's shrink is a reading (variant reclaimRequester): nobody, or the scheduler itself.
  const requester = state.variant.reclaimRequester === 'scheduler' ? { nspace: state.schedulerNspace, rank: 0 } : undefined;
  withShrink(state, { requester, allocId: alloc.allocId, creationReqId: alloc.reqId }, () => returnToScheduler(state, alloc));
  return { status: Status.PMIX_SUCCESS };
}

/** All sessions, default and reserved, end with the DVM. */
export function teardown(state: State): Ack {
  drainAtTeardown(state);
  for (const job of state.jobs.values()) {
    if (job.stage === 'done') continue;
    if (job.stage !== 'running') withdraw(state, job);
    for (const p of job.procs) if (p.running) stopProc(state, job, p);
    job.state = job.stage === 'running' ? 'KILLED' : 'NEVER_LAUNCHED';
    job.stage = 'done';
  }
  for (const alloc of [...state.allocations.values()]) forget(state, alloc);
  for (const node of state.nodes.values()) node.inDvm = false;
  state.defaultPool.clear();
  state.tornDown = true;
  return { status: Status.PMIX_SUCCESS };
}

/**
 * The scheduler's PMIX_ALLOC_TIMEOUT_WARNING, relayed only to the process
 * that (most recently) requested the allocation. It changes nothing else.
 */
export function timeoutWarning(state: State, allocId: string, timeRemaining: number | undefined): Ack {
  const alloc = state.allocations.get(allocId);
  // Nowhere to direct it (unknown allocation, requester gone) or no such event in this PMIx: dropped.
  if (!alloc || !state.supports('PMIX_ALLOC_WARN_TIMEOUT') || !classify(state, alloc.requester)) return { status: Status.PMIX_SUCCESS };
  const info: Info[] = [{ key: Key.PMIX_ALLOC_ID, value: alloc.allocId }];
  // Which request id the warning carries is a reading (variant warningRequestId).
  const reqId = state.variant.warningRequestId === 'latest' ? alloc.latestReqId : alloc.reqId;
  if (reqId !== undefined) info.push({ key: Key.PMIX_ALLOC_REQ_ID, value: reqId });
  if (timeRemaining !== undefined) info.push({ key: Key.PMIX_TIME_REMAINING, value: timeRemaining });
  emit(state, Status.PMIX_ALLOC_TIMEOUT_WARNING, alloc.requester, info);
  return { status: Status.PMIX_SUCCESS };
}
