/**
 * An independent model of the reservation lifecycle, written from the
 * specification's rules (node-reservation spec, "Lifecycle" /
 * "Conformance summary", and features/INTERPRETATIONS.md: Lifecycle,
 * IP-DEPARTING-PROCESSES, IP-SHARED-ALLOCATION-ID, IP-TOOL-TARGET-SHARE,
 * IP-PARENT-SESSION), not from any engine's code:
 *
 *  - an allocation ends only on a release by an owner or the scheduler, a
 *    scheduler reclaim, DVM teardown, or its disposition firing;
 *  - NONE / DEFAULT fire when the owning namespace terminates (a job ends,
 *    a tool disconnects); CHILD / CHILD_DEFAULT when the owning namespace
 *    and every derived child have terminated;
 *  - derived children: the owner's spawn descendants at any depth, plus
 *    every job spawned into the reservation and its descendants;
 *  - NONE / CHILD and release / reclaim return the nodes to the scheduler
 *    (scheduler nodes leave the DVM, taking the processes on them; startup
 *    nodes revert to the default session); DEFAULT / CHILD_DEFAULT unreserve
 *    (every node stays, in the default session) and never return a node;
 *  - an ended allocation's id resolves to nothing (a spawn naming it:
 *    PMIX_ERR_NOT_FOUND; a release naming it is refused, IP-RELEASE-ERRORS);
 *  - only owners (owning namespace, jobs spawned into the reservation) and
 *    the scheduler may release; others are refused (any error status,
 *    IP-RELEASE-ERRORS), a spawn into it with PMIX_ERR_NO_PERMISSIONS;
 *  - a shared allocation (PMIX_ALLOC_SHARE=true) has its own id and owning
 *    namespace; as a spawn target it denotes the default session, so naming
 *    it makes no one an owner (nor, being no reservation, a derived child).
 *
 * Which node the scheduler grants is its choice: the caller tells the model
 * (read from the observation), and where a job's process was placed.
 */
import type { NodeSpec } from '../../seam/messages';
import { Inheritance, Status } from '../../seam/pmix';

export const NONE = Inheritance.PMIX_ALLOC_INHERIT_NONE;
export const CHILD = Inheritance.PMIX_ALLOC_INHERIT_CHILD;
export const DEFAULT = Inheritance.PMIX_ALLOC_INHERIT_DEFAULT;
export const CHILD_DEFAULT = Inheritance.PMIX_ALLOC_INHERIT_CHILD_DEFAULT;
export const DISPOSITION_NAME: Record<number, string> = { 1: 'NONE', 2: 'CHILD', 3: 'DEFAULT', 4: 'CHILD_DEFAULT' };

const isChildFlavour = (d: number) => d === CHILD || d === CHILD_DEFAULT;
const returnsNodes = (d: number) => d === NONE || d === CHILD;

export type EndCause = 'release' | 'reclaim' | 'teardown' | 'disposition';
/** return: nodes go back to the scheduler; unreserve: nodes stay in the DVM, default session. */
export type Fate = 'return' | 'unreserve';

export interface JobModel {
  nspace: string;
  /** The requester that spawned it (a tool, a job or the scheduler). */
  parent: string;
  running: boolean;
  /** Where its single process was placed. */
  node: string;
  /** The reservation it runs in ('' = default session): what its untargeted children inherit. */
  primary: string;
  /** How it ended, for messages. */
  ended?: string;
}

export interface AllocModel {
  id: string;
  label: string;
  owner: string;
  /** The process that asked for it. */
  requester: string;
  disposition: number;
  shared: boolean;
  nodes: string[];
  /** The authorisation set: the owning namespace and every job spawned into it. */
  owners: Set<string>;
  /** Jobs spawned into it (they and their descendants are derived children). */
  into: Set<string>;
  live: boolean;
  end?: { cause: EndCause; fate: Fate; step: number; why: string };
}

export type SpawnVerdict =
  /**
   * Every target resolves. `fits`: its sessions have a free slot, so it must
   * succeed there; otherwise it may be refused (any error status: no
   * document names one) or placed anyway, inside its sessions
   * (IP-SLOT-CAPACITY: for a job larger than its candidate nodes' free slots
   * the suite checks only that no process lands outside its sessions).
   */
  | { ok: true; fits: boolean; sessions: string[]; into: string[]; primary: string }
  /** Refused: with one of `statuses` (several when several entries fail: which wins is unspecified). */
  | { ok: false; statuses: number[]; why: string };

export class LifecycleModel {
  readonly jobs = new Map<string, JobModel>();
  /** Tool namespace -> still connected. */
  readonly tools = new Map<string, boolean>();
  readonly allocs = new Map<string, AllocModel>();
  /** The expected DVM: every member node and whom its capacity is available to. */
  readonly dvm = new Map<string, string>();
  private readonly children = new Map<string, string[]>();
  private readonly slots = new Map<string, number>();
  private readonly startup: Set<string>;
  /** The step being applied, for the record of ends. */
  step = 0;

  constructor(
    readonly scheduler: string,
    startupNodes: NodeSpec[],
    schedulerNodes: NodeSpec[],
  ) {
    this.startup = new Set(startupNodes.map((n) => n.name));
    for (const n of [...startupNodes, ...schedulerNodes]) this.slots.set(n.name, n.slots);
    for (const n of startupNodes) this.dvm.set(n.name, '');
  }

  isStartup(node: string): boolean {
    return this.startup.has(node);
  }

  /** A namespace is running while its job runs, its tool is connected; the scheduler always is. */
  isRunning(ns: string): boolean {
    return ns === this.scheduler || this.tools.get(ns) === true || this.jobs.get(ns)?.running === true;
  }

  runningJobs(): string[] {
    return [...this.jobs.values()].filter((j) => j.running).map((j) => j.nspace);
  }

  connectedTools(): string[] {
    return [...this.tools].filter(([, c]) => c).map(([t]) => t);
  }

  liveAllocs(): AllocModel[] {
    return [...this.allocs.values()].filter((a) => a.live);
  }

  /** Spawn descendants of a namespace, at any depth. */
  descendants(ns: string): Set<string> {
    const out = new Set<string>();
    const stack = [...(this.children.get(ns) ?? [])];
    while (stack.length > 0) {
      const j = stack.pop()!;
      if (out.has(j)) continue;
      out.add(j);
      stack.push(...(this.children.get(j) ?? []));
    }
    return out;
  }

  /** The derived children of an allocation (IP-DERIVED-CHILDREN). */
  derived(a: AllocModel): Set<string> {
    const out = this.descendants(a.owner);
    for (const j of a.into) {
      out.add(j);
      for (const d of this.descendants(j)) out.add(d);
    }
    return out;
  }

  usedSlots(node: string): number {
    let n = 0;
    for (const j of this.jobs.values()) if (j.running && j.node === node) n++;
    return n;
  }

  freeSlots(node: string): number {
    return (this.slots.get(node) ?? 0) - this.usedSlots(node);
  }

  /** Why the disposition fires now, or undefined if it does not. */
  private firing(a: AllocModel): string | undefined {
    if (this.isRunning(a.owner)) return undefined;
    if (!isChildFlavour(a.disposition)) return `owning namespace ${a.owner} terminated`;
    const running = [...this.derived(a)].filter((j) => this.isRunning(j));
    if (running.length > 0) return undefined;
    return `owning namespace ${a.owner} and every derived child terminated`;
  }

  /** End an allocation and move its nodes; processes on departing nodes stop (IP-DEPARTING-PROCESSES). */
  private end(a: AllocModel, cause: EndCause, fate: Fate, why: string): void {
    a.live = false;
    a.end = { cause, fate, step: this.step, why };
    for (const n of a.nodes) {
      if (fate === 'unreserve' || this.isStartup(n)) {
        this.dvm.set(n, '');
      } else {
        this.dvm.delete(n);
        for (const j of this.jobs.values()) {
          if (j.running && j.node === n) {
            j.running = false;
            j.ended = `killed: its node ${n} left the DVM with ${a.label}`;
          }
        }
      }
    }
  }

  /** Fire every disposition that is now due, to a fixpoint (departing nodes may end more namespaces). */
  private settle(): void {
    for (;;) {
      const due = this.liveAllocs()
        .map((a) => ({ a, why: this.firing(a) }))
        .filter((x) => x.why !== undefined);
      if (due.length === 0) return;
      for (const { a, why } of due) {
        if (!a.live) continue;
        this.end(a, 'disposition', returnsNodes(a.disposition) ? 'return' : 'unreserve', `${DISPOSITION_NAME[a.disposition]} fired: ${why}`);
      }
    }
  }

  // ---- events -------------------------------------------------------------

  addTool(ns: string): void {
    this.tools.set(ns, true);
  }

  disconnectTool(ns: string): void {
    this.tools.set(ns, false);
    this.settle();
  }

  terminateJob(ns: string): void {
    const j = this.jobs.get(ns)!;
    j.running = false;
    j.ended = 'terminated';
    this.settle();
  }

  addAllocation(a: { id: string; label: string; owner: string; requester: string; disposition: number; shared: boolean; nodes: string[] }): AllocModel {
    const m: AllocModel = { ...a, owners: new Set([a.owner]), into: new Set(), live: true };
    this.allocs.set(a.id, m);
    for (const n of a.nodes) this.dvm.set(n, a.shared ? '' : a.id);
    this.settle(); // nothing is due: the owner is running
    return m;
  }

  addJob(nspace: string, parent: string, node: string, v: Extract<SpawnVerdict, { ok: true }>): void {
    this.jobs.set(nspace, { nspace, parent, running: true, node, primary: v.primary });
    this.children.set(parent, [...(this.children.get(parent) ?? []), nspace]);
    for (const id of v.into) {
      const a = this.allocs.get(id)!;
      a.owners.add(nspace);
      a.into.add(nspace);
    }
  }

  release(id: string, by: string): void {
    const a = this.allocs.get(id)!;
    this.end(a, 'release', 'return', `released by ${by}`);
    this.settle();
  }

  reclaim(id: string): void {
    const a = this.allocs.get(id)!;
    if (!a.live) return;
    this.end(a, 'reclaim', 'return', 'reclaimed by the scheduler');
    this.settle();
  }

  teardown(): void {
    for (const a of this.liveAllocs()) {
      a.live = false;
      a.end = { cause: 'teardown', fate: 'return', step: this.step, why: 'DVM teardown' };
    }
  }

  // ---- verdicts -----------------------------------------------------------

  /**
   * What a spawn of one process by `requester` must do. `entries` is the
   * PMIX_SPAWN_TARGET (undefined: absent). A refused entry wins; then
   * whether the job fits a free slot of its sessions.
   */
  spawnVerdict(requester: string, entries: string[] | undefined): SpawnVerdict {
    let sessions: string[];
    let into: string[];
    if (entries === undefined) {
      const parent = this.jobs.get(requester);
      const p = parent?.primary ?? '';
      const live = p !== '' && this.allocs.get(p)?.live === true;
      sessions = [live ? p : ''];
      into = live ? [p] : [];
    } else {
      sessions = [];
      into = [];
      const refusals: { status: number; why: string }[] = [];
      for (const e of entries) {
        if (e === '') {
          sessions.push('');
          continue;
        }
        const a = this.allocs.get(e);
        if (!a || !a.live) {
          refusals.push({ status: Status.PMIX_ERR_NOT_FOUND, why: `${a?.label ?? e} has ended, so its id resolves to nothing` });
        } else if (a.shared) {
          sessions.push('');
        } else if (requester !== this.scheduler && !a.owners.has(requester)) {
          refusals.push({ status: Status.PMIX_ERR_NO_PERMISSIONS, why: `${requester} is not an owner of ${a.label} (owners: ${[...a.owners].join(', ')})` });
        } else {
          sessions.push(e);
          into.push(e);
        }
      }
      if (refusals.length > 0) return { ok: false, statuses: refusals.map((r) => r.status), why: refusals.map((r) => r.why).join('; ') };
    }
    const fits = [...this.dvm].some(([n, to]) => sessions.includes(to) && this.freeSlots(n) > 0);
    return { ok: true, fits, sessions, into, primary: into[0] ?? '' };
  }

  /**
   * Whether a PMIX_ALLOC_RELEASE by `requester` naming `id` is carried out
   * (an accepted status) or refused. A refusal is any error status with no
   * effect (IP-RELEASE-ERRORS: the statuses the reference engine answers,
   * PMIX_ERR_NOT_FOUND and PMIX_ERR_NO_PERMISSIONS, are its choice, not the
   * specification's).
   */
  releaseVerdict(requester: string, id: string): { ok: boolean; why: string } {
    const a = this.allocs.get(id)!;
    if (!a.live) return { ok: false, why: `${a.label} has already ended` };
    if (requester === this.scheduler) return { ok: true, why: 'the scheduler may release anything' };
    if (a.owners.has(requester)) return { ok: true, why: `${requester} is an owner of ${a.label}` };
    return { ok: false, why: `${requester} is not an owner of ${a.label} (owners: ${[...a.owners].join(', ')})` };
  }

  /** The allocation that last held a node, for messages. */
  holderOf(node: string): AllocModel | undefined {
    let found: AllocModel | undefined;
    for (const a of this.allocs.values()) if (a.nodes.includes(node)) found = a;
    return found;
  }
}
