/**
 * One World per scenario: a fresh implementation behind the seam, the
 * cluster the scenario describes, and the names the scenario gives to what
 * the implementation minted (namespaces, allocation ids).
 *
 * The implementation is loaded by module path (PMIX_CONFORMANCE_ADAPTER, or
 * the `adapter` world parameter), so no step imports any engine.
 */
import { World, type IWorldOptions } from '@cucumber/cucumber';
import * as path from 'node:path';
import type { Description, Implementation, AdapterModule } from '../../seam/implementation';
import type { ClusterSetup, Info, JobView, ObserveRequest, ProcId, Snapshot, Introspection } from '../../seam/messages';
import { canonicalIntrospection, canonicalSnapshot } from './canonical';
import { ACCEPTED_STATUSES, describeStatus, type OptionalKeyName } from '../../seam/pmix';
import { charged, type ClauseSelector } from './charge';
import { ConformanceFailure, ImplementationFault } from './failures';
import type { Names } from './values';
import { watch } from './hang-guard';
import { clock } from '../../seam/clock';
import { QUIET_MS, settle, type Settled } from './settle';
import type { Claim } from './claims';
import { journaled, type JournalEntry } from './journal';

export interface WorldParameters {
  adapter?: string;
  requestTimeoutMs?: number;
}

/** What the last request was and what it changed, for "nothing changed" and for failure messages. */
export interface LastRequest {
  operation: string;
  status: number;
  info: Info[];
  /** What could be observed just before it; recorded only in scenarios that compare with it (see observeBefore). */
  before?: Observation;
  /** Alias to give the result (a job or an allocation), if the step named one. */
  nspace?: string;
}

const READY: Promise<void> = Promise.resolve();

/** The calls that change nothing: they leave the kept observations current. */
const OBSERVATIONS: ReadonlySet<string> = new Set(['observe', 'inspect', 'describe']);

/** The steps that compare what is observed with what was observed before the last request. */
export const COMPARES_WITH_BEFORE: ReadonlySet<string> = new Set(['nothing changed', 'nothing but events changed']);

export interface Observation {
  snapshot: Snapshot;
  introspection?: Introspection;
}

export class ConformanceWorld extends World<WorldParameters> implements Names {
  impl!: Implementation;
  description!: Description;
  clauses: string[] = [];
  /** The capabilities the scenario's @needs tags name. */
  needs: ReadonlySet<string> = new Set();
  readonly setup: ClusterSetup = { startupNodes: [], schedulerNodes: [], withoutKeys: [], elastic: false };
  private started = false;
  scheduler!: ProcId;
  readonly jobs = new Map<string, string>();
  readonly tools = new Map<string, ProcId>();
  readonly allocations = new Map<string, string>();
  /**
   * The spawns the implementation refused, by the alias the step gave the
   * job: a later step that names that job then fails on the refusal
   * (jobNspace) instead of erroring as if the scenario never named it.
   * Filled from `last` (below), which every spawn step sets.
   */
  readonly refusedJobs = new Map<string, LastRequest>();
  private lastRequest?: LastRequest;
  /** The last request (see LastRequest); a spawn's also records whether its job was refused (refusedJobs). */
  get last(): LastRequest | undefined {
    return this.lastRequest;
  }
  set last(request: LastRequest | undefined) {
    this.lastRequest = request;
    const alias = request && spawnedJob(request.operation);
    if (alias === undefined) return;
    if (ACCEPTED_STATUSES.includes(request!.status)) this.refusedJobs.delete(alias);
    else this.refusedJobs.set(alias, request!);
  }
  /**
   * Set when a request got no answer because its requester ended while it
   * was in flight, in a step that allows that (a job releasing the node it
   * runs on): who it was. The request's answer is then not judged.
   */
  endedBeforeAnswer?: string;
  /** Whether a step of this scenario compares with the observation before a request (set per scenario by the Before hook). */
  recordsBefore = true;
  /** Requests made so far that are not observations (a claim is a step that made none: steps/support/claims.ts). */
  requestsMade = 0;
  /** When the last such request was answered (clock.now()), for saying when something was seen. */
  answeredAt = 0;
  /** The text of the step being run (set by a BeforeStep hook in claims.ts). */
  stepText?: string;
  /** The claims judged since the last request: the scenario's final claims, judged again at its end. */
  claims: Claim[] = [];
  /**
   * For each event (by seq), the first whole observation that showed it: the
   * moment closest to its delivery that a client saw. Harnesses read events
   * before node and job states (docs/writing-a-harness.md §8), so what that
   * observation shows of the DVM is no older than the delivery.
   */
  readonly firstSeen = new Map<number, Snapshot>();
  /** The last wait for the implementation to settle since the last request, if it has one (see snapshot()). */
  settled?: Settled & { at: number };
  /** Every request made of the implementation and its answer, for the frame checks (frame.ts). */
  readonly journal: JournalEntry[] = [];
  /** Nodes some whole observation showed leaving or gone after showing them as members, for the frame checks. */
  readonly departed = new Set<string>();
  private readonly members = new Set<string>();

  constructor(options: IWorldOptions<WorldParameters>) {
    super(options);
  }

  static adapterPath(parameters: WorldParameters): string {
    const chosen = process.env.PMIX_CONFORMANCE_ADAPTER ?? parameters.adapter ?? 'adapters/reference';
    return path.isAbsolute(chosen) ? chosen : path.resolve(process.cwd(), chosen);
  }

  async open(): Promise<void> {
    const mod = require(ConformanceWorld.adapterPath(this.parameters)) as AdapterModule;
    this.impl = journaled(mod.createImplementation(), this.journal);
    this.description = await this.call('describe', () => this.impl.describe());
  }

  /** Whether the implementation's effects may trail its answers (seam/implementation.ts): then observations are settled first. */
  get trails(): boolean {
    return this.description?.effectsTrailAnswers === true;
  }

  /** How long observations must stay unchanged to count as settled: the suite's setting, or longer if the implementation says it reacts for longer. */
  get quietMs(): number {
    return Math.max(QUIET_MS, this.description?.quietMs ?? 0);
  }

  has(capability: string): boolean {
    return (this.description.capabilities as string[]).includes(capability);
  }

  withoutKey(key: OptionalKeyName): void {
    if (!this.setup.withoutKeys.includes(key)) this.setup.withoutKeys.push(key);
  }

  /** Whether the DVM was started (a scenario may end before its first action). */
  get dvmStarted(): boolean {
    return this.started;
  }

  /** Start the DVM the Given steps described, once, at the first action. */
  ready(): Promise<void> {
    if (this.started) return READY;
    this.started = true;
    return this.startDvm();
  }

  private async startDvm(): Promise<void> {
    if (this.setup.scheduler && !this.has('scheduler-policy')) {
      throw new Error('this scenario sets the scheduler\'s policy: tag it @needs:scheduler-policy');
    }
    // From here on the DVM is running: a step that still tries to change how
    // it was started is a mistake in the scenario, and must say so.
    deepFreeze(this.setup);
    const result = await this.call('start', () => this.impl.start(this.setup));
    this.scheduler = result.scheduler;
  }

  /**
   * Every call goes through here: a hang, a throw or garbage is an
   * ImplementationFault, not a failed clause. Written with one promise and
   * one reaction rather than async/await and Promise.race: cucumber tracks
   * every promise (AsyncLocalStorage), and this runs for every request.
   */
  call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    const timeoutMs = this.parameters.requestTimeoutMs ?? Number(process.env.PMIX_CONFORMANCE_TIMEOUT_MS ?? 10000);
    const changes = !OBSERVATIONS.has(operation);
    if (changes) {
      this.forget();
      this.requestsMade++;
      this.claims = [];
    }
    const fault = (e: unknown) => (e instanceof ImplementationFault ? e : new ImplementationFault(operation, e instanceof Error ? e.message : String(e)));
    // The hang guard (support/hang-guard.ts) sees every answer and every timeout.
    return watch(operation, new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ImplementationFault(operation, `no answer within ${timeoutMs} ms`)), timeoutMs);
      let answer: Promise<T>;
      try {
        answer = fn();
      } catch (e) {
        clearTimeout(timer);
        reject(fault(e));
        return;
      }
      Promise.resolve(answer).then(
        (value) => {
          clearTimeout(timer);
          if (changes) this.answeredAt = clock.now();
          resolve(value);
        },
        (e: unknown) => {
          clearTimeout(timer);
          reject(fault(e));
        },
      );
    }));
  }

  /**
   * The observation to keep as "before" a request: taken only when a step of
   * the scenario compares with it (COMPARES_WITH_BEFORE), since observing the
   * whole DVM before every request was a large share of the suite's time;
   * and taken afresh (see freshSnapshot()).
   */
  async observeBefore(): Promise<Observation | undefined> {
    if (!this.recordsBefore) return undefined;
    this.forget();
    return this.observe();
  }

  /**
   * A whole snapshot taken now, not a kept one: what a request is about to be
   * compared with. An implementation may change between requests on its own
   * (a live DVM's events arrive when they arrive), so a "before" kept from an
   * earlier step could show a change the request did not make.
   */
  freshSnapshot(): Promise<Snapshot> {
    this.forget();
    return this.snapshot({});
  }

  /** Drop the kept observations (see snapshot()). */
  forget(): void {
    this.observed.clear();
    this.inspected = undefined;
    this.settled = undefined;
  }

  /**
   * One whole observation straight from the implementation, not kept and not
   * waited for: for steps that do their own waiting (settle.ts polls with it).
   */
  async rawSnapshot(): Promise<Snapshot> {
    await this.ready();
    const o = await this.call('observe', () => this.impl.observe({}));
    return this.noteFirstSeen(deepFreeze(canonicalSnapshot(o)));
  }

  private noteFirstSeen(whole: Snapshot): Snapshot {
    for (const e of whole.events) if (!this.firstSeen.has(e.seq)) this.firstSeen.set(e.seq, whole);
    const present = new Set(whole.nodes.map((n) => n.name));
    for (const name of this.members) if (!present.has(name)) this.departed.add(name);
    for (const n of whole.nodes) {
      this.members.add(n.name);
      if (n.daemon === 'leaving') this.departed.add(n.name);
    }
    return whole;
  }

  /** Wait until the implementation has finished reacting (settle.ts), and keep what it then shows as the current observation. */
  private settledWhole(): Promise<Snapshot> {
    return settle(() => this.rawSnapshot(), { daemonsToo: !this.has('daemon-control'), quietMs: this.quietMs }).then((s) => {
      this.settled = { ...s, at: clock.now() };
      return s.snapshot;
    });
  }

  /** Everything a client can observe now (and, with the introspection capability, the bookkeeping), in canonical order. */
  async observe(): Promise<Observation> {
    const snapshot = await this.snapshot({});
    const inspect = this.impl.inspect;
    if (!(this.has('introspection') || this.has('elastic-internals')) || !inspect) return { snapshot };
    this.inspected ??= this.call('inspect', () => inspect.call(this.impl)).then((i) => deepFreeze(canonicalIntrospection(i)));
    return { snapshot, introspection: await this.inspected };
  }

  /**
   * One observation (optionally filtered to some nodes or jobs), its lists in
   * canonical order (support/canonical.ts). Steps that check the same moment
   * share one: an observation is kept (frozen) until the next request that is
   * not an observation, which is what makes it stale. Over the wire each
   * observation is a round trip, and consecutive Then steps made most of them.
   */
  snapshot(req: ObserveRequest): Promise<Snapshot> {
    const key = JSON.stringify(req);
    let answer = this.observed.get(key);
    if (!answer) {
      // A whole observation of this moment already answers a restricted one
      // (the protocol: a filter keeps only the nodes / jobs it names, an
      // absent filter means all).
      let whole = this.observed.get('{}');
      if (!whole && this.trails) {
        // Judged once the implementation has finished reacting: everything
        // the steps of this moment look at comes from that one observation.
        whole = this.ready().then(() => this.settledWhole());
        this.observed.set('{}', whole);
      }
      answer = whole
        ? whole.then((w) => deepFreeze(restrict(w, req)))
        : this.ready()
            .then(() => this.call('observe', () => this.impl.observe(req)))
            .then((o) => deepFreeze(canonicalSnapshot(o)))
            .then((o) => (key === '{}' ? this.noteFirstSeen(o) : o));
      this.observed.set(key, answer);
    }
    return answer;
  }

  /** Observations still current (see snapshot()); any other request empties them. */
  private readonly observed = new Map<string, Promise<Snapshot>>();
  private inspected?: Promise<Introspection>;

  /**
   * A job the scenario launched, as the implementation shows it now. A
   * harness keeps every job it launched in its observations, in any state
   * (docs/writing-a-harness.md §8): one that is missing is the harness's
   * fault, reported as such, never charged to a clause of the specification
   * (the specification does not say how long an ended job stays visible).
   */
  async observedJob(alias: string, whole?: Snapshot): Promise<JobView> {
    const nspace = this.jobNspace(alias);
    await this.ready();
    const snap = whole ?? (await this.snapshot({ jobs: [nspace] }));
    const job = snap.jobs.find((j) => j.nspace === nspace);
    if (!job) {
      throw new ImplementationFault(
        'observe',
        `job ${alias} (${nspace}) was launched in this scenario but the observation does not list it: a harness must keep every job it launched, in any state, with its processes (docs/writing-a-harness.md §8)`,
      );
    }
    return job;
  }

  // --- names (see values.ts) ---
  jobNspace(alias: string): string {
    const ns = this.jobs.get(alias);
    if (ns !== undefined) return ns;
    const refused = this.refusedJobs.get(alias);
    // The scenario named the job, and the implementation refused to launch
    // it: every later step about it is judged on that refusal. A failure of
    // the scenario (its premise was broken by the implementation), not an
    // error of the suite.
    if (refused) {
      throw new ConformanceFailure({
        operation: refused.operation,
        clauses: charged(this.clauses),
        expected: `job ${alias} launched: a later step of the scenario acts on it (${this.stepText ?? 'this step'})`,
        observed: `the spawn was refused with ${describeStatus(refused.status)}, so there is no job ${alias}`,
      });
    }
    throw new Error(`the scenario has no job "${alias}"`);
  }
  toolNspace(alias: string): string {
    return this.tool(alias).nspace;
  }
  tool(alias: string): ProcId {
    const p = this.tools.get(alias);
    if (!p) throw new Error(`the scenario has no tool "${alias}"`);
    return p;
  }
  schedulerNspace(): string {
    return this.scheduler.nspace;
  }
  /**
   * The scheduler making a request of its own: only in a scenario that says
   * so, since a harness may have no scheduler process that is a PMIx client
   * (capability scheduler-requests). Checked against the tag, not the
   * implementation, so the reference run catches a scenario that forgot it.
   */
  schedulerAsRequester(): ProcId {
    if (!this.needs.has('scheduler-requests')) throw new Error('the scheduler makes a request in this scenario: tag it @needs:scheduler-requests');
    return this.scheduler;
  }
  allocId(alias: string): string {
    const id = this.allocations.get(alias);
    if (id === undefined) throw new Error(`the scenario has no allocation "${alias}"`);
    return id;
  }
  /** Reverse lookups, so a failure message speaks the scenario's names. */
  nameOf(nspaceOrId: string): string {
    for (const [a, ns] of this.jobs) if (ns === nspaceOrId) return `job ${a}`;
    for (const [a, p] of this.tools) if (p.nspace === nspaceOrId) return `tool ${a}`;
    for (const [a, id] of this.allocations) if (id === nspaceOrId) return `allocation ${a}`;
    if (this.scheduler && nspaceOrId === this.scheduler.nspace) return 'the scheduler';
    if (nspaceOrId === '') return 'the default session';
    return JSON.stringify(nspaceOrId);
  }

  /**
   * Throw a failure that names the operation, the clause, the expectation and
   * the observation; `select` says which cited clause this step checks
   * (support/charge.ts), so the failure is charged to that clause alone.
   */
  fail(expected: string, observed: string, select?: ClauseSelector): never {
    throw new ConformanceFailure({
      operation: this.last?.operation ?? '(no request yet)',
      clauses: charged(this.clauses, select),
      expected,
      observed: observed + this.whenObserved(),
    });
  }

  /** Against an implementation whose effects trail its answers: when the failing observation was made. */
  private whenObserved(): string {
    if (!this.trails || !this.settled) return '';
    const after = this.settled.at - this.answeredAt;
    const how = this.settled.unsettled ? `it had not settled within the wait (${this.settled.unsettled})` : 'once it had settled';
    return ` [observed ${after} ms after the last answer, ${how}]`;
  }
}

/**
 * The alias of the job a spawn request names, read from its operation as the
 * spawn steps write it ("<requester>: PMIx_Spawn(job C: 4 x C; ...)"); undefined
 * for any other request.
 */
export function spawnedJob(operation: string): string | undefined {
  return /: PMIx_Spawn\(job (.+?): \d+ x /.exec(operation)?.[1];
}

/** What an observation restricted to some nodes / jobs would show, from a whole one. */
function restrict(whole: Snapshot, req: ObserveRequest): Snapshot {
  const nodes = req.nodes && new Set(req.nodes);
  const jobs = req.jobs && new Set(req.jobs);
  return {
    ...whole,
    nodes: nodes ? whole.nodes.filter((n) => nodes.has(n.name)) : whole.nodes,
    jobs: jobs ? whole.jobs.filter((j) => jobs.has(j.nspace)) : whole.jobs,
  };
}

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v as object);
  return Object.freeze(o);
}
