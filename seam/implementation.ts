/**
 * The adapter seam. Step definitions drive an implementation only through
 * this interface; the reference engine is one implementation of it, a
 * subprocess speaking the wire protocol is another. Every argument and
 * result is plain JSON data (see ./messages), so each method maps onto one
 * request/response message pair on the wire.
 */
import type { CapabilityName } from './capabilities';
import type { Readings } from './readings';
import type {
  Ack,
  AdvanceJobRequest,
  DaemonEvent,
  AllocateRequest,
  AllocateResult,
  ClusterSetup,
  ConnectToolRequest,
  ConnectToolResult,
  DisconnectToolRequest,
  Introspection,
  ObserveRequest,
  QueryAllocationRequest,
  QueryAllocationResult,
  SchedulerAction,
  Snapshot,
  SpawnRequest,
  SpawnResult,
  StartResult,
  TerminateJobRequest,
} from './messages';

export interface Description {
  name: string;
  version: string;
  capabilities: CapabilityName[];
  /** Where the documents allow several behaviours, the one this implementation takes (seam/readings.ts). Undeclared: scenarios that depend on the reading are skipped. */
  readings?: Readings;
  /**
   * Its observable effects may trail its answers: a live runtime, whose nodes
   * join and leave, jobs end and events arrive after the request that caused
   * them was answered. The suite then judges every claim that something
   * holds once the implementation has settled, and judges the scenario's
   * final claims again at its end (steps/support/settle.ts). Absent: every
   * effect is observable by the time the answer is (the reference engine).
   */
  effectsTrailAnswers?: boolean;
  /**
   * With effectsTrailAnswers: how long, at most, the implementation may go
   * on reacting to an answer with no change a client can see in between
   * (a daemon's departure timer, say). The suite's quiet period is at least
   * this. Absent: PMIX_CONFORMANCE_QUIET_MS (600 ms).
   */
  quietMs?: number;
}

export interface Implementation {
  describe(): Promise<Description>;
  /** Bring up a fresh DVM; called once per scenario, before anything else. */
  start(setup: ClusterSetup): Promise<StartResult>;
  connectTool(req: ConnectToolRequest): Promise<ConnectToolResult>;
  /** The tool finalizes and goes away. */
  disconnectTool(req: DisconnectToolRequest): Promise<Ack>;
  spawn(req: SpawnRequest): Promise<SpawnResult>;
  allocate(req: AllocateRequest): Promise<AllocateResult>;
  terminateJob(req: TerminateJobRequest): Promise<Ack>;
  scheduler(req: SchedulerAction): Promise<Ack>;
  /** A daemon reports, is wired, exits, crashes or fails to start (elastic DVM). */
  daemon(req: DaemonEvent): Promise<Ack>;
  /** Move a job held by `SpawnRequest.hold` on to a boundary (capability `job-staging`). */
  advanceJob(req: AdvanceJobRequest): Promise<Ack>;
  /** PMIx_Query_info(PMIX_QUERY_ALLOC_STATUS). */
  queryAllocation(req: QueryAllocationRequest): Promise<QueryAllocationResult>;
  observe(req: ObserveRequest): Promise<Snapshot>;
  /** Only for implementations declaring the `introspection` or `elastic-internals` capability. */
  inspect?(): Promise<Introspection>;
  /** Release everything; the instance is not used again. */
  stop(): Promise<void>;
  /** Wire adapters: how many implementation processes they have started in this run (each fault costs a restart). */
  processesStarted?(): number;
}

/**
 * What an adapter module exports. The suite loads the module named by the
 * PMIX_CONFORMANCE_ADAPTER environment variable (or the `adapter` world
 * parameter) and calls this once per scenario.
 */
export interface AdapterModule {
  createImplementation(): Implementation;
}
