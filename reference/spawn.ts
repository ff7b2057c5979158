/**
 * PMIx_Spawn: which sessions a job may map onto (PMIX_SPAWN_TARGET and the
 * older single-session attributes), the ownership check, mapping onto
 * exactly the union of those sessions, and the owner-set growth a
 * successful spawn causes.
 */
import { MAX_PROCS_PER_APP, type AppSpec, type SpawnRequest, type SpawnResult } from '../seam/messages';
import { Key, PMIX_NSPACE_INVALID, Status } from '../seam/pmix';
import * as attr from './attributes';
import { Rejection } from './attributes';
import { reachMap } from './elastic';
import { holdsNoSlot, map, type Placement } from './mapping';
import { classify, countDescendant, fence, mayUse, mintNspace, reqKey, type JobRec, type ProcRec, type RequesterClass, type State } from './state';

export function spawn(state: State, req: SpawnRequest): SpawnResult {
  try {
    const who = classify(state, req.requester);
    if (!who) throw new Rejection(Status.PMIX_ERR_UNREACH, `requester ${req.requester.nspace}:${req.requester.rank} is not a live process`);
    validateApps(req.apps);
    const targets = resolveTargets(state, req, who);
    // The common case: nothing held, no size change in progress. Map now, so
    // a spawn that cannot be mapped is refused with no partial effect.
    if (req.hold === undefined && fence(state) === 0) {
      const placement = map(state, req.apps, targets, true)!;
      const nspace = commit(state, req, targets, placement);
      return { status: Status.PMIX_SUCCESS, nspace, info: [] };
    }
    // Accepted; it proceeds through the two boundaries as the DVM allows.
    const nspace = commit(state, req, targets, undefined);
    const job = state.jobs.get(nspace)!;
    if (req.hold === 'map') job.state = 'PENDING';
    else reachMap(state, job, req.hold === 'launch');
    return { status: req.hold ? Status.PMIX_OPERATION_IN_PROGRESS : Status.PMIX_SUCCESS, nspace, info: [] };
  } catch (e) {
    if (e instanceof Rejection) return { status: e.status, info: [] };
    throw e;
  }
}

function validateApps(apps: AppSpec[]): void {
  if (apps.length === 0) throw new Rejection(Status.PMIX_ERR_BAD_PARAM, 'a spawn needs at least one app');
  for (const app of apps) {
    if (!Number.isInteger(app.np) || app.np < 1 || app.np > MAX_PROCS_PER_APP) {
      throw new Rejection(Status.PMIX_ERR_BAD_PARAM, `app "${app.cmd}" asks for ${app.np} processes`);
    }
  }
}

/**
 * The job's target set, in the order of 002's session-assignment priority:
 * PMIX_SPAWN_TARGET; else PMIX_SESSION_ID; else PMIX_ALLOC_ID; else
 * PMIX_ALLOC_REQ_ID; else the parent's session for an application, the
 * default session for a tool.
 * Every explicitly named session passes the ownership check or the whole
 * spawn is refused; it is never narrowed to the permitted subset.
 */
export function resolveTargets(state: State, req: SpawnRequest, who: RequesterClass): string[] {
  const info = attr.recognised(state, req.info);
  const listed = attr.strOrStrArray(info, Key.PMIX_SPAWN_TARGET);
  if (listed) return checkEach(state, req.requester.nspace, listed);

  const sessionId = attr.uint(info, Key.PMIX_SESSION_ID, attr.LIMITS.UINT32);
  if (sessionId !== undefined) {
    const allocId = state.bySessionId.get(sessionId);
    if (allocId === undefined) throw new Rejection(Status.PMIX_ERR_NOT_FOUND, `no session ${sessionId}`);
    return checkEach(state, req.requester.nspace, [allocId]);
  }
  const allocId = attr.str(info, Key.PMIX_ALLOC_ID);
  if (allocId !== undefined) return checkEach(state, req.requester.nspace, [allocId]);
  const reqId = attr.str(info, Key.PMIX_ALLOC_REQ_ID);
  if (reqId !== undefined) {
    const viaReq = state.byReqId.get(reqKey(req.requester.nspace, reqId));
    if (viaReq === undefined) throw new Rejection(Status.PMIX_ERR_NOT_FOUND, `no allocation with request id ${reqId}`);
    return checkEach(state, req.requester.nspace, [viaReq]);
  }
  if (who === 'application') {
    const parent = state.jobs.get(req.requester.nspace)!;
    // The parent's session, while it still exists; once it has ended the
    // parent itself only sees the default pool for new work.
    if (parent.primary !== '' && state.allocations.has(parent.primary)) return [parent.primary];
  }
  return [PMIX_NSPACE_INVALID];
}

function checkEach(state: State, requester: string, entries: string[]): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    if (entry !== PMIX_NSPACE_INVALID) {
      const alloc = state.allocations.get(entry);
      if (!alloc) throw new Rejection(Status.PMIX_ERR_NOT_FOUND, `PMIX_SPAWN_TARGET entry "${entry}" resolves to no session`);
      // A shared allocation's destination is the default session, which everyone may use.
      if (alloc.reserved && !mayUse(state, alloc, requester)) {
        throw new Rejection(Status.PMIX_ERR_NO_PERMISSIONS, `${requester} does not own ${entry}`);
      }
    }
    const session = sessionOf(state, entry);
    if (!out.includes(session)) out.push(session);
  }
  return out;
}

/** The session an entry denotes: a reservation's own id, or '' for the default session. */
function sessionOf(state: State, entry: string): string {
  if (entry === PMIX_NSPACE_INVALID) return PMIX_NSPACE_INVALID;
  return state.allocations.get(entry)!.reserved ? entry : PMIX_NSPACE_INVALID;
}

/** Create the job; with a placement it is mapped and launched at once, without one it is still to be mapped. */
function commit(state: State, req: SpawnRequest, targets: string[], placement: Placement | undefined): string {
  state.counters.job += 1;
  const nspace = mintNspace(state, 'job', state.counters.job);
  const apps = req.apps.map((a) => ({ ...a }));
  const procs: ProcRec[] = (placement ?? []).map((p) => ({ rank: p.rank, node: p.node, running: true, tool: holdsNoSlot(state, apps[p.app]) }));
  const job: JobRec = {
    nspace,
    parent: req.requester.nspace,
    // The primary session is the first valid targeted session (a variant: the
    // last); the default session only when nothing else was targeted.
    primary: primaryOf(state, targets),
    targets,
    procs,
    state: 'RUNNING',
    liveDescendants: 0,
    apps,
    stage: placement ? 'running' : 'held-map',
    parkedFor: new Set(),
  };
  state.jobs.set(nspace, job);
  for (const p of procs) {
    const node = state.nodes.get(p.node)!;
    if (!p.tool) node.slotsInUse += 1;
    const ranks = node.procs.get(nspace);
    if (ranks) ranks.add(p.rank);
    else node.procs.set(nspace, new Set([p.rank]));
  }
  // Spawned into a reservation => an owner of it, and of nothing else.
  for (const t of targets) {
    if (t === PMIX_NSPACE_INVALID) continue;
    const alloc = state.allocations.get(t)!;
    alloc.owners.add(nspace);
    alloc.spawnedInto.add(nspace);
  }
  countDescendant(state, job, 1);
  return nspace;
}

function primaryOf(state: State, targets: string[]): string {
  const sessions = targets.filter((t) => t !== PMIX_NSPACE_INVALID);
  if (sessions.length === 0) return PMIX_NSPACE_INVALID;
  return state.variant.primaryTarget === 'last' ? sessions[sessions.length - 1] : sessions[0];
}
