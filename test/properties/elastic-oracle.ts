/**
 * An independent model of the elastic DVM, written from the elastic
 * specification's rules (clauses/ED.json) and the suite's interpretation
 * points (features/INTERPRETATIONS.md, "Elastic DVM"), not from any
 * engine's code:
 *
 *  - a grant of scheduler nodes (NEW / EXTEND / a scheduler push) opens one
 *    grow campaign; its nodes are 'joining' until every one of them has
 *    reported in and the head node has sent the wireup; then they are all
 *    'ready' and the requester gets PMIX_DVM_IS_READY;
 *  - a grow target that crashes or fails to start before completion fails
 *    the grow: every target leaves the DVM (and its allocation), the jobs
 *    that parked at the map-eligible boundary while that grow was in progress never
 *    launch (NEVER_LAUNCHED), and the requester gets PMIX_ERR_DVM_MOD with
 *    the cause (IP-ELASTIC-GROW-FAILURE-SCOPE, IP-ELASTIC-ROLLBACK);
 *  - a return of scheduler nodes (a release, a reclaim, a NONE disposition)
 *    opens one shrink campaign when it removes at least one daemon; its
 *    nodes are 'leaving' until each daemon departs (exit or crash, counted
 *    once); the last departure completes it (PMIX_DVM_IS_READY to the
 *    requester, if any: IP-ELASTIC-REQUESTERLESS-SHRINK);
 *  - a node released while its own grow is pending stops being that grow's
 *    target and becomes a shrink target; a grow left with no target has
 *    nothing to wait for and completes (IP-ELASTIC-RELEASE-DURING-GROW);
 *  - a job at the map-eligible boundary parks iff any campaign is in
 *    progress, and is admitted (mapped) once none is; a job at the launch
 *    boundary parks iff a shrink is in progress, and is admitted once none
 *    is, launched on its mapping unless a process of it sat on a node that
 *    left, in which case it is remapped (IP-ELASTIC-LAUNCH-HOLD);
 *  - a node leaving the DVM stops the processes on it; a job with none left
 *    running is KILLED, and its owner-termination disposition fires (NONE:
 *    the allocation returns its nodes; DEFAULT: it unreserves them);
 *  - no event for a change that removes or adds no daemon
 *    (IP-ELASTIC-NO-CHANGE-NO-EVENT), for a rejected request, or for a
 *    change with no requester; an event for a requester that is no longer
 *    a live process is optional.
 *
 * Which scheduler nodes a NUM_NODES grant picks, where a job is mapped,
 * whether a job fits at all (FAILED_TO_MAP), and whether a daemon loss that
 * belongs to no campaign removes its node (IP-ELASTIC-UNRELATED-LOSS) are
 * the implementation's choice: the caller reads them from the observation
 * and tells the model.
 *
 * Where the documents allow several behaviours (features/INTERPRETATIONS.md,
 * "Readings"), the model follows the value the implementation declares, and
 * allows every value of a reading it leaves undeclared (./profile.ts):
 *  - completion-request-id: the event carries the PMIX_ALLOC_REQ_ID of the
 *    request that drove the change (driving) or of the request that created
 *    the allocation (creation), whenever that request supplied one;
 *  - grow-failure-aborts: a failed grow aborts the jobs that parked while it
 *    was in progress (parked-during-grow), or every job parked at the
 *    map-eligible boundary (all-parked-at-map); which, the caller says
 *    (read from the observation when undeclared);
 *  - reclaim-requester: a reclaim's shrink has no requester (none) or the
 *    scheduler's process (scheduler), which then gets its one event; the
 *    caller makes the request, optional when undeclared.
 * A runtime whose daemons act on their own (no daemon-control) reports in,
 * is wired and departs without the caller driving it: the caller shows the
 * model each observation (autonomous()), and the model takes what it sees
 * as the progress the rules allow (a grow whose every target is ready was
 * reported and wired; a leaving target that is gone has departed) and
 * judges everything else as usual.
 */
import type { JobState, NodeView } from '../../seam/messages';
import { Inheritance, Status } from '../../seam/pmix';
import type { Profile } from './profile';

export type DaemonView = 'ready' | 'joining' | 'leaving';

export interface NodeModel {
  name: string;
  slots: number;
  startup: boolean;
  inDvm: boolean;
  daemon?: DaemonView;
  /** A joining daemon that has reported in. */
  reported: boolean;
  /** The campaign the node is a target of (grow while joining, shrink while leaving). */
  campaign?: number;
  /** The allocation the node belongs to. */
  alloc?: string;
  /** Whom its capacity is available to: '' the default session, else a reservation's id. */
  session: string;
  /** The step at which it became 'leaving'. */
  leavingSince?: number;
  /** It has been a member of the DVM at some point (for repeated / late reports). */
  everJoined: boolean;
}

export interface RequestModel {
  /** Its PMIX_ALLOC_REQ_ID, or a label for one that supplied none. */
  label: string;
  kind: 'grow' | 'shrink';
  requester: string;
  reqId?: string;
  /** The PMIX_ALLOC_ID its event must carry (IP-ELASTIC-EVENT-IDS). */
  allocId?: string;
  step: number;
  what: string;
  accepted: boolean;
  /** Set iff it opened a campaign. */
  campaign?: CampaignModel;
  /**
   * A reclaim's shrink made while reading reclaim-requester is undeclared:
   * the scheduler may be its requester (one event) or no one may (none).
   */
  maybe?: boolean;
  /** The terminal event the campaign's end calls for; optional when the requester was gone by then; `reqIds`: the PMIX_ALLOC_REQ_IDs it may carry. */
  outcome?: { code: number; cause?: number; step: number; optional: boolean; reqIds: (string | undefined)[] };
  /** Terminal events attributed to it so far. */
  delivered: number;
}

export interface CampaignModel {
  id: number;
  label: string;
  kind: 'grow' | 'shrink';
  /** grow: its current targets; shrink: every target. */
  targets: string[];
  /** grow: targets not yet reported; shrink: targets not yet departed. */
  pending: Set<string>;
  request?: RequestModel;
  allocId?: string;
}

export interface ExpectedEvent {
  code: number;
  to: string;
  allocId: string;
  /** The PMIX_ALLOC_REQ_ID it carries under each reading of completion-request-id the implementation may take (undefined: none). */
  ids: { driving?: string; creation?: string };
  /** The ids it may carry: those of the readings allowed. */
  reqIds: (string | undefined)[];
  /** The cause a PMIX_ERR_DVM_MOD carries; undefined: any (the specification names none for the case). */
  cause?: number;
  optional: boolean;
  request: RequestModel;
}

export interface AllocModel {
  id: string;
  label: string;
  owner: string;
  /** The PMIX_ALLOC_REQ_ID of the NEW that created it, if it supplied one. */
  creationReqId?: string;
  /** Who may extend, release and spawn into it: the owning namespace and every job spawned into it. */
  owners: Set<string>;
  nodes: Set<string>;
  disposition: number;
  shared: boolean;
  live: boolean;
}

export type Stage = 'held-map' | 'held-launch' | 'parked-map' | 'parked-launch' | 'running' | 'done';

export interface ProcModel {
  rank: number;
  node: string;
  running: boolean;
}

/** What the implementation decided for a job in this step, which the caller must read from the observation. */
export interface Placement {
  /** 'map': the job was mapped afresh; 'launch': it was launched on the mapping it had. */
  kind: 'map' | 'launch';
  /** Launch only: a process of it sat on a node that left, so it must be remapped. */
  remap: boolean;
  /** The job may end FAILED_TO_MAP instead (no room in its sessions). */
  mayFail: boolean;
}

export interface JobModel {
  nspace: string;
  label: string;
  np: number;
  /** The sessions it may map onto ('' = default). */
  sessions: string[];
  stage: Stage;
  state: JobState;
  /** Grow campaigns in progress when it parked at the map-eligible boundary. */
  parkedFor: Set<number>;
  holdBeforeLaunch: boolean;
  /** Its mapping; `running` once launched. */
  procs: ProcModel[];
  /** The step it was launched at. */
  launchedAt?: number;
  placement?: Placement;
  ended?: string;
}

export class ElasticModel {
  readonly nodes = new Map<string, NodeModel>();
  readonly campaigns = new Map<number, CampaignModel>();
  readonly allocs = new Map<string, AllocModel>();
  readonly jobs = new Map<string, JobModel>();
  readonly tools = new Set<string>();
  readonly requests: RequestModel[] = [];
  parkedAtMap: string[] = [];
  parkedAtLaunch: string[] = [];
  step = 0;
  private nextCampaign = 0;
  /** Terminal events the current step calls for. */
  private expected: ExpectedEvent[] = [];
  /** What happened in the current step, for the story. */
  private notes: string[] = [];
  /** How often each interesting situation arose, for the coverage summary. */
  readonly cover = new Map<string, number>();

  private hit(what: string): void {
    this.cover.set(what, (this.cover.get(what) ?? 0) + 1);
  }

  constructor(
    readonly scheduler: string,
    startup: { name: string; slots: number }[],
    schedulerNodes: { name: string; slots: number }[],
    /** What the implementation declares (readings), and what it has shown of the readings it left open. */
    readonly profile: Profile,
  ) {
    for (const n of startup) this.nodes.set(n.name, { name: n.name, slots: n.slots, startup: true, inDvm: true, daemon: 'ready', reported: false, session: '', everJoined: true });
    for (const n of schedulerNodes) this.nodes.set(n.name, { name: n.name, slots: n.slots, startup: false, inDvm: false, reported: false, session: '', everJoined: false });
  }

  // ---- queries ------------------------------------------------------------

  node(name: string): NodeModel {
    return this.nodes.get(name)!;
  }

  isReady(name: string): boolean {
    const n = this.nodes.get(name);
    return n !== undefined && n.inDvm && n.daemon === 'ready';
  }

  /** A process that can issue requests now: the scheduler, a connected tool, rank 0 of a running job. */
  isLive(ns: string): boolean {
    if (ns === this.scheduler || this.tools.has(ns)) return true;
    const j = this.jobs.get(ns);
    return j !== undefined && j.state === 'RUNNING' && j.procs.some((p) => p.rank === 0 && p.running);
  }

  freeSchedulerNodes(): string[] {
    return [...this.nodes.values()].filter((n) => !n.startup && !n.inDvm).map((n) => n.name);
  }

  nodesIn(d: DaemonView): string[] {
    return [...this.nodes.values()].filter((n) => n.inDvm && n.daemon === d).map((n) => n.name);
  }

  gone(): string[] {
    return [...this.nodes.values()].filter((n) => !n.inDvm && n.everJoined).map((n) => n.name);
  }

  liveAllocs(): AllocModel[] {
    return [...this.allocs.values()].filter((a) => a.live);
  }

  runningJobs(): JobModel[] {
    return [...this.jobs.values()].filter((j) => j.state === 'RUNNING');
  }

  /** Jobs held by the caller before a boundary. */
  heldJobs(): JobModel[] {
    return [...this.jobs.values()].filter((j) => j.stage === 'held-map' || j.stage === 'held-launch');
  }

  waitingJobs(): JobModel[] {
    return [...this.jobs.values()].filter((j) => j.stage !== 'running' && j.stage !== 'done');
  }

  shrinkInProgress(): boolean {
    return [...this.campaigns.values()].some((c) => c.kind === 'shrink');
  }

  /** The launch fence: every grow's targets plus every shrink's not-yet-departed targets. */
  fence(): number {
    let n = 0;
    for (const c of this.campaigns.values()) n += c.kind === 'grow' ? c.targets.length : c.pending.size;
    return n;
  }

  /** What the current step calls for (events) and did (notes); resets both. */
  takeStep(): { expected: ExpectedEvent[]; notes: string[] } {
    const out = { expected: this.expected, notes: this.notes };
    this.expected = [];
    this.notes = [];
    return out;
  }

  // ---- requests -------------------------------------------------------------

  request(r: { kind: 'grow' | 'shrink'; requester: string; reqId?: string; allocId?: string; what: string }): RequestModel {
    const m: RequestModel = { ...r, label: r.reqId ?? `request #${this.requests.length + 1}`, step: this.step, accepted: true, delivered: 0 };
    this.requests.push(m);
    return m;
  }

  rejected(r: { kind: 'grow' | 'shrink'; requester: string; reqId?: string; what: string }): RequestModel {
    this.hit(`${r.kind} request rejected`);
    const m = this.request(r);
    m.accepted = false;
    return m;
  }

  addTool(ns: string): void {
    this.tools.add(ns);
  }

  addAllocation(a: { id: string; label: string; owner: string; disposition: number; shared: boolean; creationReqId?: string }): AllocModel {
    const m: AllocModel = { ...a, owners: new Set([a.owner]), nodes: new Set(), live: true };
    this.allocs.set(a.id, m);
    return m;
  }

  // ---- grow -----------------------------------------------------------------

  /**
   * Nodes granted to an allocation (or pushed, with no allocation) join the
   * DVM as 'joining'; one grow campaign when there is at least one.
   */
  grant(nodes: string[], ctx: { request?: RequestModel; alloc?: AllocModel }): CampaignModel | undefined {
    if (nodes.length === 0) {
      this.notes.push('no node joins: no campaign, no event');
      return undefined;
    }
    const id = ++this.nextCampaign;
    const c: CampaignModel = { id, label: `G${id}`, kind: 'grow', targets: [...nodes], pending: new Set(nodes), request: ctx.request, allocId: ctx.alloc?.id };
    this.campaigns.set(id, c);
    for (const name of nodes) {
      const n = this.node(name);
      Object.assign(n, { inDvm: true, daemon: 'joining', reported: false, campaign: id, alloc: ctx.alloc?.id, session: ctx.alloc && !ctx.alloc.shared ? ctx.alloc.id : '', everJoined: true });
      ctx.alloc?.nodes.add(name);
    }
    if (ctx.request) ctx.request.campaign = c;
    this.notes.push(`grow ${c.label} opens: ${nodes.join(',')} joining${ctx.request ? '' : ' (no requester)'}`);
    return c;
  }

  report(name: string): void {
    const n = this.node(name);
    if (!n.inDvm || n.daemon !== 'joining' || n.reported) {
      this.notes.push(`the report changes nothing (${n.inDvm ? `${n.daemon}${n.reported ? ', already reported' : ''}` : 'not in the DVM'})`);
      return;
    }
    n.reported = true;
    const c = this.campaigns.get(n.campaign!)!;
    c.pending.delete(name);
    this.notes.push(`${c.label} waits for ${c.pending.size > 0 ? [...c.pending].join(',') : 'the wireup'}`);
  }

  /** The head node wires every reported daemon: each grow whose targets have all reported completes. */
  wireup(): void {
    for (const c of [...this.campaigns.values()]) {
      if (c.kind === 'grow' && c.pending.size === 0) this.completeGrow(c);
    }
  }

  private completeGrow(c: CampaignModel): void {
    this.campaigns.delete(c.id);
    for (const name of c.targets) {
      const n = this.node(name);
      n.daemon = 'ready';
      n.reported = false;
      n.campaign = undefined;
    }
    this.hit('grow completed');
    this.notes.push(`${c.label} completes: ${c.targets.join(',')} ready`);
    this.end(c, Status.PMIX_DVM_IS_READY);
  }

  /** Every target released before the grow completed: nothing it asked for was realised (IP-ELASTIC-GROW-ALL-RELEASED). */
  private emptyGrow(c: CampaignModel): void {
    this.campaigns.delete(c.id);
    this.hit('grow emptied by a release');
    this.notes.push(`${c.label} ends unrealised (no target left)`);
    this.end(c, Status.PMIX_ERR_DVM_MOD);
  }

  /** The jobs parked at the map-eligible boundary that did not park while grow `c` was in progress: which a failed `c` aborts is a reading. */
  parkedNotFor(c: CampaignModel): JobModel[] {
    return this.parkedAtMap.map((ns) => this.jobs.get(ns)!).filter((j) => !j.parkedFor.has(c.id));
  }

  private failGrow(c: CampaignModel, cause: number | undefined, aborts: 'parked-during-grow' | 'all-parked-at-map'): void {
    this.campaigns.delete(c.id);
    for (const name of c.targets) if (this.node(name).inDvm) this.leaveDvm(name);
    const aborted: string[] = [];
    for (const ns of [...this.parkedAtMap]) {
      const j = this.jobs.get(ns)!;
      if (!j.parkedFor.has(c.id) && aborts === 'parked-during-grow') continue;
      if (!j.parkedFor.has(c.id)) this.hit('parked job aborted by a grow it did not wait on (all-parked-at-map)');
      this.parkedAtMap = this.parkedAtMap.filter((x) => x !== ns);
      j.stage = 'done';
      j.state = 'NEVER_LAUNCHED';
      j.ended = j.parkedFor.has(c.id) ? `aborted: the grow ${c.label} it waited on failed` : `aborted: the grow ${c.label} failed while it was parked at the map-eligible boundary (reading grow-failure-aborts=all-parked-at-map)`;
      aborted.push(j.label);
    }
    this.hit('grow failed');
    if (aborted.length > 0) this.hit('job aborted by its grow');
    this.notes.push(`${c.label} fails and is rolled back (${c.targets.join(',')} leave)${aborted.length > 0 ? `; never launched: ${aborted.join(', ')}` : ''}`);
    this.end(c, Status.PMIX_ERR_DVM_MOD, cause);
  }

  // ---- shrink ---------------------------------------------------------------

  /**
   * Scheduler nodes go back to the scheduler: each daemon becomes a target
   * of one new shrink campaign (none if there is no daemon to remove). A
   * joining node stops being its grow's target first.
   */
  shrink(nodes: string[], ctx: { request?: RequestModel; allocId?: string }): CampaignModel | undefined {
    const targets = nodes.filter((name) => this.node(name).inDvm && !this.node(name).startup);
    if (targets.length === 0) {
      this.notes.push('no daemon to remove: no campaign, no event');
      return undefined;
    }
    const id = ++this.nextCampaign;
    const c: CampaignModel = { id, label: `S${id}`, kind: 'shrink', targets: [...targets], pending: new Set(targets), request: ctx.request, allocId: ctx.allocId };
    for (const name of targets) {
      const n = this.node(name);
      if (n.daemon === 'joining') {
        const g = this.campaigns.get(n.campaign!)!;
        g.targets = g.targets.filter((t) => t !== name);
        g.pending.delete(name);
        this.hit('grow target released');
        this.notes.push(`${name} stops being a target of ${g.label}`);
        if (g.targets.length === 0) this.emptyGrow(g);
      }
      if (n.alloc !== undefined) this.allocs.get(n.alloc)?.nodes.delete(name);
      Object.assign(n, { daemon: 'leaving', reported: false, campaign: id, alloc: undefined, session: '', leavingSince: this.step });
    }
    this.campaigns.set(id, c);
    if (ctx.request) ctx.request.campaign = c;
    this.hit(ctx.request ? (targets.length > 1 ? 'shrink of 2+ nodes' : 'shrink of 1 node') : 'shrink without requester');
    this.notes.push(`shrink ${c.label} opens: ${targets.join(',')} leaving${ctx.request ? '' : ' (no requester)'}`);
    return c;
  }

  /** PMIX_ALLOC_RELEASE of a whole allocation, or a scheduler reclaim (no request). */
  endAllocation(a: AllocModel, request: RequestModel | undefined, why: string): void {
    a.live = false;
    this.notes.push(`${a.label} ends (${why})`);
    this.shrink([...a.nodes], { request, allocId: a.id });
  }

  /** PMIX_ALLOC_RELEASE of some nodes: the allocation lives on without them. */
  releaseNodes(nodes: string[], request: RequestModel): void {
    this.shrink(nodes, { request, allocId: request.allocId });
  }

  /**
   * A daemon exits, crashes or fails to start. `left`: for a loss that
   * belongs to no campaign, whether the node left the DVM (the
   * implementation's choice). `aborts`: for a grow target, which parked jobs
   * its failure aborts (reading grow-failure-aborts; the caller's, read from
   * the observation when undeclared). `cause`: the one its PMIX_ERR_DVM_MOD
   * must carry; undefined when the runtime chooses it (daemon-faults).
   */
  daemonGone(name: string, cause: number | undefined, opts: { left: boolean; aborts?: 'parked-during-grow' | 'all-parked-at-map' }): void {
    const n = this.node(name);
    if (!n.inDvm) {
      this.hit('repeated or late departure');
      this.notes.push(`no effect: ${name} is no longer in the DVM (counted once)`);
      return;
    }
    if (n.daemon === 'leaving') {
      const c = this.campaigns.get(n.campaign!)!;
      c.pending.delete(name);
      this.leaveDvm(name);
      this.notes.push(`${name} has departed${c.pending.size > 0 ? `; ${c.label} waits for ${[...c.pending].join(',')}` : ''}`);
      if (c.pending.size === 0) {
        this.campaigns.delete(c.id);
        this.notes.push(`${c.label} completes`);
        this.end(c, Status.PMIX_DVM_IS_READY);
      }
      return;
    }
    if (n.daemon === 'joining') {
      this.failGrow(this.campaigns.get(n.campaign!)!, cause, opts.aborts ?? this.profile.reading('grow-failure-aborts') ?? 'parked-during-grow');
      return;
    }
    // A daemon that belongs to no campaign (IP-ELASTIC-UNRELATED-LOSS).
    if (opts.left) {
      if (n.alloc !== undefined) this.allocs.get(n.alloc)?.nodes.delete(name);
      this.leaveDvm(name);
      this.hit('unrelated loss');
      this.notes.push(`${name} is lost (it belongs to no campaign)`);
    } else {
      this.notes.push(`${name} stays (it belongs to no campaign)`);
    }
  }

  /** The node leaves the DVM; processes still running there stop. */
  private leaveDvm(name: string): void {
    const n = this.node(name);
    if (n.alloc !== undefined) this.allocs.get(n.alloc)?.nodes.delete(name);
    Object.assign(n, { inDvm: false, daemon: undefined, reported: false, campaign: undefined, alloc: undefined, session: '', leavingSince: undefined });
    for (const j of this.jobs.values()) {
      let hit = false;
      for (const p of j.procs) {
        if (p.running && p.node === name) {
          p.running = false;
          hit = true;
        }
      }
      if (hit && j.state === 'RUNNING' && j.procs.every((p) => !p.running)) {
        j.state = 'KILLED';
        j.stage = 'done';
        j.ended = `killed: its last process was on ${name}, which left the DVM`;
        this.hit('job killed');
        this.notes.push(`${j.label} is killed (its node ${name} left)`);
        this.ownerEnded(j.nspace);
      }
    }
  }

  /** The owning namespace ended: NONE returns the nodes (a shrink with no requester), DEFAULT unreserves them. */
  private ownerEnded(ns: string): void {
    for (const a of this.liveAllocs()) {
      if (a.owner !== ns) continue;
      if (a.disposition === Inheritance.PMIX_ALLOC_INHERIT_NONE) {
        this.endAllocation(a, undefined, `NONE: its owner ${this.jobs.get(ns)?.label ?? ns} ended`);
      } else {
        a.live = false;
        for (const name of a.nodes) {
          const n = this.node(name);
          n.alloc = undefined;
          n.session = '';
        }
        this.notes.push(`${a.label} is unreserved (DEFAULT: its owner ${this.jobs.get(ns)?.label ?? ns} ended)`);
      }
    }
  }

  private end(c: CampaignModel, code: number, cause?: number): void {
    const r = c.request;
    if (!r) return;
    const optional = !this.isLive(r.requester) || r.maybe === true;
    const ids = { driving: r.reqId, creation: r.allocId !== undefined ? this.allocs.get(r.allocId)?.creationReqId : undefined };
    const reqIds: (string | undefined)[] = [];
    if (this.profile.allows('completion-request-id', 'driving')) reqIds.push(ids.driving);
    if (this.profile.allows('completion-request-id', 'creation') && !reqIds.includes(ids.creation)) reqIds.push(ids.creation);
    r.outcome = { code, cause, step: this.step, optional, reqIds };
    this.expected.push({ code, to: r.requester, allocId: r.allocId ?? '', ids, reqIds, cause, optional, request: r });
  }

  /**
   * A runtime whose daemons act on their own: what an observation shows of
   * their progress since the model last looked, taken as the rules allow
   * it. A grow every one of whose targets is ready has had every daemon
   * report in and the wireup (a grow's targets are wired together, so one
   * ready without the others is left for the node check to report); a
   * leaving target no longer in the DVM has departed. Nothing else is
   * inferred: a daemon that fails on its own is not modelled, so its
   * absence is reported, not excused. Then admits what may now go on.
   */
  autonomous(nodes: NodeView[]): void {
    const seen = new Map(nodes.map((n) => [n.name, n]));
    for (const c of [...this.campaigns.values()]) {
      if (!this.campaigns.has(c.id)) continue;
      if (c.kind === 'grow') {
        if (c.targets.length > 0 && c.targets.every((t) => seen.get(t)?.daemon === 'ready')) {
          for (const t of [...c.pending]) this.report(t);
          this.hit('grow completed on its own');
          this.completeGrow(c);
        }
      } else {
        for (const t of [...c.pending]) {
          if (!seen.has(t)) {
            this.hit('daemon departed on its own');
            this.daemonGone(t, undefined, { left: true });
          }
        }
      }
    }
    this.settle();
  }

  // ---- jobs -----------------------------------------------------------------

  /** An accepted spawn. `immediate`: no hold and no campaign, so it was mapped at once (a refusal, not FAILED_TO_MAP, if it did not fit). */
  spawn(j: { nspace: string; label: string; np: number; sessions: string[]; owners: AllocModel[] }, hold: 'map' | 'launch' | undefined, immediate: boolean): JobModel {
    const job: JobModel = { ...j, stage: 'held-map', state: 'PENDING', parkedFor: new Set(), holdBeforeLaunch: false, procs: [] };
    this.jobs.set(j.nspace, job);
    for (const a of j.owners) a.owners.add(j.nspace);
    if (hold === 'map') {
      this.notes.push(`${job.label} is held before the map-eligible boundary`);
      return job;
    }
    this.reachMap(job, hold === 'launch');
    if (immediate && job.placement) job.placement.mayFail = false;
    return job;
  }

  advance(job: JobModel, to: 'map' | 'launch', holdBeforeLaunch: boolean): void {
    if (job.stage === 'held-map') this.reachMap(job, to === 'map' && holdBeforeLaunch);
    else if (job.stage === 'held-launch') this.reachLaunch(job);
    else throw new Error(`advance: ${job.label} is not held (${job.stage})`);
  }

  terminate(job: JobModel): void {
    this.parkedAtMap = this.parkedAtMap.filter((x) => x !== job.nspace);
    this.parkedAtLaunch = this.parkedAtLaunch.filter((x) => x !== job.nspace);
    for (const p of job.procs) p.running = false;
    job.state = 'TERMINATED';
    job.stage = 'done';
    job.ended = 'terminated';
    this.ownerEnded(job.nspace);
  }

  /** The caller read that the implementation could not map the job. */
  failedToMap(job: JobModel): void {
    job.stage = 'done';
    job.state = 'FAILED_TO_MAP';
    job.ended = 'failed to map';
    job.procs = [];
    job.placement = undefined;
    this.hit('failed to map');
    this.notes.push(`${job.label} failed to map`);
  }

  /** The caller read where the implementation placed the job. */
  placed(job: JobModel, procs: ProcModel[]): void {
    if (procs.some((p) => !this.node(p.node).startup)) this.hit('job placed on a scheduler node');
    job.procs = procs.map((p) => ({ ...p }));
    job.placement = undefined;
  }

  private reachMap(job: JobModel, holdBeforeLaunch: boolean): void {
    if (this.campaigns.size > 0) {
      job.stage = 'parked-map';
      job.state = 'WAITING_FOR_DAEMONS';
      job.parkedFor = new Set([...this.campaigns.values()].filter((c) => c.kind === 'grow').map((c) => c.id));
      job.holdBeforeLaunch = holdBeforeLaunch;
      this.parkedAtMap.push(job.nspace);
      this.hit('parked at map');
      this.notes.push(`${job.label} parks at the map-eligible boundary`);
      return;
    }
    this.map(job, holdBeforeLaunch);
  }

  private map(job: JobModel, holdBeforeLaunch: boolean): void {
    job.placement = { kind: 'map', remap: false, mayFail: true };
    if (holdBeforeLaunch) {
      job.stage = 'held-launch';
      job.state = 'PENDING';
      this.notes.push(`${job.label} is mapped and held before the launch boundary`);
    } else {
      this.reachLaunch(job);
    }
  }

  private reachLaunch(job: JobModel): void {
    if (this.shrinkInProgress()) {
      job.stage = 'parked-launch';
      job.state = 'WAITING_FOR_DAEMONS';
      this.parkedAtLaunch.push(job.nspace);
      this.hit('parked at launch');
      this.notes.push(`${job.label} parks at the launch boundary`);
      return;
    }
    this.launch(job);
  }

  private launch(job: JobModel): void {
    if (!job.placement) {
      const remap = job.procs.some((p) => !this.isReady(p.node));
      job.placement = { kind: 'launch', remap, mayFail: remap };
      if (remap) this.hit('launch needing a remap');
    }
    job.stage = 'running';
    job.state = 'RUNNING';
    job.launchedAt = this.step;
    this.hit('job launched');
    this.notes.push(`${job.label} launches${job.placement.remap ? ' (a process of it sat on a node that left: it must be remapped first)' : ''}`);
  }

  /** Admit what may now go on: launch-parked jobs once no shrink runs, map-parked jobs once no campaign runs. */
  settle(): void {
    if (!this.shrinkInProgress() && this.parkedAtLaunch.length > 0) {
      const waiting = this.parkedAtLaunch;
      this.parkedAtLaunch = [];
      for (const ns of waiting) this.launch(this.jobs.get(ns)!);
    }
    if (this.campaigns.size === 0 && this.parkedAtMap.length > 0) {
      const waiting = this.parkedAtMap;
      this.parkedAtMap = [];
      for (const ns of waiting) {
        const job = this.jobs.get(ns)!;
        job.parkedFor = new Set();
        this.map(job, job.holdBeforeLaunch);
      }
    }
  }
}
