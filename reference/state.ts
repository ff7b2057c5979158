/**
 * The reference engine's state: a DVM, its simulated scheduler, the
 * allocations carved out of it and the jobs running on it. Everything is
 * indexed so that an operation touches only what it names: a spawn into a
 * reservation walks that reservation's nodes, a termination walks the
 * terminated job's ancestors, never the whole pool or every job.
 */
import type { AllocateRequest, Info, JobState, ProcId, SchedulerPolicy } from '../seam/messages';
import { Inheritance, Status, type OptionalKeyName } from '../seam/pmix';
import type { EngineVariant } from './variant';

export interface NodeRec {
  name: string;
  slots: number;
  slotsInUse: number;
  inDvm: boolean;
  /** Where the node came from: the DVM's startup pool, or a scheduler grant. */
  origin: 'startup' | 'scheduler';
  /** The allocation the node was granted (or carved) under, if any. */
  allocId: string | null;
  /** Running processes on this node: nspace -> ranks. */
  procs: Map<string, Set<number>>;
  /** Its daemon while the node is in the DVM. */
  daemon: DaemonRec | null;
}

export interface DaemonRec {
  /** starting/reported: launched by a grow, not yet wired; wired: usable; departing: a shrink target. */
  state: 'starting' | 'reported' | 'wired' | 'departing';
}

/** An in-progress size change (elastic mode). */
export interface CampaignRec {
  id: number;
  kind: 'grow' | 'shrink';
  targets: string[];
  /** grow: targets not yet reported; shrink: targets not yet departed. */
  pending: Set<string>;
  allocId?: string;
  reqId?: string;
  creationReqId?: string;
  /** Absent for a size change no PMIx process asked for. */
  requester?: ProcId;
}

export interface ElasticState {
  nextCampaign: number;
  campaigns: Map<number, CampaignRec>;
  parkedAtMap: string[];
  parkedAtLaunch: string[];
  /** The shrink a release is collecting targets for, while it runs. */
  collecting?: { targets: string[]; requester?: ProcId; allocId?: string; reqId?: string; creationReqId?: string };
  failNextShrinkOrder?: number;
  /** Nodes whose next daemon was kept from starting before it was launched (a fail-to-start sent ahead), with the cause. */
  keptFromStarting: Map<string, number>;
  shrinkOffers: { campaign: number; component: string; eventsBefore: number }[];
}

export interface AllocationRec {
  allocId: string;
  sessionId: number;
  reqId?: string;
  /** reqKey of the creating request, when it supplied a PMIX_ALLOC_REQ_ID. */
  reqKey?: string;
  /** The request id of the latest successful NEW or EXTEND that named one (a variant's timeout warning carries it). */
  latestReqId?: string;
  /** The owning namespace: its termination drives the disposition. */
  owner: string;
  /** The authorisation set. Never contains the empty namespace. */
  owners: Set<string>;
  requester: ProcId;
  inheritance: number;
  /** false: PMIX_ALLOC_SHARE=true, the nodes sit in the default session. */
  reserved: boolean;
  nodes: Set<string>;
  /** Jobs spawned into this allocation (the derived-children roots of a tool owner). */
  spawnedInto: Set<string>;
  /** Attributes passed through to the scheduler unchanged (PMIX_ALLOC_WARN_TIMEOUT). */
  forwarded: Info[];
  /** Set while the allocation's nodes are lent back to the scheduler: the nodes that were lent. */
  lent?: string[];
}

/** A request the scheduler could not grant at once and queued (policy whenShort = 'queue'). */
export interface QueuedRequest {
  req: AllocateRequest;
  reqId?: string;
}

/** What a PMIX_QUERY_ALLOC_STATUS by request id can report. */
export interface RequestRec {
  requester: ProcId;
  state: 'pending' | 'granted' | 'cancelled';
  allocId?: string;
}

export interface ProcRec {
  rank: number;
  node: string;
  running: boolean;
  /** A tool process: it does not count against the node's slots. */
  tool: boolean;
}

export interface JobRec {
  nspace: string;
  /** The process namespace that spawned it: a job, a tool, or the scheduler. */
  parent: string;
  /** '' for the default session, else an allocation id. */
  primary: string;
  /** Every session the job may map onto ('' = default). */
  targets: string[];
  procs: ProcRec[];
  state: JobState;
  /** Number of running jobs strictly below this one in the spawn tree. */
  liveDescendants: number;
  /** What to (re)map: kept so a job parked at launch can be remapped. */
  apps: { cmd: string; np: number; hosts?: string[]; tool?: boolean }[];
  /** Where the job is on its way to running (elastic staging). */
  stage: 'held-map' | 'parked-map' | 'mapped' | 'held-launch' | 'parked-launch' | 'running' | 'done';
  /** Grow campaigns in progress when it parked at the map-eligible boundary: their failure aborts it. */
  parkedFor: Set<number>;
  /** Once admitted past the map-eligible boundary, hold it before the launch boundary (job staging). */
  holdBeforeLaunch?: boolean;
}

export interface ToolRec {
  nspace: string;
  connected: boolean;
  liveDescendants: number;
}

export interface DeliveredEvent {
  seq: number;
  code: number;
  to: ProcId;
  info: Info[];
}

export interface EngineConfig {
  startupNodes: { name: string; slots: number }[];
  schedulerNodes: { name: string; slots: number }[];
  /** Optional keys this engine's emulated PMIx does not define. */
  withoutKeys: OptionalKeyName[];
  elastic: boolean;
  scheduler?: SchedulerPolicy;
}

/**
 * What the elastic machinery needs of the lifecycle (a job that never
 * launches ends; a node that leaves takes its processes with it), handed to
 * it by the engine. Job ends and size changes call each other (an owner's end
 * can shrink the DVM; a shrink's departing node ends jobs): passing these in
 * keeps the modules' imports one-way (lifecycle.ts -> elastic.ts).
 */
export interface LifecycleHooks {
  finishJob(state: State, job: JobRec, end: 'TERMINATED' | 'KILLED' | 'NEVER_LAUNCHED' | 'FAILED_TO_MAP'): void;
  killProcsOn(state: State, node: string): void;
}

export interface State {
  readonly config: EngineConfig;
  readonly lifecycle: LifecycleHooks;
  /** The freedoms this engine takes where the specification leaves a choice (reference/variant.ts); {} is the default engine. */
  readonly variant: EngineVariant;
  readonly supports: (key: OptionalKeyName) => boolean;
  readonly schedulerNspace: string;
  nodes: Map<string, NodeRec>;
  /** In the DVM and not reserved: the default session's nodes, in a stable order. */
  defaultPool: Set<string>;
  /** Not in the DVM: what the scheduler can still grant, in its order of preference. */
  schedulerFree: Set<string>;
  allocations: Map<string, AllocationRec>;
  /** (requester namespace, its own PMIX_ALLOC_REQ_ID) -> the allocation that request created (reqKey). */
  byReqId: Map<string, string>;
  bySessionId: Map<number, string>;
  /** owning namespace -> allocation ids it owns (for termination lookups). */
  byOwner: Map<string, Set<string>>;
  /**
   * owning namespace -> the CHILD-flavoured allocations it owns: the only ones
   * a descendant's end can fire, so a job's end never walks every allocation
   * its ancestors own (a tool may own thousands).
   */
  drainingByOwner: Map<string, Set<string>>;
  jobs: Map<string, JobRec>;
  tools: Map<string, ToolRec>;
  events: DeliveredEvent[];
  /** Requests queued at the scheduler, in arrival order. */
  queue: QueuedRequest[];
  /** Requests that carried a PMIX_ALLOC_REQ_ID, by reqKey (the latest per key), for status queries. */
  requests: Map<string, RequestRec>;
  /** A request id -> the reqKey of the latest request that used it (for a status query by someone else). */
  latestRequest: Map<string, string>;
  /** Allocation ids that existed once and have ended. */
  ended: Set<string>;
  counters: { session: number; job: number; tool: number };
  elastic: ElasticState;
  tornDown: boolean;
}

export function createState(given: EngineConfig, lifecycle: LifecycleHooks, variant: EngineVariant = {}): State {
  // A copy: the engine must not see later changes to the caller's object (over the wire it could not).
  const config: EngineConfig = structuredClone(given);
  const missing = new Set(config.withoutKeys);
  const state: State = {
    config,
    lifecycle,
    variant,
    supports: (key) => !missing.has(key),
    schedulerNspace: 'scheduler',
    nodes: new Map(),
    defaultPool: new Set(),
    schedulerFree: new Set(),
    allocations: new Map(),
    byReqId: new Map(),
    bySessionId: new Map(),
    byOwner: new Map(),
    drainingByOwner: new Map(),
    jobs: new Map(),
    tools: new Map(),
    events: [],
    queue: [],
    requests: new Map(),
    latestRequest: new Map(),
    ended: new Set(),
    counters: { session: 0, job: 0, tool: 0 },
    elastic: { nextCampaign: 0, campaigns: new Map(), parkedAtMap: [], parkedAtLaunch: [], keptFromStarting: new Map(), shrinkOffers: [] },
    tornDown: false,
  };
  for (const n of config.startupNodes) {
    const node = newNode(n.name, n.slots, 'startup', true);
    node.daemon = { state: 'wired' };
    state.nodes.set(n.name, node);
    state.defaultPool.add(n.name);
  }
  for (const n of config.schedulerNodes) {
    if (state.nodes.has(n.name)) continue; // a name is one node
    state.nodes.set(n.name, newNode(n.name, n.slots, 'scheduler', false));
    state.schedulerFree.add(n.name);
  }
  return state;
}

function newNode(name: string, slots: number, origin: NodeRec['origin'], inDvm: boolean): NodeRec {
  return { name, slots, slotsInUse: 0, inDvm, origin, allocId: null, procs: new Map(), daemon: null };
}

export type RequesterClass = 'scheduler' | 'tool' | 'application';

/** Who is asking: the scheduler, a tool (no job of its own) or a process of a running job. */
export function classify(state: State, proc: ProcId): RequesterClass | undefined {
  if (proc.nspace === state.schedulerNspace) return 'scheduler';
  const tool = state.tools.get(proc.nspace);
  if (tool) return tool.connected && proc.rank === 0 ? 'tool' : undefined;
  const job = state.jobs.get(proc.nspace);
  if (job && job.state === 'RUNNING' && job.procs.some((p) => p.rank === proc.rank && p.running)) {
    return 'application';
  }
  return undefined;
}

/** The ownership check shared by spawn targeting, EXTEND and RELEASE. */
export function mayUse(state: State, alloc: AllocationRec, requesterNspace: string): boolean {
  if (requesterNspace === state.schedulerNspace) return true;
  // An empty namespace is never an owner: the owner set never holds one, and
  // we compare exactly rather than with PMIx's wildcard-matching nspace check.
  return requesterNspace !== '' && alloc.owners.has(requesterNspace);
}

export function emit(state: State, code: number, to: ProcId, info: Info[]): void {
  // Sequence numbers only order events; a variant leaves gaps between them.
  state.events.push({ seq: state.events.length * (state.variant.eventSeqStride ?? 1) + 1, code, to: { ...to }, info });
}

/** A node a job may be mapped onto now: in the DVM with a wired daemon. */
export const usable = (node: NodeRec): boolean => node.inDvm && node.daemon?.state === 'wired';

/** The launch fence: every grow campaign's targets plus every shrink campaign's not-yet-departed targets. */
export function fence(state: State): number {
  let n = 0;
  for (const c of state.elastic.campaigns.values()) n += c.kind === 'grow' ? c.targets.length : c.pending.size;
  return n;
}

export const shrinkInProgress = (state: State): boolean => [...state.elastic.campaigns.values()].some((c) => c.kind === 'shrink');

/** A job started (+1) or ended (-1): every ancestor's count of running descendants follows. */
export function countDescendant(state: State, job: JobRec, delta: 1 | -1): void {
  for (let a: string | undefined = job.parent; a !== undefined; a = state.jobs.get(a)?.parent) {
    const anc = state.jobs.get(a) ?? state.tools.get(a);
    if (!anc) break;
    anc.liveDescendants += delta;
  }
}

/**
 * A new namespace for a job or a tool. The default engine names them as PRRTE
 * does; the opaque variant gives them no visible structure (a bijection of
 * the counter, so they stay unique), which is all the specification promises.
 */
export function mintNspace(state: State, kind: 'job' | 'tool', n: number): string {
  if (state.variant.nspaceFormat !== 'opaque') return `prte-${kind}@${n}`;
  return `ns-${scramble(n * 2 + (kind === 'tool' ? 1 : 0))}`;
}

/** A new PMIX_ALLOC_ID for an allocation owned by `owner` with session `sessionId`. */
export function mintAllocId(state: State, owner: string, sessionId: number): string {
  if (state.variant.allocIdFormat !== 'opaque') return `${owner}.${sessionId}`;
  return `alloc-${scramble(sessionId)}`;
}

/** An odd multiplier modulo 2^32 is a bijection: distinct counters give distinct, unordered-looking ids. */
const scramble = (n: number): string => (Math.imul(n, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0');

/** The status a refused request gets where the specification names none (scheduler cannot grant, job cannot be mapped). */
export const refusal = (state: State): number => state.variant.refusalStatus ?? Status.PMIX_ERR_OUT_OF_RESOURCE;

/**
 * A PMIX_ALLOC_REQ_ID is "the requester's own request id": two requesters may
 * choose the same string, and neither may reach the other's allocation or
 * request through it. Every index of request ids is keyed by the requester's
 * namespace as well.
 */
export const reqKey = (requesterNspace: string, reqId: string): string => `${requesterNspace}\u0000${reqId}`;

/** CHILD and CHILD_DEFAULT: dispositions that wait for the owner's derived children. */
export const childFlavoured = (inheritance: number): boolean =>
  inheritance === Inheritance.PMIX_ALLOC_INHERIT_CHILD || inheritance === Inheritance.PMIX_ALLOC_INHERIT_CHILD_DEFAULT;

/** Enter a live allocation in the owner indexes (byOwner, drainingByOwner). */
export function indexAllocation(state: State, alloc: AllocationRec): void {
  addTo(state.byOwner, alloc.owner, alloc.allocId);
  if (childFlavoured(alloc.inheritance)) addTo(state.drainingByOwner, alloc.owner, alloc.allocId);
}

/** Take an allocation out of the owner indexes (it ended, or its disposition is about to change). */
export function unindexAllocation(state: State, alloc: AllocationRec): void {
  state.byOwner.get(alloc.owner)?.delete(alloc.allocId);
  state.drainingByOwner.get(alloc.owner)?.delete(alloc.allocId);
}

function addTo(index: Map<string, Set<string>>, key: string, value: string): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(value);
}
