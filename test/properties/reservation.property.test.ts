/**
 * Properties of node reservation and spawn targeting, checked through the
 * seam after every step of random multi-tenant sequences:
 *  - every node of the DVM belongs to exactly one session;
 *  - a new job's processes sit only on nodes of the sessions it may target;
 *  - a rejected request changes nothing;
 *  - the empty namespace never owns anything, and a spawn into a
 *    reservation succeeds only for an owner (or the scheduler), making the
 *    new job an owner of exactly the reservations it targeted;
 *  - a job of np processes has ranks 0..np-1, once each, and a spawn is
 *    refused for want of room only when its sessions lack np free slots.
 * The same sequences run against every known-good implementation (each lays
 * processes out, names things or answers in another conforming way): these
 * rules hold whatever freedom it takes.
 * Failures print fast-check's seed, path and the shrunk sequence; replay
 * with PMIX_PROPERTY_SEED=<seed> PMIX_PROPERTY_PATH=<path>.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Implementation } from '../../seam/implementation';
import type { Info, Introspection, ProcId, Snapshot } from '../../seam/messages';
import { Directive, Key, Status } from '../../seam/pmix';
import { loadImplementation, propertySettings } from '../support/adapter';
import { sequenceArb, type AllocRef, type Op } from './reservation-ops';

const STARTUP = ['n1', 'n2', 'n3'];
const SCHEDULER = ['s1', 's2', 's3', 's4', 's5', 's6'];

interface Made {
  allocId: string;
  reqId?: string;
}

class Run {
  readonly requesters: ProcId[] = [];
  readonly tools: ProcId[] = [];
  readonly made: Made[] = [];
  readonly jobs: string[] = [];
  /** The session a job's untargeted children inherit ('' = default). */
  readonly primary = new Map<string, string>();
  constructor(readonly impl: Implementation) {}

  async observe(): Promise<{ snap: Snapshot; intro?: Introspection }> {
    const snap = await this.impl.observe({});
    const intro = this.impl.inspect ? await this.impl.inspect() : undefined;
    return { snap, intro };
  }

  liveRequesters(snap: Snapshot): ProcId[] {
    const running = new Set(snap.jobs.filter((j) => j.state === 'RUNNING').map((j) => j.nspace));
    return [this.requesters[0], ...this.tools.filter((t) => this.requesters.includes(t)), ...this.jobs.filter((j) => running.has(j)).map((nspace) => ({ nspace, rank: 0 }))];
  }

  ref(r: AllocRef | undefined, byReqId = false): Info[] {
    if (!r || r.kind === 'default') return [];
    if (r.kind === 'unknown' || this.made.length === 0) return [{ key: Key.PMIX_ALLOC_ID, value: 'no-such-allocation' }];
    const m = this.made[r.index % this.made.length];
    if (byReqId && m.reqId !== undefined) return [{ key: Key.PMIX_ALLOC_REQ_ID, value: m.reqId }];
    return [{ key: Key.PMIX_ALLOC_ID, value: m.allocId }];
  }

  targetEntry(r: AllocRef): string {
    if (r.kind === 'default') return '';
    if (r.kind === 'unknown' || this.made.length === 0) return 'no-such-allocation';
    return this.made[r.index % this.made.length].allocId;
  }
}

/** An observation's lists are sets (no document orders them; events carry their order in seq): compare them sorted. */
function asSets(snap: Snapshot): Snapshot {
  const by = <T>(key: (x: T) => string | number) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  return {
    nodes: [...snap.nodes].sort(by((n) => n.name)),
    jobs: [...snap.jobs].sort(by((j) => j.nspace)).map((j) => ({ ...j, procs: [...j.procs].sort(by((p) => p.rank)) })),
    events: [...snap.events].sort(by((e) => e.seq)),
  };
}

/** Invariants of one observation, whatever happened before. */
function checkState(o: { snap: Snapshot; intro?: Introspection }) {
  const names = o.snap.nodes.map((n) => n.name);
  assert.equal(new Set(names).size, names.length, 'a node appears twice in the DVM');
  for (const s of STARTUP) assert.ok(names.includes(s), `startup node ${s} left the DVM`);
  for (const n of names) assert.ok(STARTUP.includes(n) || SCHEDULER.includes(n), `unknown node ${n}`);
  if (!o.intro) return;
  const holder = new Map<string, string>();
  for (const a of o.intro.allocations) {
    assert.notEqual(a.owner, '', `allocation ${a.allocId} has the empty namespace as owner`);
    assert.ok(!a.owners.includes(''), `allocation ${a.allocId} lists the empty namespace among its owners`);
    for (const n of a.nodes) {
      assert.ok(!holder.has(n), `node ${n} is held by ${holder.get(n)} and ${a.allocId}`);
      holder.set(n, a.allocId);
    }
  }
  const reserved = new Map(o.intro.allocations.filter((a) => a.reserved).map((a) => [a.allocId, a]));
  for (const node of o.snap.nodes) {
    if (node.availableTo === '') {
      const h = holder.get(node.name);
      assert.ok(h === undefined || !reserved.has(h), `node ${node.name} is in the default session but reserved to ${h}`);
    } else {
      assert.ok(reserved.get(node.availableTo)?.nodes.includes(node.name), `node ${node.name} is available to ${node.availableTo}, which does not hold it`);
    }
  }
}

async function step(run: Run, op: Op): Promise<void> {
  const before = await run.observe();
  const live = run.liveRequesters(before.snap);
  const pick = (i: number) => live[i % live.length];
  let status: number | undefined;
  let spawned: { nspace: string; allowed: string[]; requester: ProcId; explicit: string[] } | undefined;
  const spawnedNp = op.op === 'spawn' ? op.np : 0;

  switch (op.op) {
    case 'new': {
      const info: Info[] = [];
      if (op.nodes > 0) info.push({ key: Key.PMIX_ALLOC_NUM_NODES, value: op.nodes });
      if (op.target !== undefined) info.push({ key: Key.PMIX_ALLOC_TARGET, value: op.target === 'invalid' ? '' : pick(op.target).nspace });
      if (op.share !== undefined) info.push({ key: Key.PMIX_ALLOC_SHARE, value: op.share === 'garbage' ? 'yes' : op.share });
      if (op.inheritance !== undefined) info.push({ key: Key.PMIX_ALLOC_INHERITANCE, value: op.inheritance });
      if (op.reqId !== undefined) info.push({ key: Key.PMIX_ALLOC_REQ_ID, value: op.reqId });
      const r = await run.impl.allocate({ requester: pick(op.who), directive: Directive.PMIX_ALLOC_NEW, info });
      status = r.status;
      const id = r.info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value;
      if (r.status === Status.PMIX_SUCCESS) {
        assert.equal(typeof id, 'string', 'a successful NEW returns a PMIX_ALLOC_ID');
        assert.ok(!before.intro?.allocations.some((a) => a.allocId === id), `a NEW returned ${String(id)}, the id of an allocation that still exists`);
        run.made.push({ allocId: id as string, reqId: op.reqId });
      }
      break;
    }
    case 'extend': {
      const info = run.ref(op.alloc, op.byReqId);
      if (op.nodes > 0) info.push({ key: Key.PMIX_ALLOC_NUM_NODES, value: op.nodes });
      if (op.share !== undefined) info.push({ key: Key.PMIX_ALLOC_SHARE, value: op.share });
      status = (await run.impl.allocate({ requester: pick(op.who), directive: Directive.PMIX_ALLOC_EXTEND, info })).status;
      break;
    }
    case 'release': {
      status = (await run.impl.allocate({ requester: pick(op.who), directive: Directive.PMIX_ALLOC_RELEASE, info: run.ref(op.alloc) })).status;
      break;
    }
    case 'spawn': {
      const requester = pick(op.who);
      const info: Info[] = [];
      let explicit: string[] = [];
      if (op.targets) {
        explicit = op.targets.map((t) => run.targetEntry(t));
        info.push({ key: Key.PMIX_SPAWN_TARGET, value: op.arrayForm || explicit.length > 1 ? explicit : explicit[0] });
      } else if (op.legacy && run.made.length > 0) {
        const m = run.made[0];
        const viaReq = op.legacy === 'PMIX_ALLOC_REQ_ID' && m.reqId !== undefined;
        info.push(viaReq ? { key: Key.PMIX_ALLOC_REQ_ID, value: m.reqId! } : { key: Key.PMIX_ALLOC_ID, value: m.allocId });
        explicit = [viaReq ? (before.intro?.allocations.find((a) => a.reqId === m.reqId)?.allocId ?? 'unknown') : m.allocId];
      }
      // The sessions the job may use, per the spec: reserved targets by id,
      // the invalid namespace and shared allocations as the default session;
      // no target: the parent's session for an application, else the default.
      const sessionOf = (entry: string) => (entry === '' ? '' : before.intro?.allocations.find((a) => a.allocId === entry)?.reserved === false ? '' : entry);
      let allowed = explicit.map(sessionOf);
      if (explicit.length === 0) {
        const parentPrimary = run.primary.get(requester.nspace);
        const live = parentPrimary !== undefined && parentPrimary !== '' && before.intro?.allocations.some((a) => a.allocId === parentPrimary);
        allowed = [live ? parentPrimary! : ''];
      }
      const r = await run.impl.spawn({ requester, apps: [{ cmd: 'app', np: op.np, ...(op.tool ? { tool: true } : {}) }], info });
      status = r.status;
      if (r.status === Status.PMIX_ERR_OUT_OF_RESOURCE) {
        // Refused for want of room: its sessions cannot have had np free slots.
        const free = before.snap.nodes.filter((n) => allowed.includes(n.availableTo) && n.daemon === 'ready').reduce((k, n) => k + Math.max(0, n.slots - n.slotsInUse), 0);
        assert.ok(free < op.np, `a spawn of ${op.np} processes was refused for want of room, but its sessions ${JSON.stringify(allowed)} had ${free} free slots`);
      }
      if (r.status === Status.PMIX_SUCCESS) {
        const nspace = r.nspace!;
        assert.ok(!run.jobs.includes(nspace) && !run.requesters.some((p) => p.nspace === nspace), `a spawn returned ${nspace}, a namespace already in use`);
        run.jobs.push(nspace);
        run.primary.set(nspace, allowed.find((a) => a !== '') ?? '');
        spawned = { nspace, allowed, requester, explicit: explicit.filter((e) => e !== '') };
      }
      break;
    }
    case 'terminate': {
      const running = before.snap.jobs.filter((j) => j.state === 'RUNNING');
      if (running.length === 0) return;
      await run.impl.terminateJob({ nspace: running[op.job % running.length].nspace });
      break;
    }
    case 'tool-leaves': {
      const tool = run.tools[op.tool % run.tools.length];
      const idx = run.requesters.indexOf(tool);
      if (idx < 0) return;
      await run.impl.disconnectTool({ proc: tool });
      run.requesters.splice(idx, 1);
      break;
    }
  }

  const after = await run.observe();
  checkState(after);
  if (status !== undefined && status !== Status.PMIX_SUCCESS) {
    assert.ok(isDeepStrictEqual(asSets(after.snap), asSets(before.snap)), `rejected ${op.op} (status ${status}) changed what a client can observe`);
    assert.ok(isDeepStrictEqual(after.intro, before.intro), `rejected ${op.op} (status ${status}) changed an allocation's bookkeeping`);
  }
  if (spawned) {
    const job = after.snap.jobs.find((j) => j.nspace === spawned!.nspace)!;
    assert.equal(job.state, 'RUNNING', `${spawned.nspace} was spawned but is ${job.state}`);
    assert.deepEqual(job.procs.map((p) => p.rank).sort((a, b) => a - b), [...Array(spawnedNp).keys()], `${spawned.nspace} asked for ${spawnedNp} processes, ranks 0..${spawnedNp - 1}`);
    assert.ok(job.procs.every((p) => p.running), `a process of ${spawned.nspace} is not running`);
    const where = new Map(after.snap.nodes.map((n) => [n.name, n.availableTo]));
    for (const p of job.procs) {
      assert.ok(spawned.allowed.includes(where.get(p.node)!), `rank ${p.rank} of ${spawned.nspace} landed on ${p.node} (${where.get(p.node) || 'default'}), outside ${JSON.stringify(spawned.allowed)}`);
    }
    if (before.intro && after.intro) {
      for (const a of before.intro.allocations) {
        const targeted = spawned.explicit.includes(a.allocId) || spawned.allowed.includes(a.allocId);
        const now = after.intro.allocations.find((x) => x.allocId === a.allocId)!;
        if (targeted && a.reserved) {
          assert.ok(spawned.requester.nspace === run.requesters[0].nspace || a.owners.includes(spawned.requester.nspace), `${spawned.requester.nspace} spawned into ${a.allocId} without owning it`);
          assert.ok(now.owners.includes(spawned.nspace), `${spawned.nspace} was spawned into ${a.allocId} but is not an owner`);
        } else {
          assert.ok(!now.owners.includes(spawned.nspace), `${spawned.nspace} became an owner of ${a.allocId}, which it was not spawned into`);
        }
      }
    }
  }
}

/** One property run: random sequences against the implementation `make` returns. */
async function property(make: () => Implementation, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(sequenceArb(25), async (ops) => {
      const impl = make();
      const run = new Run(impl);
      try {
        const { scheduler } = await impl.start({
          startupNodes: STARTUP.map((name) => ({ name, slots: 1 })), // small, so default-session jobs press against reserved nodes
          schedulerNodes: SCHEDULER.map((name) => ({ name, slots: 2 })),
          withoutKeys: [],
          elastic: false,
        });
        run.requesters.push(scheduler);
        for (const label of ['T1', 'T2']) {
          const { proc } = await impl.connectTool({ label });
          run.tools.push(proc);
          run.requesters.push(proc);
        }
        for (const op of ops) await step(run, op);
      } finally {
        await impl.stop();
      }
    }),
    propertySettings(runs),
  );
}

test('node reservation and spawn targeting hold their invariants over random sequences', async () => {
  await property(loadImplementation, 300);
});

// Every known-good (known-good/*.ts) takes a freedom the specification leaves: the rules above hold whatever it is.
const KNOWN_GOOD = fs.readdirSync(path.resolve(__dirname, '..', '..', 'known-good')).filter((f: string) => f.endsWith('.ts') && f !== 'good.ts').map((f: string) => f.replace(/\.ts$/, ''));
for (const name of KNOWN_GOOD) {
  test(`the same invariants hold for the known-good ${name}`, async () => {
    const { createImplementation } = require(`../../known-good/${name}`) as { createImplementation: () => Implementation };
    await property(createImplementation, 60);
  });
}
