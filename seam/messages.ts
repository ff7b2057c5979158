/**
 * The plain data that crosses the adapter seam. Everything here is JSON:
 * no classes, no functions, no undefined-vs-absent subtleties that a wire
 * encoding would lose. Requests mirror PMIx calls; observations are what a
 * client of a real runtime (or its operator's tooling) could see.
 */
import type { OptionalKeyName } from './pmix';

/** A PMIx process name. A tool is a process whose namespace has no job. */
export interface ProcId {
  nspace: string;
  rank: number;
}

/** A PMIx info value. Strings, numbers (all integer widths), booleans, string arrays. */
export type InfoValue = string | number | boolean | string[];

/** A pmix_info_t: the real key string, its value, and the PMIX_INFO_REQD flag. */
export interface Info {
  key: string;
  value: InfoValue;
  /** PMIX_INFO_REQD: the request must fail if this attribute cannot be honoured. */
  required?: boolean;
}

export interface NodeSpec {
  name: string;
  slots: number;
}

/** How the DVM under test is brought up for one scenario. */
export interface ClusterSetup {
  /** Nodes in the DVM at startup: they form the default session. */
  startupNodes: NodeSpec[];
  /** Nodes the scheduler can grant to dynamic allocations, in the order it prefers them. */
  schedulerNodes: NodeSpec[];
  /**
   * Keys the implementation must behave as if its PMIx did not define.
   * Only sent to an implementation that declares `emulate-missing-keys`.
   */
  withoutKeys: OptionalKeyName[];
  /** prte_elastic_mode. */
  elastic: boolean;
  /**
   * Choices the allocation RFC leaves to the host's scheduler. Only sent to an
   * implementation that declares `scheduler-policy`; absent fields mean the
   * defaults shown.
   */
  scheduler?: SchedulerPolicy;
}

export interface SchedulerPolicy {
  /**
   * What the scheduler does with a request whose *required* resources it
   * cannot grant now: refuse it at once (default), or queue it until a
   * `grant-queued` scheduler action (the response is then
   * PMIX_OPERATION_IN_PROGRESS).
   */
  whenShort?: 'refuse' | 'queue';
  /** What a PMIX_ALLOC_REAQUIRE gets back: the very nodes that were lent (default), or any free nodes of the same number. */
  reacquire?: 'same-nodes' | 'any-nodes';
}

export interface StartResult {
  /** The scheduler's process, the implicit owner of every session. */
  scheduler: ProcId;
}

export interface ConnectToolRequest {
  /** A label for diagnostics only; the implementation mints the namespace. */
  label: string;
}
export interface ConnectToolResult {
  proc: ProcId;
}
export interface DisconnectToolRequest {
  proc: ProcId;
}

/**
 * The most processes one app of a spawn may ask for. A request above it is
 * refused (PMIX_ERR_BAD_PARAM; over the wire, by the schema), so that no single
 * request can make an implementation under test, or the reference engine, do
 * unbounded work. Far above any scenario's needs.
 */
export const MAX_PROCS_PER_APP = 100_000;

export interface AppSpec {
  cmd: string;
  /** 1 ..= MAX_PROCS_PER_APP. */
  np: number;
  /** -host: the only nodes this app's processes may be placed on. */
  hosts?: string[];
  /** A tool app (PRRTE_APP_FLAG_TOOL): its processes do not count against slots. */
  tool?: boolean;
}

/** PMIx_Spawn issued by `requester`. */
export interface SpawnRequest {
  requester: ProcId;
  apps: AppSpec[];
  info: Info[];
  /**
   * Elastic DVM staging (capability `job-staging`): stop the accepted job just
   * before the map-eligible boundary ('map', VM_READY -> MAP) or the launch
   * boundary ('launch', LAUNCH_APPS) until an `advanceJob` request moves it on,
   * so a scenario can place a job at a boundary at a chosen moment. The spawn
   * then answers PMIX_OPERATION_IN_PROGRESS with the job's namespace.
   */
  hold?: 'map' | 'launch';
}

/** Move a held job on to (and across) the named boundary. */
export interface AdvanceJobRequest {
  nspace: string;
  /** 'map': the job reaches the map-eligible boundary; 'launch': the launch boundary (mapping first if needed). */
  to: 'map' | 'launch';
  /** When reaching 'map', hold it again before the launch boundary. */
  holdBeforeLaunch?: boolean;
}

/**
 * Something a daemon does, driven explicitly by the caller (elastic DVM).
 *  report: a newly launched daemon reports in;
 *  wireup: the head node distributes the wireup (nidmap) to the reported daemons;
 *  exit / crash: the daemon on the node leaves the DVM (cleanly / by failure);
 *  fail-to-start: a daemon being launched never comes up; sent for a node
 *    whose daemon has not been launched, the node's next daemon never comes up
 *    (it is kept from starting: its grow fails when it would have reported in).
 * `cause` is the pmix_status_t the runtime would see for a crash or a failed start.
 */
export interface DaemonEvent {
  event: 'report' | 'wireup' | 'exit' | 'crash' | 'fail-to-start';
  node?: string;
  cause?: number;
}
export interface SpawnResult {
  status: number;
  /** The new job's namespace, present iff the spawn succeeded. */
  nspace?: string;
  info: Info[];
}

/** PMIx_Allocation_request issued by `requester`. */
export interface AllocateRequest {
  requester: ProcId;
  directive: number;
  info: Info[];
}
export interface AllocateResult {
  status: number;
  info: Info[];
}

/** Every process of the job exits normally (the job reaches TERMINATED). */
export interface TerminateJobRequest {
  nspace: string;
}

/** Something the scheduler (the host's resource manager) does on its own initiative. */
export type SchedulerAction =
  /** The scheduler terminates the allocation (timeout or administrative reclaim). */
  | { action: 'reclaim'; allocId: string }
  /** The scheduler issues PMIX_ALLOC_TIMEOUT_WARNING for an allocation. */
  | { action: 'timeout-warning'; allocId: string; timeRemaining?: number }
  /** The DVM is torn down. */
  | { action: 'teardown' }
  /** The scheduler pushes nodes into the DVM directly (no PMIx requester): they join the default session. */
  | { action: 'add-nodes'; nodes: string[] }
  /** The next shrink order the runtime sends fails (the xcast fails), with this cause. */
  | { action: 'fail-next-shrink-order'; cause: number }
  /** The scheduler works through its queue, in arrival order, granting what it now can. */
  | { action: 'grant-queued' };

export interface Ack {
  status: number;
}

/** Restricts an observation to some nodes / jobs; absent means all. */
export interface ObserveRequest {
  nodes?: string[];
  jobs?: string[];
}

export interface NodeView {
  name: string;
  slots: number;
  slotsInUse: number;
  /** Which session the node's capacity is available to: '' = the default session, else the reservation's PMIX_ALLOC_ID. */
  availableTo: string;
  /** Its daemon: 'ready' (wired, usable), 'joining' (launched by a grow, not yet wired), 'leaving' (a shrink target, not yet departed). */
  daemon: 'ready' | 'joining' | 'leaving';
}

export type JobState =
  | 'PENDING' // accepted and held before a boundary by the caller (job staging)
  | 'RUNNING'
  | 'TERMINATED' // every process exited normally
  | 'KILLED' // its processes were terminated because their nodes left the DVM
  | 'WAITING_FOR_DAEMONS' // parked by the elastic DVM (PRRTE state 17)
  | 'NEVER_LAUNCHED' // aborted because the grow it waited on failed, or the DVM went down (PRRTE state 60)
  | 'FAILED_TO_MAP'; // admitted, but its sessions had no room for it

export interface ProcView {
  rank: number;
  /** The node the process was mapped onto ('' while it is not yet mapped); a process that has stopped keeps the node it last ran on. */
  node: string;
  /** false once the process has exited or been terminated. */
  running: boolean;
}

export interface JobView {
  nspace: string;
  state: JobState;
  procs: ProcView[];
}

/** An event as delivered to one process. */
export interface EventView {
  /** Delivery order, starting at 1. */
  seq: number;
  code: number;
  to: ProcId;
  info: Info[];
}

/** What a client can see. Nodes that are not members of the DVM are omitted. */
export interface Snapshot {
  nodes: NodeView[];
  jobs: JobView[];
  events: EventView[];
}

/** Optional introspection of bookkeeping a client cannot see directly. */
export interface AllocationView {
  allocId: string;
  reqId?: string;
  /** The single owning namespace whose termination drives the disposition. */
  owner: string;
  /** The authorisation set. */
  owners: string[];
  requester: ProcId;
  inheritance: number;
  /** false for a PMIX_ALLOC_SHARE=true allocation, whose nodes are in the default session. */
  reserved: boolean;
  nodes: string[];
  /** What the implementation forwarded to its scheduler for this allocation, e.g. PMIX_ALLOC_WARN_TIMEOUT. */
  forwardedToScheduler: Info[];
}
export interface CampaignView {
  id: number;
  kind: 'grow' | 'shrink';
  /** Nodes whose daemons the campaign launches (grow) or removes (shrink). */
  targets: string[];
  /** Shrink: targets not yet departed. Grow: targets not yet reported in. */
  pending: string[];
  allocId?: string;
  reqId?: string;
  requester?: ProcId;
}

/** Internal state of the elastic machinery, for implementations that can show it. */
export interface ElasticView {
  /** The launch fence: every grow campaign's targets plus every shrink campaign's not-yet-departed targets. */
  fence: number;
  campaigns: CampaignView[];
  parkedAtMap: string[];
  parkedAtLaunch: string[];
  /** For each completed shrink, each resource component it was offered to, and how many events had been delivered by then. */
  shrinkOffers: { campaign: number; component: string; eventsBefore: number }[];
}

export interface Introspection {
  allocations: AllocationView[];
  elastic?: ElasticView;
}

/**
 * PMIx_Query_info with PMIX_QUERY_ALLOC_STATUS: the status of an allocation
 * request, named by its PMIX_ALLOC_REQ_ID or PMIX_ALLOC_ID in `qualifiers`.
 */
export interface QueryAllocationRequest {
  requester: ProcId;
  qualifiers: Info[];
}

/**
 * The answer, normalised: PMIx leaves the format of the status to the host,
 * so an adapter maps its runtime's answer onto these states.
 */
export interface QueryAllocationResult {
  status: number;
  /** pending: queued at the scheduler; granted: the allocation exists; lent: lent back, reacquirable; cancelled; ended. */
  state?: 'pending' | 'granted' | 'lent' | 'cancelled' | 'ended';
  allocId?: string;
}
