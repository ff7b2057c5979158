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

export interface AppSpec {
  cmd: string;
  np: number;
  /** -host: the only nodes this app's processes may be placed on. */
  hosts?: string[];
}

/** PMIx_Spawn issued by `requester`. */
export interface SpawnRequest {
  requester: ProcId;
  apps: AppSpec[];
  info: Info[];
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
}

export type JobState =
  | 'RUNNING'
  | 'TERMINATED' // every process exited normally
  | 'KILLED' // its processes were terminated because their nodes left the DVM
  | 'WAITING_FOR_DAEMONS' // parked by the elastic DVM (PRRTE state 17)
  | 'NEVER_LAUNCHED'; // aborted because the grow it waited on failed (PRRTE state 60)

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
export interface Introspection {
  allocations: AllocationView[];
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
