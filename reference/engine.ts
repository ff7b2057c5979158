/**
 * The reference engine: a deterministic discrete-event model of a PRRTE DVM
 * and its scheduler. No clock, no randomness, no I/O: every asynchronous
 * happening (a job ending, a tool leaving, a scheduler action) is an
 * explicit call, and the same calls always give the same state and ids.
 */
import type {
  Ack,
  AdvanceJobRequest,
  DaemonEvent,
  AllocateRequest,
  AllocateResult,
  Introspection,
  JobView,
  NodeView,
  ObserveRequest,
  QueryAllocationRequest,
  QueryAllocationResult,
  ProcId,
  SchedulerAction,
  Snapshot,
  SpawnRequest,
  SpawnResult,
} from '../seam/messages';
import { Directive, Status } from '../seam/pmix';
import { allocate } from './allocation';
import { directive, grantQueued, query } from './directives';
import { advanceJob, daemonEvent, elasticView, startGrow } from './elastic';
import { disconnectTool, finishJob, killProcsOn, reclaim, teardown, terminateJob, timeoutWarning } from './lifecycle';
import { spawn } from './spawn';
import { createState, mintNspace, type EngineConfig, type State } from './state';
import type { EngineVariant } from './variant';

const GONE: Ack = { status: Status.PMIX_ERR_UNREACH };

export class Engine {
  private readonly state: State;

  constructor(config: EngineConfig, variant: EngineVariant = {}) {
    this.state = createState(config, { finishJob, killProcsOn }, variant);
  }

  get schedulerProc(): ProcId {
    return { nspace: this.state.schedulerNspace, rank: 0 };
  }

  connectTool(): ProcId {
    this.state.counters.tool += 1;
    const nspace = mintNspace(this.state, 'tool', this.state.counters.tool);
    this.state.tools.set(nspace, { nspace, connected: true, liveDescendants: 0 });
    return { nspace, rank: 0 };
  }

  disconnectTool(proc: ProcId): Ack {
    return this.state.tornDown ? GONE : disconnectTool(this.state, proc.nspace);
  }

  allocate(req: AllocateRequest): AllocateResult {
    if (this.state.tornDown) return { ...GONE, info: [] };
    const campaignsBefore = this.state.elastic.nextCampaign;
    const toDirectives = req.directive === Directive.PMIX_ALLOC_REAQUIRE || req.directive === Directive.PMIX_ALLOC_REQ_CANCEL;
    const result = toDirectives ? directive(this.state, req) : allocate(this.state, req);
    // The spec says only that the response to a request that starts a size
    // change confirms its acceptance; a variant confirms it with another
    // accepted status.
    const accept = this.state.variant.sizeChangeAcceptStatus;
    if (accept !== undefined && result.status === Status.PMIX_SUCCESS && this.state.elastic.nextCampaign !== campaignsBefore) {
      return { ...result, status: accept };
    }
    return result;
  }

  spawn(req: SpawnRequest): SpawnResult {
    return this.state.tornDown ? { ...GONE, info: [] } : spawn(this.state, req);
  }

  terminateJob(nspace: string): Ack {
    return this.state.tornDown ? GONE : terminateJob(this.state, nspace);
  }

  scheduler(req: SchedulerAction): Ack {
    if (this.state.tornDown) return GONE;
    switch (req.action) {
      case 'reclaim':
        return reclaim(this.state, req.allocId);
      case 'timeout-warning':
        return timeoutWarning(this.state, req.allocId, req.timeRemaining);
      case 'teardown':
        return teardown(this.state);
      case 'grant-queued':
        grantQueued(this.state);
        return { status: Status.PMIX_SUCCESS };
      case 'add-nodes':
        return addNodes(this.state, req.nodes);
      case 'fail-next-shrink-order':
        this.state.elastic.failNextShrinkOrder = req.cause;
        return { status: Status.PMIX_SUCCESS };
    }
  }

  daemon(req: DaemonEvent): Ack {
    return this.state.tornDown ? GONE : daemonEvent(this.state, req);
  }

  advanceJob(req: AdvanceJobRequest): Ack {
    return this.state.tornDown ? GONE : advanceJob(this.state, req);
  }

  queryAllocation(req: QueryAllocationRequest): QueryAllocationResult {
    return this.state.tornDown ? { status: Status.PMIX_ERR_UNREACH } : query(this.state, req);
  }

  observe(req: ObserveRequest = {}): Snapshot {
    const s = this.state;
    const nodeNames = req.nodes ?? [...s.nodes.keys()];
    const nodes: NodeView[] = [];
    for (const name of nodeNames) {
      const n = s.nodes.get(name);
      if (!n || !n.inDvm) continue;
      const reserved = n.allocId !== null && s.allocations.get(n.allocId)?.reserved === true;
      const daemon = n.daemon?.state === 'departing' ? 'leaving' : n.daemon?.state === 'wired' ? 'ready' : 'joining';
      nodes.push({ name, slots: n.slots, slotsInUse: n.slotsInUse, availableTo: reserved ? n.allocId! : '', daemon });
    }
    const jobNames = req.jobs ?? [...s.jobs.keys()];
    const jobs: JobView[] = [];
    for (const ns of jobNames) {
      const j = s.jobs.get(ns);
      if (!j) continue;
      jobs.push({ nspace: ns, state: j.state, procs: j.procs.map((p) => ({ rank: p.rank, node: p.node, running: p.running })) });
    }
    return { nodes, jobs, events: s.events.map((e) => ({ ...e, to: { ...e.to }, info: e.info.map((i) => ({ ...i })) })) };
  }

  inspect(): Introspection {
    return {
      allocations: [...this.state.allocations.values()].map((a) => ({
        allocId: a.allocId,
        ...(a.reqId !== undefined ? { reqId: a.reqId } : {}),
        owner: a.owner,
        owners: [...a.owners].sort(),
        requester: { ...a.requester },
        inheritance: a.inheritance,
        reserved: a.reserved,
        nodes: [...a.nodes],
        forwardedToScheduler: a.forwarded.map((i) => ({ ...i })),
      })),
      ...(this.state.config.elastic ? { elastic: elasticView(this.state) } : {}),
    };
  }
}

/** A scheduler push: nodes join the DVM's default session with no PMIx requester. */
function addNodes(state: State, names: string[]): Ack {
  if (names.length === 0 || names.some((n) => !state.schedulerFree.has(n))) return { status: Status.PMIX_ERR_BAD_PARAM };
  for (const name of names) {
    const node = state.nodes.get(name)!;
    state.schedulerFree.delete(name);
    node.inDvm = true;
    state.defaultPool.add(name);
  }
  startGrow(state, names, {});
  return { status: Status.PMIX_SUCCESS };
}
