/**
 * The elastic DVM: grow and shrink campaigns, the launch fence, the two hold
 * points (the map-eligible boundary and the launch boundary), and the
 * two-phase completion events. Inert unless the DVM runs in elastic mode:
 * then no campaign is ever opened, the fence stays at zero and nothing parks.
 *
 * Decisions where the documents leave room are the interpretation points
 * IP-ELASTIC-* of features/INTERPRETATIONS.md; the comments name them.
 */
import type { Ack, AdvanceJobRequest, DaemonEvent, ElasticView, Info, ProcId } from '../seam/messages';
import { Key, Status } from '../seam/pmix';
import { holdsNoSlot, map } from './mapping';
import { classify, emit, fence, shrinkInProgress, usable, type CampaignRec, type JobRec, type State } from './state';

/** The resource components every completed shrink is offered to, in order, before its completion event. */
const RESOURCE_COMPONENTS = ['ras-base', 'ras-scheduler'];

export interface SizeChangeContext {
  requester?: ProcId;
  allocId?: string;
  reqId?: string;
  /** The request id of the request that created the allocation (a variant's completion events carry it). */
  creationReqId?: string;
}

// ---------------------------------------------------------------- grow

/** New nodes join the DVM: at once outside elastic mode, through a grow campaign inside it. */
export function startGrow(state: State, nodes: string[], ctx: SizeChangeContext): void {
  for (const name of nodes) {
    state.nodes.get(name)!.daemon = { state: state.config.elastic ? 'starting' : 'wired' };
  }
  // A campaign only when there are new daemons (none, no event: IP-ELASTIC-NO-CHANGE-NO-EVENT).
  if (!state.config.elastic || nodes.length === 0) return;
  const id = ++state.elastic.nextCampaign;
  state.elastic.campaigns.set(id, { id, kind: 'grow', targets: [...nodes], pending: new Set(nodes), ...ctx });
}

function completeGrow(state: State, camp: CampaignRec): void {
  state.elastic.campaigns.delete(camp.id);
  for (const name of camp.targets) {
    const d = state.nodes.get(name)?.daemon;
    if (d && (d.state === 'starting' || d.state === 'reported')) d.state = 'wired';
  }
  notify(state, camp, Status.PMIX_SUCCESS);
}

/**
 * A grow target failed before its campaign completed: the campaign fails as a
 * whole and is rolled back to exactly the pre-grow membership; the jobs parked
 * on account of it never launch (IP-ELASTIC-GROW-FAILURE-SCOPE).
 */
function failGrow(state: State, camp: CampaignRec, cause: number): void {
  state.elastic.campaigns.delete(camp.id);
  for (const name of camp.targets) {
    const node = state.nodes.get(name)!;
    if (!node.inDvm) continue;
    if (node.allocId !== null) {
      state.allocations.get(node.allocId)?.nodes.delete(name);
      node.allocId = null;
    }
    leaveDvm(state, name);
  }
  for (const ns of [...state.elastic.parkedAtMap]) {
    const job = state.jobs.get(ns)!;
    // Which parked jobs a failed grow aborts is a reading (variant growFailureAborts).
    if (!job.parkedFor.has(camp.id) && state.variant.growFailureAborts !== 'all-parked-at-map') continue;
    state.elastic.parkedAtMap = state.elastic.parkedAtMap.filter((x) => x !== ns);
    state.lifecycle.finishJob(state, job, 'NEVER_LAUNCHED');
  }
  notify(state, camp, Status.PMIX_ERR_DVM_MOD, cause);
}

// ---------------------------------------------------------------- shrink

/**
 * Run `fn` (which returns nodes to the scheduler) collecting every daemon it
 * removes into one shrink campaign: one campaign per release, none when the
 * release removes no daemon. Nested calls join the outermost collection.
 */
export function withShrink(state: State, ctx: SizeChangeContext, fn: () => void): void {
  const outer = state.elastic.collecting;
  if (!outer) state.elastic.collecting = { targets: [], ...ctx };
  try {
    fn();
  } finally {
    if (!outer) {
      const c = state.elastic.collecting!;
      state.elastic.collecting = undefined;
      if (c.targets.length > 0) openShrink(state, c);
    }
  }
}

/**
 * A scheduler node going back to the scheduler. Outside elastic mode it
 * leaves at once; in elastic mode its daemon becomes a shrink target and the
 * node leaves only when the daemon has actually departed.
 */
export function departNode(state: State, name: string): void {
  const node = state.nodes.get(name)!;
  state.defaultPool.delete(name);
  if (!state.config.elastic || !node.daemon || !state.elastic.collecting) {
    leaveDvm(state, name);
    return;
  }
  // A daemon already departing is some shrink's target: released again (the
  // scheduler may release a DVM node by name, IP-RELEASE-UNRESERVED), it
  // removes no further daemon, so it starts no size change of its own
  // (ED.deliver.no-event-no-change).
  if (node.daemon.state === 'departing') return;
  if (node.daemon.state !== 'wired') dropGrowTarget(state, name);
  node.daemon.state = 'departing';
  state.elastic.collecting.targets.push(name);
}

/**
 * A node released while its grow is still pending stops being that grow's
 * target (IP-ELASTIC-RELEASE-DURING-GROW). A grow left with no target at all
 * realised nothing it was asked for: that is a failure ("any other condition
 * leaves the requested change unrealized"), though nothing is rolled back and
 * no job it parked is aborted, since no daemon failed (IP-ELASTIC-GROW-ALL-RELEASED).
 */
function dropGrowTarget(state: State, name: string): void {
  for (const camp of state.elastic.campaigns.values()) {
    if (camp.kind !== 'grow' || !camp.targets.includes(name)) continue;
    camp.targets = camp.targets.filter((t) => t !== name);
    camp.pending.delete(name);
    if (camp.targets.length === 0) {
      state.elastic.campaigns.delete(camp.id);
      notify(state, camp, Status.PMIX_ERR_DVM_MOD, GROW_RELEASED_CAUSE);
    }
    return;
  }
}

/** The cause a grow whose every target was released reports: its nodes are no longer there to add. */
const GROW_RELEASED_CAUSE = Status.PMIX_ERR_NOT_FOUND;

function openShrink(state: State, c: NonNullable<State['elastic']['collecting']>): void {
  const cause = state.elastic.failNextShrinkOrder;
  const ctx: SizeChangeContext = { requester: c.requester, allocId: c.allocId, reqId: c.reqId, creationReqId: c.creationReqId };
  if (cause !== undefined) {
    // The shrink order could not be sent: no campaign, the daemons stay, the
    // nodes stay in the DVM's default session (a stable state), and the
    // requester learns why.
    state.elastic.failNextShrinkOrder = undefined;
    for (const name of c.targets) {
      state.nodes.get(name)!.daemon!.state = 'wired';
      state.defaultPool.add(name);
    }
    notify(state, { id: 0, kind: 'shrink', targets: c.targets, pending: new Set(), ...ctx }, Status.PMIX_ERR_DVM_MOD, cause);
    return;
  }
  const id = ++state.elastic.nextCampaign;
  state.elastic.campaigns.set(id, { id, kind: 'shrink', targets: [...c.targets], pending: new Set(c.targets), ...ctx });
}

/**
 * A shrink target has actually departed: counted once, however many times it
 * is reported, and for every shrink that awaits it (a campaign is complete
 * when each of its targets has departed).
 */
function departed(state: State, name: string): void {
  leaveDvm(state, name);
  for (const camp of [...state.elastic.campaigns.values()]) {
    if (camp.kind !== 'shrink' || !camp.pending.has(name)) continue;
    camp.pending.delete(name);
    if (camp.pending.size === 0) completeShrink(state, camp);
  }
}

function completeShrink(state: State, camp: CampaignRec): void {
  state.elastic.campaigns.delete(camp.id);
  // Every resource component is offered the completed shrink before the event.
  for (const component of RESOURCE_COMPONENTS) {
    state.elastic.shrinkOffers.push({ campaign: camp.id, component, eventsBefore: state.events.length });
  }
  notify(state, camp, Status.PMIX_SUCCESS);
}

/** The node leaves the DVM: processes still running there end, its daemon is gone. */
function leaveDvm(state: State, name: string): void {
  const node = state.nodes.get(name)!;
  state.lifecycle.killProcsOn(state, name);
  state.defaultPool.delete(name);
  node.inDvm = false;
  node.daemon = null;
  if (node.origin === 'scheduler') state.schedulerFree.add(name);
}

// ---------------------------------------------------------------- daemons

export function daemonEvent(state: State, ev: DaemonEvent): Ack {
  if (ev.event === 'wireup') {
    // The head node wires every reported daemon; a grow completes once all of its daemons are wired.
    for (const camp of [...state.elastic.campaigns.values()]) {
      if (camp.kind === 'grow' && camp.pending.size === 0) completeGrow(state, camp);
    }
    settle(state);
    return { status: Status.PMIX_SUCCESS };
  }
  const node = ev.node !== undefined ? state.nodes.get(ev.node) : undefined;
  if (!node) return { status: Status.PMIX_ERR_NOT_FOUND };
  const d = node.daemon;
  // A failed start sent before the node's daemon was launched keeps its next
  // daemon from starting: that daemon never reports in, and its grow fails
  // when it would have (a live harness can only arrange a failed start ahead).
  if (ev.event === 'fail-to-start' && !node.inDvm && !d) {
    state.elastic.keptFromStarting.set(node.name, ev.cause ?? Status.PMIX_ERR_UNREACH);
    return { status: Status.PMIX_SUCCESS };
  }
  if (ev.event === 'report' && d?.state === 'starting' && state.elastic.keptFromStarting.has(node.name)) {
    const cause = state.elastic.keptFromStarting.get(node.name)!;
    state.elastic.keptFromStarting.delete(node.name);
    return daemonEvent(state, { event: 'fail-to-start', node: node.name, cause });
  }
  if (ev.event === 'report') {
    // A late report from a daemon whose grow was rolled back, or a repeat, changes nothing.
    if (d?.state === 'starting') {
      d.state = 'reported';
      for (const camp of state.elastic.campaigns.values()) if (camp.kind === 'grow') camp.pending.delete(node.name);
    }
    return { status: Status.PMIX_SUCCESS };
  }
  // exit, crash or fail-to-start: the daemon is gone. Already gone: counted once.
  if (!node.inDvm || !d) return { status: Status.PMIX_SUCCESS };
  if (d.state === 'departing') departed(state, node.name);
  else if (d.state === 'starting' || d.state === 'reported') {
    const camp = [...state.elastic.campaigns.values()].find((c) => c.kind === 'grow' && c.targets.includes(node.name));
    if (camp) failGrow(state, camp, ev.cause ?? Status.PMIX_ERR_UNREACH);
    else leaveDvm(state, node.name);
  } else {
    // A daemon that belongs to no campaign: the node is lost and its processes
    // end; no campaign is completed, failed or released by it.
    if (node.allocId !== null) {
      state.allocations.get(node.allocId)?.nodes.delete(node.name);
      node.allocId = null;
    }
    leaveDvm(state, node.name);
  }
  settle(state);
  return { status: Status.PMIX_SUCCESS };
}

// ---------------------------------------------------------------- jobs at the two boundaries

/** The job reaches the map-eligible boundary (VM_READY -> MAP). */
export function reachMap(state: State, job: JobRec, holdBeforeLaunch: boolean): void {
  if (fence(state) > 0) {
    job.stage = 'parked-map';
    job.state = 'WAITING_FOR_DAEMONS';
    job.parkedFor = new Set([...state.elastic.campaigns.values()].filter((c) => c.kind === 'grow').map((c) => c.id));
    job.holdBeforeLaunch = holdBeforeLaunch;
    state.elastic.parkedAtMap.push(job.nspace);
    return;
  }
  if (!place(state, job)) return;
  if (holdBeforeLaunch) {
    job.stage = 'held-launch';
    job.state = 'PENDING';
    return;
  }
  reachLaunch(state, job);
}

/** The job reaches the launch boundary (LAUNCH_APPS): parked if and only if a shrink is in progress. */
export function reachLaunch(state: State, job: JobRec): void {
  if (shrinkInProgress(state)) {
    job.stage = 'parked-launch';
    job.state = 'WAITING_FOR_DAEMONS';
    state.elastic.parkedAtLaunch.push(job.nspace);
    return;
  }
  // Launch data never goes to a node that has left since the job was mapped: remap first.
  if (stale(state, job)) {
    unplace(state, job);
    if (!place(state, job)) return;
  }
  launch(state, job);
}

const stale = (state: State, job: JobRec) => job.procs.some((p) => !usable(state.nodes.get(p.node)!));

export function advanceJob(state: State, req: AdvanceJobRequest): Ack {
  const job = state.jobs.get(req.nspace);
  if (!job) return { status: Status.PMIX_ERR_NOT_FOUND };
  if (job.stage === 'held-map') reachMap(state, job, req.to === 'map' && req.holdBeforeLaunch === true);
  else if (job.stage === 'held-launch' && req.to === 'launch') reachLaunch(state, job);
  else return { status: Status.PMIX_ERR_BAD_PARAM };
  return { status: Status.PMIX_SUCCESS };
}

/** Map onto usable nodes of the job's sessions, claiming slots; a job with no room fails to map. */
function place(state: State, job: JobRec): boolean {
  const placement = map(state, job.apps, job.targets, false);
  if (!placement) {
    state.lifecycle.finishJob(state, job, 'FAILED_TO_MAP');
    return false;
  }
  job.procs = placement.map((p) => ({ rank: p.rank, node: p.node, running: false, tool: holdsNoSlot(state, job.apps[p.app]) }));
  for (const p of job.procs) if (!p.tool) state.nodes.get(p.node)!.slotsInUse += 1;
  job.stage = 'mapped';
  return true;
}

/** Give back a mapping that was never launched (slot accounting restored; tool processes held none). */
function unplace(state: State, job: JobRec): void {
  for (const p of job.procs) if (!p.tool && !p.running) state.nodes.get(p.node)!.slotsInUse -= 1;
  job.procs = [];
}

function launch(state: State, job: JobRec): void {
  for (const p of job.procs) {
    p.running = true;
    const node = state.nodes.get(p.node)!;
    const ranks = node.procs.get(job.nspace);
    if (ranks) ranks.add(p.rank);
    else node.procs.set(job.nspace, new Set([p.rank]));
  }
  job.stage = 'running';
  job.state = 'RUNNING';
}

/** Withdraw a job that never launched from wherever it waits (it is being terminated). */
export function withdraw(state: State, job: JobRec): void {
  state.elastic.parkedAtMap = state.elastic.parkedAtMap.filter((x) => x !== job.nspace);
  state.elastic.parkedAtLaunch = state.elastic.parkedAtLaunch.filter((x) => x !== job.nspace);
  unplace(state, job);
}

/**
 * Admit what may now go on: jobs parked at launch once no shrink is in
 * progress (IP-ELASTIC-LAUNCH-HOLD), remapped onto survivors if a process sat
 * on a node that left; jobs parked at the map-eligible boundary once no size change
 * at all is in progress. Each is admitted exactly once.
 */
export function settle(state: State): void {
  if (!shrinkInProgress(state) && state.elastic.parkedAtLaunch.length > 0) {
    const waiting = state.elastic.parkedAtLaunch.map((ns) => state.jobs.get(ns)!);
    state.elastic.parkedAtLaunch = [];
    // Give back every stale mapping before remapping any job, so one job's old
    // claim never crowds out another's remap onto the survivors.
    const remap = new Set(waiting.filter((job) => stale(state, job)));
    for (const job of remap) unplace(state, job);
    for (const job of waiting) {
      if (remap.has(job) && !place(state, job)) continue;
      launch(state, job);
    }
  }
  if (fence(state) === 0 && state.elastic.parkedAtMap.length > 0) {
    const waiting = state.elastic.parkedAtMap;
    state.elastic.parkedAtMap = [];
    for (const ns of waiting) {
      const job = state.jobs.get(ns)!;
      job.parkedFor = new Set();
      if (!place(state, job)) continue;
      if (job.holdBeforeLaunch) {
        job.stage = 'held-launch';
        job.state = 'PENDING';
      } else reachLaunch(state, job);
    }
  }
}

/** DVM teardown with size changes pending: grows drain as failures, and no job stays parked across it. */
export function drainAtTeardown(state: State): void {
  // The parked jobs end first: an inheritance disposition their end sets off
  // may open a shrink, which is then drained with the rest rather than left
  // open after the DVM has gone.
  for (const ns of [...state.elastic.parkedAtMap, ...state.elastic.parkedAtLaunch]) state.lifecycle.finishJob(state, state.jobs.get(ns)!, 'NEVER_LAUNCHED');
  state.elastic.parkedAtMap = [];
  state.elastic.parkedAtLaunch = [];
  for (const camp of [...state.elastic.campaigns.values()]) {
    state.elastic.campaigns.delete(camp.id);
    if (camp.kind === 'grow') notify(state, camp, Status.PMIX_ERR_DVM_MOD, Status.PMIX_ERR_UNREACH);
    // Its targets are gone with the DVM (IP-ELASTIC-TEARDOWN); a variant reports the shrink as not realised.
    else if (state.variant.teardownPendingShrink === 'dvm-mod') notify(state, camp, Status.PMIX_ERR_DVM_MOD, Status.PMIX_ERR_UNREACH);
    else notify(state, camp, Status.PMIX_SUCCESS);
  }
}

// ---------------------------------------------------------------- events

/**
 * The phase-two event: PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD, directed to the
 * size-change requester only, carrying PMIX_ALLOC_ID, PMIX_ALLOC_REQ_ID when
 * supplied, and on failure the cause. None without a requester, none when the
 * PMIx in use lacks the two codes, none to a requester that has gone.
 */
function notify(state: State, camp: CampaignRec, code: number, cause?: number): void {
  if (!camp.requester || !state.supports('PMIX_DVM_MOD_EVENTS') || !classify(state, camp.requester)) return;
  const info: Info[] = [{ key: Key.PMIX_ALLOC_ID, value: camp.allocId ?? '' }];
  const reqId = state.variant.completionRequestId === 'creation' ? camp.creationReqId : camp.reqId;
  if (reqId !== undefined) info.push({ key: Key.PMIX_ALLOC_REQ_ID, value: reqId });
  if (code === Status.PMIX_ERR_DVM_MOD) info.push({ key: state.variant.failureCauseKey ?? Key.PMIX_JOB_TERM_STATUS, value: cause ?? Status.PMIX_ERR_UNREACH });
  emit(state, code === Status.PMIX_SUCCESS ? Status.PMIX_DVM_IS_READY : Status.PMIX_ERR_DVM_MOD, camp.requester, info);
}

export function elasticView(state: State): ElasticView {
  return {
    fence: fence(state),
    campaigns: [...state.elastic.campaigns.values()].map((c) => ({
      id: c.id,
      kind: c.kind,
      targets: [...c.targets],
      pending: [...c.pending],
      ...(c.allocId !== undefined ? { allocId: c.allocId } : {}),
      ...(c.reqId !== undefined ? { reqId: c.reqId } : {}),
      ...(c.requester ? { requester: { ...c.requester } } : {}),
    })),
    parkedAtMap: [...state.elastic.parkedAtMap],
    parkedAtLaunch: [...state.elastic.parkedAtLaunch],
    shrinkOffers: state.elastic.shrinkOffers.map((o) => ({ ...o })),
  };
}
