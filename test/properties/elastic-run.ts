/** The elastic property's run: the implementation under test, the model beside it, and the actions a generated op resolves to (elastic.property.test.ts). */
import assert from 'node:assert/strict';
import type { Implementation } from '../../seam/implementation';
import type { DaemonEvent, Info, Introspection, NodeSpec, Snapshot } from '../../seam/messages';
import { Status } from '../../seam/pmix';
import { ElasticModel, type AllocModel, type JobModel } from './elastic-oracle';
import { type AllocRef, type Op } from './elastic-ops';
import { Profile, eventsBySeq } from './profile';


/** A small default session, so default-session jobs spill onto scheduler nodes that later leave. */
export const STARTUP: NodeSpec[] = ['n1'].map((name) => ({ name, slots: 2 }));
export const SCHEDULER: NodeSpec[] = Array.from({ length: 8 }, (_, i) => ({ name: `s${i + 1}`, slots: 2 }));
export const TOOLS = ['T1', 'T2'];
export const RUNS = 300;
export const MAX_OPS = Math.max(1, Number(process.env.PMIX_PROPERTY_MAX_OPS ?? 30) || 30);
/**
 * Known engine deviations to steer around (comma-separated), so the rest of
 * the contract can still be explored while one is being fixed. Off by
 * default: the property then reports them.
 *  held-launch-on-departed-node: never move a job held before the launch
 *  boundary on while a node of its mapping has left the DVM and no shrink
 *  is in progress (it is terminated instead).
 */

export interface Observation {
  snap: Snapshot;
  intro?: Introspection;
}

/** What one step does, resolved against the state the run has reached. */
export type Action =
  | { a: 'grow'; directive: 'NEW' | 'EXTEND'; by: string; list?: string[]; count?: number; reqId?: string; share?: boolean; none?: boolean; alloc?: AllocModel }
  | { a: 'release'; by: string; alloc: AllocModel; nodes?: string[]; withId: boolean; reqId?: string }
  | { a: 'reclaim'; alloc: AllocModel }
  | { a: 'push'; nodes: string[] }
  | { a: 'daemon'; event: DaemonEvent['event']; node: string; cause?: number }
  | { a: 'wireup' }
  | { a: 'spawn'; by: string; np: number; hold?: 'map' | 'launch'; into?: AllocModel }
  | { a: 'advance'; job: JobModel; to: 'map' | 'launch'; holdBeforeLaunch: boolean }
  | { a: 'terminate'; job: JobModel }
  /** Nothing but looking: a runtime whose daemons act on their own moves on meanwhile. */
  | { a: 'watch' };

export const fail = (msg: string): never => assert.fail(msg);
export const proc = (nspace: string) => ({ nspace, rank: 0 });
export const infoValue = (info: Info[], key: string) => info.find((i) => i.key === key)?.value;
export const rotate = <T>(xs: T[], k: number): T[] => (xs.length === 0 ? xs : [...xs.slice(k % xs.length), ...xs.slice(0, k % xs.length)]);
export const STATUS_NAME: Record<number, string> = { [Status.PMIX_DVM_IS_READY]: 'PMIX_DVM_IS_READY', [Status.PMIX_ERR_DVM_MOD]: 'PMIX_ERR_DVM_MOD' };
export const TERMINAL: readonly number[] = [Status.PMIX_DVM_IS_READY, Status.PMIX_ERR_DVM_MOD];

/** Totals over the whole property run, for the closing summary line. */
export const stats = { runs: 0, ops: 0, steps: 0, drainSteps: 0, longest: 0, campaigns: 0, events: 0 };
export const cover = new Map<string, number>();

export class Run {
  readonly log: string[] = [];
  readonly labels = new Map<string, string>();
  readonly made: AllocModel[] = [];
  model!: ElasticModel;
  profile!: Profile;
  /** Its daemons act on their own (no daemon-control): the run only watches them, and kills one with daemon-faults. */
  autonomous = false;
  /** Terminal events already judged: the next step's are those after them (in seq order). */
  seen = 0;
  /** The last observation a step judged. */
  last?: Observation;
  toolNs: string[] = [];
  private counters = { req: 0, job: 0, alloc: 0 };
  constructor(readonly impl: Implementation) {}

  /**
   * What a client sees now: its lists in any order (they are sets: the
   * checks look things up, and compare with sameObservation), its events in
   * seq order (their only order). It does not tell the model: with daemons
   * acting on their own, call showModel() once the model holds everything
   * the run has done.
   */
  async observe(): Promise<Observation> {
    const snap = eventsBySeq(await this.impl.observe({}));
    const wantIntro = this.profile.has('introspection') || this.profile.has('elastic-internals');
    const intro = this.impl.inspect && wantIntro ? await this.impl.inspect() : undefined;
    return { snap, intro };
  }

  /** With daemons acting on their own: the model takes the progress the observation shows (ElasticModel.autonomous). */
  showModel(o: Observation): void {
    if (this.autonomous) this.model.autonomous(o.snap.nodes);
  }

  freshReqId(): string {
    return `q${++this.counters.req}`;
  }
  jobLabel(): string {
    return `J${++this.counters.job}`;
  }
  allocLabel(): string {
    return `R${++this.counters.alloc}`;
  }

  /** How a process is named in a step. */
  who(ns: string): string {
    if (ns === this.model.scheduler) return 'the scheduler';
    const l = this.labels.get(ns) ?? ns;
    return this.model.tools.has(ns) ? `tool "${l}"` : `job "${l}"`;
  }
  label(ns: string): string {
    return ns === this.model.scheduler ? 'the scheduler' : (this.labels.get(ns) ?? ns);
  }

  say(...lines: string[]): void {
    this.log.push(...lines);
  }

  pickAlloc(r: AllocRef, ownedBy?: string): AllocModel | undefined {
    const live = this.model.liveAllocs();
    let pool = r.among === 'live' && live.length > 0 ? live : this.made;
    if (ownedBy !== undefined) {
      const mine = pool.filter((a) => a.owners.has(ownedBy));
      if (mine.length > 0) pool = mine;
    }
    return pool.length === 0 ? undefined : pool[r.index % pool.length];
  }

  /** Processes that can issue requests: connected tools and rank 0 of running jobs. */
  liveApps(): string[] {
    return this.model.runningJobs().map((j) => j.nspace).filter((ns) => this.model.isLive(ns));
  }

  /** The op's step(s): one, or several for `complete`; none when the op names nothing. */
  resolve(op: Op): Action[] {
    return this.resolveAll(op).map((a) => this.possible(a));
  }

  /**
   * What the harness can do to this implementation: without daemon-control
   * its daemons act on their own, so reports, exits and wireups become
   * watching (they happen by themselves), and a daemon failure becomes a
   * kill (daemon-faults: a crash, whose cause the runtime chooses), or
   * watching without that either.
   */
  private possible(a: Action): Action {
    if (a.a === 'wireup' && this.autonomous) return { a: 'watch' };
    if (a.a !== 'daemon' || !this.autonomous) return a;
    if ((a.event === 'crash' || a.event === 'fail-to-start') && this.profile.has('daemon-faults')) return { a: 'daemon', event: 'crash', node: a.node };
    return { a: 'watch' };
  }

  private resolveAll(op: Op): Action[] {
    if (op.op !== 'complete') {
      const a = this.resolveOne(op);
      return a ? [a] : [];
    }
    const m = this.model;
    const camps = [...m.campaigns.values()].filter((c) => c.kind === op.kind);
    if (camps.length === 0) return [];
    const c = camps[op.index % camps.length];
    if (c.kind === 'grow') {
      if (op.fail) {
        const node = [...c.pending, ...c.targets][op.index % c.targets.length];
        return [op.crash ? { a: 'daemon', event: 'crash', node, cause: Status.PMIX_ERR_UNREACH } : { a: 'daemon', event: 'fail-to-start', node, cause: Status.PMIX_ERR_TIMEOUT }];
      }
      return [...[...c.pending].map((node): Action => ({ a: 'daemon', event: 'report', node })), { a: 'wireup' }];
    }
    return [...c.pending].flatMap((node): Action[] => {
      const go: Action = op.crash ? { a: 'daemon', event: 'crash', node, cause: Status.PMIX_ERR_UNREACH } : { a: 'daemon', event: 'exit', node };
      return op.repeat ? [go, go] : [go];
    });
  }

  private resolveOne(op: Exclude<Op, { op: 'complete' }>): Action | undefined {
    const m = this.model;
    switch (op.op) {
      case 'grow': {
        const apps = this.liveApps();
        const by = op.by.kind === 'app' && apps.length > 0 ? apps[op.by.index % apps.length] : this.toolNs[op.by.index % this.toolNs.length];
        const free = m.freeSchedulerNodes();
        const list = op.byList && free.length > 0 ? rotate(free, op.by.index).slice(0, op.nodes) : undefined;
        const count = list ? undefined : op.nodes;
        const reqId = op.reqId ? this.freshReqId() : undefined;
        if (op.directive === 'NEW') return { a: 'grow', directive: 'NEW', by, list, count, reqId, share: op.share === true, none: op.none === true };
        const alloc = this.pickAlloc(op.alloc!, op.foreign ? undefined : by);
        return alloc ? { a: 'grow', directive: 'EXTEND', by, list, count, reqId, alloc } : undefined;
      }
      case 'release': {
        const alloc = this.pickAlloc(op.alloc);
        if (!alloc) return undefined;
        let by: string;
        if (op.by === 'scheduler' && this.profile.has('scheduler-requests')) by = m.scheduler;
        else if (op.by !== 'stranger') {
          const owners = [...alloc.owners].filter((o) => m.isLive(o));
          by = owners.length > 0 ? owners[op.alloc.index % owners.length] : m.scheduler;
        } else {
          const strangers = [...this.toolNs, ...this.liveApps()].filter((x) => !alloc.owners.has(x));
          if (strangers.length === 0) return undefined;
          by = strangers[op.alloc.index % strangers.length];
        }
        const mine = [...alloc.nodes].sort();
        const nodes = op.nodes !== undefined && alloc.live && mine.length > 0 ? rotate(mine, op.alloc.index).slice(0, op.nodes) : undefined;
        const withId = nodes === undefined || op.withId === true;
        return { a: 'release', by, alloc, nodes, withId, reqId: op.reqId && withId ? this.freshReqId() : undefined };
      }
      case 'reclaim': {
        const alloc = this.pickAlloc(op.alloc);
        return alloc && this.profile.has('scheduler-control') ? { a: 'reclaim', alloc } : undefined;
      }
      case 'push': {
        if (!this.profile.has('scheduler-control')) return undefined;
        const free = m.freeSchedulerNodes();
        return free.length === 0 ? undefined : { a: 'push', nodes: free.slice(-op.nodes) };
      }
      case 'daemon': {
        const pool =
          op.among === 'joining' ? m.nodesIn('joining') : op.among === 'leaving' ? m.nodesIn('leaving') : op.among === 'ready' ? m.nodesIn('ready').filter((n) => !m.node(n).startup) : m.gone();
        if (pool.length === 0) return undefined;
        const node = pool[op.index % pool.length];
        const cause = op.event === 'crash' ? Status.PMIX_ERR_UNREACH : op.event === 'fail-to-start' ? Status.PMIX_ERR_TIMEOUT : undefined;
        return { a: 'daemon', event: op.event, node, cause };
      }
      case 'wireup':
        return { a: 'wireup' };
      case 'spawn': {
        const by = this.toolNs[op.by % this.toolNs.length];
        const own = op.into === undefined ? [] : m.liveAllocs().filter((a) => a.owner === by && !a.shared);
        const into = own.length > 0 ? own[op.into! % own.length] : undefined;
        return { a: 'spawn', by, np: op.np, hold: this.profile.has('job-staging') ? op.hold : undefined, into };
      }
      case 'advance': {
        const held = m.heldJobs();
        if (held.length === 0) return undefined;
        const job = held[op.job % held.length];
        const to = job.stage === 'held-launch' ? 'launch' : op.to;
        return { a: 'advance', job, to, holdBeforeLaunch: to === 'map' && op.holdBeforeLaunch === true };
      }
      case 'terminate': {
        const pool = op.among === 'running' ? m.runningJobs() : m.waitingJobs();
        return pool.length === 0 ? undefined : { a: 'terminate', job: pool[op.job % pool.length] };
      }
    }
  }
}
