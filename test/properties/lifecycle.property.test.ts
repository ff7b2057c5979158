/**
 * Properties of the reservation lifecycle, checked through the seam after
 * every step of random multi-tenant sequences (tools, jobs spawned by tools
 * and by jobs, nested; allocations of every disposition, reserved and
 * shared; spawns into and out of reservations; terminations, disconnects,
 * releases by owners and non-owners, scheduler reclaims, teardown last).
 * An independent model (./lifecycle-oracle) predicts, and the test asserts:
 *  1. the set of live allocations equals the implementation's (introspection
 *     when the implementation offers it; otherwise which nodes are reserved);
 *  2. when an allocation ends its nodes are where the trigger says: returned
 *     (scheduler nodes leave the DVM, their processes stop; startup nodes
 *     revert to the default session) or unreserved (stay, default session);
 *  3. no DEFAULT-flavoured end ever removes a node from the DVM;
 *  4. a CHILD-flavoured allocation lives exactly while its owner or some
 *     derived child runs (unless released / reclaimed);
 *  5. a release by a non-owner, or of an ended allocation, is refused (any
 *     error status: IP-RELEASE-ERRORS) and changes nothing; a releasing job
 *     whose own node leaves with the release may end before the answer
 *     (IP-RELEASER-ENDED-BY-RELEASE);
 *  6. no node is lost or duplicated: the DVM holds exactly the predicted
 *     nodes, each once, each available to the predicted session;
 *  7. a spawn naming an ended allocation is refused with PMIX_ERR_NOT_FOUND.
 * Also: a spawn the rules allow succeeds and lands in its sessions, on a
 * node with a free slot when its sessions have one (with none, it may be
 * refused with any error status or placed anyway inside its sessions:
 * IP-SLOT-CAPACITY), and a job runs until it is terminated or its node
 * leaves the DVM. Observations are compared as sets, statuses by what the
 * documents name (any accepted status where they name none), and the
 * property asks only for what the implementation declares it offers
 * (./profile.ts); every known-good runs through it (40 runs each).
 * Failures print fast-check's seed, path and the shrunk sequence, with the
 * resolved story of the run; replay with PMIX_PROPERTY_SEED=<seed>
 * PMIX_PROPERTY_PATH=<path>.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Implementation } from '../../seam/implementation';
import type { Info, Introspection, NodeSpec, Snapshot } from '../../seam/messages';
import { Directive, Key, Status, describeStatus } from '../../seam/pmix';
import { loadImplementation, propertySettings } from '../support/adapter';
import { Profile, accepted, sameObservation } from './profile';
import { DISPOSITION_NAME, LifecycleModel, type AllocModel } from './lifecycle-oracle';
import { sequenceArb, type AllocRef, type Op, type Who } from './lifecycle-ops';

/** Small default pool (so default-session jobs spill onto shared nodes), and a scheduler pool no sequence exhausts. */
const STARTUP: NodeSpec[] = ['n1', 'n2', 'n3', 'n4'].map((name) => ({ name, slots: 2 }));
const SCHEDULER: NodeSpec[] = Array.from({ length: 40 }, (_, i) => ({ name: `s${i + 1}`, slots: 2 }));
const TOOLS = ['T1', 'T2', 'T3'];
const MAX_OPS = 30;

interface Observation {
  snap: Snapshot;
  intro?: Introspection;
}

class Run {
  readonly made: string[] = [];
  readonly log: string[] = [];
  model!: LifecycleModel;
  profile!: Profile;
  terminal = false;
  constructor(readonly impl: Implementation) {}

  /** What a client sees now. Its lists come in any order (they are sets): the checks look things up, and compare with sameObservation. */
  async observe(): Promise<Observation> {
    const snap = await this.impl.observe({});
    const intro = this.impl.inspect && this.profile.has('introspection') ? await this.impl.inspect() : undefined;
    return { snap, intro };
  }

  /** [scheduler, connected tools…, running jobs…]; the scheduler only when it can make requests (capability scheduler-requests). */
  liveRequesters(): string[] {
    const sched = this.profile.has('scheduler-requests') ? [this.model.scheduler] : [];
    return [...sched, ...this.model.connectedTools(), ...this.model.runningJobs()];
  }

  who(w: Who, a: AllocModel | undefined): string {
    const m = this.model;
    const live = this.liveRequesters();
    switch (w.kind) {
      case 'scheduler':
        return this.profile.has('scheduler-requests') ? m.scheduler : live[0];
      case 'requester':
        return a && m.isRunning(a.requester) ? a.requester : live[0];
      case 'owner': {
        const owners = a ? [...a.owners].filter((o) => o !== m.scheduler && m.isRunning(o)) : [];
        if (owners.length > 0) return owners[w.index % owners.length];
        return live[w.index % live.length];
      }
      case 'job': {
        const jobs = m.runningJobs();
        return jobs.length > 0 ? jobs[w.index % jobs.length] : live[w.index % live.length];
      }
      case 'resident': {
        const jobs = m.runningJobs().filter((j) => m.allocs.get(m.jobs.get(j)!.primary)?.live === true);
        return jobs.length > 0 ? jobs[w.index % jobs.length] : live[w.index % live.length];
      }
      case 'any':
        return live[w.index % live.length];
    }
  }

  /** The allocation an AllocRef names, if any has been made (falling back to all when none is live). */
  alloc(r: AllocRef): AllocModel | undefined {
    const live = this.model.liveAllocs();
    const pool = r.among === 'live' && live.length > 0 ? live : this.made.map((id) => this.model.allocs.get(id)!);
    return pool.length === 0 ? undefined : pool[r.index % pool.length];
  }

  say(line: string): void {
    this.log.push(`step ${this.model.step}: ${line}`);
  }
}

const fail = (msg: string): never => assert.fail(msg);
/** How often each freedom-dependent path arose (PMIX_PROPERTY_COVERAGE=1 prints it): a path never taken judges nothing. */
const cover = new Map<string, number>();
const hit = (what: string) => cover.set(what, (cover.get(what) ?? 0) + 1);
const proc = (nspace: string) => ({ nspace, rank: 0 });
const allocIdOf = (info: Info[]) => info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value;

/** Why the model expects an allocation to be live, for messages. */
function liveReason(m: LifecycleModel, a: AllocModel): string {
  if (m.isRunning(a.owner)) return `its owning namespace ${a.owner} still runs`;
  const running = [...m.derived(a)].filter((j) => m.isRunning(j));
  return `its owner ${a.owner} ended but derived children still run: ${running.join(', ')}`;
}

function endText(a: AllocModel): string {
  const e = a.end!;
  return `${a.label} ended at step ${e.step} (${e.why}) and must ${e.fate === 'return' ? 'return its nodes to the scheduler' : 'unreserve its nodes, keeping them in the DVM'}`;
}

/** Compare what the implementation shows with what the model predicts. */
function checkAgainstModel(run: Run, o: Observation): void {
  const m = run.model;
  const names = o.snap.nodes.map((n) => n.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) fail(`(6) node ${dup} appears twice in the DVM`);
  for (const n of names) if (!m.isStartup(n) && !SCHEDULER.some((s) => s.name === n)) fail(`(6) unknown node ${n} in the DVM`);

  // Reservation liveness (1, 4): by introspection when offered.
  if (o.intro) {
    const shown = new Map(o.intro.allocations.map((a) => [a.allocId, a]));
    for (const a of m.allocs.values()) {
      const v = shown.get(a.id);
      if (a.live && !v) fail(`(1) ${a.label} must still be live (${liveReason(m, a)}; it ends only on release, reclaim, teardown or its disposition) but the implementation no longer lists it`);
      if (!a.live && v) fail(`(1) ${endText(a)}, but the implementation still lists it`);
      if (a.live && v) {
        assert.equal(v.owner, a.owner, `${a.label}: owning namespace`);
        assert.equal(v.inheritance, a.disposition, `${a.label}: recorded disposition`);
        assert.equal(v.reserved, !a.shared, `${a.label}: reserved (not shared)`);
        assert.deepEqual([...v.nodes].sort(), [...a.nodes].sort(), `${a.label}: its nodes`);
        const want = [...a.owners].filter((x) => m.isRunning(x)).sort();
        const got = v.owners.filter((x) => m.isRunning(x)).sort();
        assert.deepEqual(got, want, `${a.label}: its running owners (the owning namespace and every job spawned into it)`);
      }
    }
    for (const id of shown.keys()) if (!m.allocs.has(id)) fail(`(1) the implementation lists an allocation ${id} that no request created`);
  }

  // Where every node is (2, 3, 6; and 1 for reserved allocations without introspection).
  const actual = new Map(o.snap.nodes.map((n) => [n.name, n]));
  for (const [n, to] of m.dvm) {
    const got = actual.get(n);
    const h = m.holderOf(n);
    if (!got) {
      if (m.isStartup(n)) fail(`(6) startup node ${n} left the DVM`);
      if (h && !h.live && h.end!.fate === 'unreserve') fail(`(3) ${endText(h)}, yet its node ${n} left the DVM: a DEFAULT-flavoured disposition never returns a node to the scheduler`);
      if (h && h.live) fail(`(2) node ${n} of ${h.label} left the DVM although ${h.label} must still be live (${liveReason(m, h)})`);
      fail(`(6) node ${n} was lost from the DVM (${h ? endText(h) : 'it belongs to no allocation'})`);
    } else if (got.availableTo !== to) {
      if (to !== '' && h && h.live) fail(`(1/4) ${h.label} must still be live (${liveReason(m, h)}) but its node ${n} is available to '${got.availableTo}'`);
      if (h && !h.live) fail(`(2) ${endText(h)}, but its node ${n} is available to '${got.availableTo}' instead of the default session`);
      fail(`(6) node ${n} is available to '${got.availableTo}', expected '${to}'${h ? ` (last held by ${h.label})` : ''}`);
    }
  }
  for (const got of o.snap.nodes) {
    if (m.dvm.has(got.name)) continue;
    const h = m.holderOf(got.name);
    if (h && !h.live) fail(`(2) ${endText(h)}, but its node ${got.name} is still in the DVM (available to '${got.availableTo}')`);
    fail(`(6) node ${got.name} is in the DVM, but no allocation brought it there`);
  }
  for (const got of o.snap.nodes) {
    assert.equal(got.slotsInUse, m.usedSlots(got.name), `node ${got.name}: slots in use (one per running process placed on it)`);
  }

  // Jobs run until terminated or until their node leaves the DVM.
  const runningNow = new Set(o.snap.jobs.filter((j) => j.state === 'RUNNING').map((j) => j.nspace));
  for (const j of m.jobs.values()) {
    if (j.running && !runningNow.has(j.nspace)) fail(`job ${j.nspace} stopped running, but it was neither terminated nor on a node that left the DVM (it runs on ${j.node})`);
    if (!j.running && runningNow.has(j.nspace)) fail(`job ${j.nspace} still runs, but ${j.ended}`);
  }
  for (const j of o.snap.jobs) {
    if (m.jobs.get(j.nspace)?.running) {
      const p = j.procs.find((x) => x.running);
      if (p && p.node !== m.jobs.get(j.nspace)!.node) fail(`job ${j.nspace} moved from ${m.jobs.get(j.nspace)!.node} to ${p.node}`);
    }
  }
}

/** After teardown: every allocation has ended, nothing is reserved, nothing duplicated. */
function checkAfterTeardown(o: Observation): void {
  const names = o.snap.nodes.map((n) => n.name);
  assert.equal(new Set(names).size, names.length, '(6) a node appears twice in the DVM after teardown');
  for (const n of o.snap.nodes) assert.equal(n.availableTo, '', `(1) node ${n.name} is still reserved to ${n.availableTo} after DVM teardown`);
  if (o.intro) assert.deepEqual(o.intro.allocations.map((a) => a.allocId), [], '(1) allocations survived DVM teardown');
}

async function step(run: Run, op: Op): Promise<void> {
  const m = run.model;
  const before = await run.observe();
  /** Set when the request must have changed nothing. */
  let unchanged = false;

  switch (op.op) {
    case 'allocate': {
      const candidates = [...m.connectedTools(), ...m.runningJobs()];
      if (candidates.length === 0) return;
      const by = candidates[op.by % candidates.length];
      const running = m.runningJobs();
      const info: Info[] = [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }];
      let owner = by;
      // An attribute whose key the implementation's PMIx lacks is not sent (IP-MISSING-KEY-IGNORED covers what it would do).
      const inheritance = run.profile.has('PMIX_ALLOC_INHERITANCE') ? op.inheritance : undefined;
      const share = run.profile.has('PMIX_ALLOC_SHARE') ? op.share : undefined;
      if (m.tools.has(by) && op.target !== undefined && running.length > 0 && run.profile.has('PMIX_ALLOC_TARGET')) {
        owner = running[op.target % running.length];
        info.push({ key: Key.PMIX_ALLOC_TARGET, value: owner });
      }
      if (inheritance !== undefined) info.push({ key: Key.PMIX_ALLOC_INHERITANCE, value: inheritance });
      if (share !== undefined) info.push({ key: Key.PMIX_ALLOC_SHARE, value: share });
      const disposition = inheritance ?? 3;
      const shared = share === true;
      const idle = op.startup === undefined ? [] : [...m.dvm].filter(([n, to]) => m.isStartup(n) && to === '' && m.usedSlots(n) === 0 && !m.liveAllocs().some((x) => x.nodes.includes(n))).map(([n]) => n);
      const carve = idle.length > 0 ? idle[op.startup! % idle.length] : undefined;
      if (carve !== undefined) info[0] = { key: Key.PMIX_ALLOC_NODE_LIST, value: carve };
      const r = await run.impl.allocate({ requester: proc(by), directive: Directive.PMIX_ALLOC_NEW, info });
      const what = `${by} allocates ${carve ?? '1 node'}, ${DISPOSITION_NAME[disposition]}${inheritance === undefined ? ' (absent)' : ''}, ${shared ? 'shared' : 'reserved'}${owner !== by ? `, PMIX_ALLOC_TARGET=${owner}` : ''}`;
      if (!accepted(r.status)) fail(`${what}: refused with ${describeStatus(r.status)}, but the request is valid and the node is free`);
      const id = allocIdOf(r.info);
      if (typeof id !== 'string' || id === '') fail(`${what}: the response carries no PMIX_ALLOC_ID`);
      const allocId = id as string;
      if (m.allocs.has(allocId)) fail(`${what}: PMIX_ALLOC_ID ${allocId} was already used by ${m.allocs.get(allocId)!.label}`);
      const after = await run.observe();
      const had = new Set(before.snap.nodes.map((n) => n.name));
      const joined = after.snap.nodes.filter((n) => !had.has(n.name));
      const expectJoin = carve === undefined ? 1 : 0;
      if (joined.length !== expectJoin) fail(`${what}: expected ${expectJoin} node(s) to join the DVM, got ${JSON.stringify(joined.map((n) => n.name))}`);
      const node = carve === undefined ? joined[0] : after.snap.nodes.find((n) => n.name === carve)!;
      if (node.availableTo !== (shared ? '' : allocId)) fail(`${what}: the granted node ${node.name} is available to '${node.availableTo}', expected '${shared ? '' : allocId}'`);
      const label = `A${run.made.length} [${allocId}] (${DISPOSITION_NAME[disposition]}, ${shared ? 'shared' : 'reserved'}, owner ${owner})`;
      run.made.push(allocId);
      m.addAllocation({ id: allocId, label, owner, requester: by, disposition, shared, nodes: [node.name] });
      run.say(`${what} -> ${label} on ${node.name}`);
      break;
    }
    case 'spawn': {
      let entries: string[] | undefined;
      let value: string | string[] | undefined;
      let a: AllocModel | undefined;
      const targets = run.profile.has('PMIX_SPAWN_TARGET');
      if (targets && op.into !== undefined && run.made.length > 0) {
        a = run.alloc(op.into)!;
        const b = op.alsoInto !== undefined ? run.alloc(op.alsoInto) : undefined;
        entries = b && b.id !== a.id ? [a.id, b.id] : [a.id];
        if (op.withDefault) entries.push('');
        value = entries.length > 1 || op.arrayForm ? entries : entries[0];
      } else if (targets && op.withDefault) {
        entries = [''];
        value = op.arrayForm ? entries : '';
      }
      const by = run.who(op.by, a);
      const verdict = m.spawnVerdict(by, entries);
      const info: Info[] = value === undefined ? [] : [{ key: Key.PMIX_SPAWN_TARGET, value }];
      const r = await run.impl.spawn({ requester: proc(by), apps: [{ cmd: 'app', np: 1 }], info });
      const named = (entries ?? []).filter((e) => e !== '').map((e) => m.allocs.get(e)!.label);
      const what = `${by} spawns 1 process${value === undefined ? ' (no PMIX_SPAWN_TARGET)' : ` with PMIX_SPAWN_TARGET=${JSON.stringify(value)}${named.length > 0 ? ` (${named.join(', ')})` : ''}`}`;
      if (verdict.ok && (verdict.fits || accepted(r.status))) {
        const room = verdict.fits ? 'which has a free slot' : 'which has no free slot, so it may be refused or placed anyway (IP-SLOT-CAPACITY)';
        if (!accepted(r.status) || !r.nspace) fail(`${what}: refused with ${describeStatus(r.status)}, but it may use ${JSON.stringify(verdict.sessions)} ${room}`);
        const after = await run.observe();
        const job = after.snap.jobs.find((j) => j.nspace === r.nspace);
        if (!job || job.procs.length !== 1 || !job.procs[0].running) fail(`${what}: job ${r.nspace} does not run one process (${JSON.stringify(job)})`);
        const node = job!.procs[0].node;
        const session = m.dvm.get(node);
        if (session === undefined || !verdict.sessions.includes(session)) fail(`${what}: ${r.nspace} landed on ${node} (session '${session}'), outside ${JSON.stringify(verdict.sessions)}`);
        // A node runs no more processes than it has slots while the job fits elsewhere (IP-SLOT-CAPACITY).
        if (verdict.fits && m.freeSlots(node) <= 0) fail(`${what}: ${r.nspace} landed on ${node}, which had no free slot, while its sessions had one`);
        m.addJob(r.nspace!, by, node, verdict);
        if (!verdict.fits) hit('spawn with no free slot placed anyway');
        run.say(`${what} -> ${r.nspace} on ${node}${verdict.fits ? '' : ' (no free slot: placed anyway)'}${verdict.into.length > 0 ? `, spawned into ${verdict.into.join(', ')}` : ''}`);
      } else if (verdict.ok) {
        // It did not fit, and was refused: any error status (no document names one), no effect.
        hit(`spawn with no free slot refused (${describeStatus(r.status)})`);
        run.say(`${what} -> refused ${describeStatus(r.status)} (no free slot in ${JSON.stringify(verdict.sessions)})`);
        unchanged = true;
      } else {
        if (!verdict.statuses.includes(r.status)) {
          const tag = verdict.statuses.includes(Status.PMIX_ERR_NOT_FOUND) ? '(7) ' : '';
          fail(`${tag}${what}: expected ${verdict.statuses.map(describeStatus).join(' or ')} because ${verdict.why}, got ${describeStatus(r.status)}`);
        }
        run.say(`${what} -> refused ${describeStatus(r.status)} (${verdict.why})`);
        unchanged = true;
      }
      break;
    }
    case 'terminate': {
      const running = m.runningJobs();
      if (running.length === 0) return;
      const ns = running[op.job % running.length];
      const r = await run.impl.terminateJob({ nspace: ns });
      assert.equal(r.status, Status.PMIX_SUCCESS, `terminating ${ns}`);
      const was = mark(m);
      m.terminateJob(ns);
      run.say(`${ns} terminates${endedSince(m, was)}`);
      break;
    }
    case 'disconnect': {
      const tools = m.connectedTools();
      if (tools.length === 0) return;
      const ns = tools[op.tool % tools.length];
      const r = await run.impl.disconnectTool({ proc: proc(ns) });
      assert.equal(r.status, Status.PMIX_SUCCESS, `disconnecting ${ns}`);
      const was = mark(m);
      m.disconnectTool(ns);
      run.say(`tool ${ns} disconnects${endedSince(m, was)}`);
      break;
    }
    case 'release': {
      const a = run.alloc(op.alloc);
      if (!a) return;
      const id = a.id;
      const by = run.who(op.by, a);
      const verdict = m.releaseVerdict(by, id);
      const what = `${by} releases ${a.label}`;
      let status: number | undefined;
      try {
        status = (await run.impl.allocate({ requester: proc(by), directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] })).status;
      } catch (e) {
        // IP-RELEASER-ENDED-BY-RELEASE: a job whose release takes its own node out of the DVM may end before
        // the answer reaches it. A call that gets no answer is excused only when the job is then observed to
        // have ended; the release's effect is judged either way (as the verdict says).
        const ended = m.jobs.has(by) && !(await run.observe()).snap.jobs.some((j) => j.nspace === by && j.state === 'RUNNING');
        if (!ended) throw e;
        hit('release answered no one: the releaser ended first');
        run.say(`${what} -> no answer: ${by} ended before it (${e instanceof Error ? e.message : String(e)})`);
      }
      if (status !== undefined && accepted(status) !== verdict.ok)
        fail(
          verdict.ok
            ? `${what}: refused with ${describeStatus(status)}, but ${verdict.why}`
            : `${verdict.why.includes('not an owner') ? '(5) ' : ''}${what}: accepted (${describeStatus(status)}), but it must be refused (any error status, IP-RELEASE-ERRORS) because ${verdict.why}`,
        );
      if (verdict.ok) {
        const was = mark(m);
        m.release(id, by);
        run.say(`${what} -> ok${endedSince(m, was)}`);
        if (status === undefined && m.jobs.get(by)?.running) fail(`${what}: the call got no answer, yet ${by} must still run (${by} runs on ${m.jobs.get(by)!.node}, which the release does not take out of the DVM)`);
      } else {
        if (status === undefined) fail(`${what}: the call got no answer and ${by} ended, but the release must be refused (${verdict.why}) and change nothing`);
        run.say(`${what} -> refused ${describeStatus(status!)}`);
        unchanged = true;
      }
      break;
    }
    case 'reclaim': {
      const a = run.alloc(op.alloc);
      if (!a || !run.profile.has('scheduler-control')) return;
      const id = a.id;
      const wasLive = a.live;
      const r = await run.impl.scheduler({ action: 'reclaim', allocId: id });
      if (wasLive) {
        assert.equal(r.status, Status.PMIX_SUCCESS, `the scheduler reclaims ${a.label}`);
        const was = mark(m);
        m.reclaim(id);
        run.say(`the scheduler reclaims ${a.label}${endedSince(m, was)}`);
      } else {
        run.say(`the scheduler reclaims ${a.label}, already ended -> ${describeStatus(r.status)}`);
        unchanged = true;
      }
      break;
    }
    case 'teardown': {
      if (!run.profile.has('scheduler-control')) return;
      const r = await run.impl.scheduler({ action: 'teardown' });
      assert.equal(r.status, Status.PMIX_SUCCESS, 'DVM teardown');
      m.teardown();
      run.say('the DVM is torn down');
      run.terminal = true;
      checkAfterTeardown(await run.observe());
      return;
    }
  }

  const after = await run.observe();
  if (unchanged) {
    const same = sameObservation(after, before);
    if (!same.snap) fail(`the refused ${op.op} changed what a client can observe`);
    if (!same.intro) fail(`the refused ${op.op} changed an allocation's bookkeeping`);
  }
  checkAgainstModel(run, after);
}

/** What the model has on record now, to tell afterwards what a step ended. */
function mark(m: LifecycleModel): { allocs: AllocModel[]; jobs: string[] } {
  return { allocs: m.liveAllocs(), jobs: m.runningJobs() };
}

function endedSince(m: LifecycleModel, was: { allocs: AllocModel[]; jobs: string[] }): string {
  const ended = was.allocs.filter((a) => !a.live).map((a) => `${a.label} (${a.end!.cause === 'disposition' ? a.end!.why : a.end!.cause}, ${a.end!.fate})`);
  const killed = was.jobs.filter((j) => m.jobs.get(j)!.ended?.startsWith('killed')).map((j) => `${j} killed`);
  return ended.length + killed.length === 0 ? '' : `; ends: ${[...ended, ...killed].join('; ')}`;
}

async function runSequence(ops: Op[], make: () => Implementation = loadImplementation): Promise<void> {
  const impl = make();
  const run = new Run(impl);
  try {
    run.profile = await Profile.of(impl);
    const { scheduler } = await impl.start({ startupNodes: STARTUP, schedulerNodes: SCHEDULER, withoutKeys: [], elastic: false });
    run.model = new LifecycleModel(scheduler.nspace, STARTUP, SCHEDULER);
    for (const label of TOOLS) {
      const { proc: p } = await impl.connectTool({ label });
      run.model.addTool(p.nspace);
    }
    checkAgainstModel(run, await run.observe());
    for (const op of ops) {
      run.model.step++;
      await step(run, op);
      if (run.terminal) break;
    }
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new Error(`${msg}\n--- the run, as resolved ---\n${run.log.join('\n')}`);
  } finally {
    await impl.stop();
  }
}

test('reservations end exactly when the lifecycle rules say, and their nodes go where the disposition says', async () => {
  const settings = propertySettings(300);
  let runs = 0;
  const t0 = performance.now();
  try {
    await fc.assert(
      fc.asyncProperty(sequenceArb(MAX_OPS), async (ops) => {
        runs += 1;
        await runSequence(ops);
      }),
      // The failure's own message (what broke, and the resolved run) is the useful part: put it in the report.
      { ...settings, verbose: 0, includeErrorInReport: true },
    );
  } finally {
    console.log(`lifecycle property: ${runs} interleavings executed, seed ${settings.seed ?? 'random'}, elapsed ${(performance.now() - t0).toFixed(0)} ms`);
    if (process.env.PMIX_PROPERTY_COVERAGE === '1') console.log(`coverage: ${[...cover].sort().map(([k, n]) => `${k} ${n}`).join('; ')}`);
  }
});

// Every known-good: each takes a freedom the documents allow, declares its readings, and the oracle
// allows what it declares (./profile.ts).
const LIFECYCLE_KNOWN_GOOD = fs
  .readdirSync(path.resolve(__dirname, '..', '..', 'known-good'))
  .filter((f) => f.endsWith('.ts') && f !== 'good.ts')
  .map((f) => f.replace(/\.ts$/, ''));
for (const name of LIFECYCLE_KNOWN_GOOD) {
  test(`the lifecycle rules hold for the known-good ${name}`, async () => {
    const { createImplementation } = require(`../../known-good/${name}`) as { createImplementation: () => Implementation };
    await fc.assert(
      fc.asyncProperty(sequenceArb(MAX_OPS), async (ops) => {
        await runSequence(ops, createImplementation);
      }),
      propertySettings(40),
    );
  });
}
