/**
 * Fuzzing the seam: random requests, well-formed and malformed, against the
 * default implementation (the reference engine behind the wire schemas,
 * adapters/reference.ts). Whatever arrives:
 *  - no status-answering method throws; it answers a PMIx status;
 *  - a request that is refused (any non-accepted status) changes nothing a
 *    client can observe;
 *  - the engine's invariants hold after every request: the observation is a
 *    valid observe-response, no node runs more processes than it has slots
 *    (tool processes aside), and every running process is on a node of the DVM.
 * PMIX_FUZZ_REQUESTS sets how many requests in all (default 20,000; the
 * issue's figure is 100,000); the seed is fixed (PMIX_PROPERTY_SEED replays).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { check, responseType } from '../../protocol/codec';
import type { Implementation } from '../../seam/implementation';
import type { ProcId, Snapshot } from '../../seam/messages';
import { ACCEPTED_STATUSES, Inheritance, Key } from '../../seam/pmix';
import { loadImplementation, propertySettings } from '../support/adapter';

const TOTAL = Number(process.env.PMIX_FUZZ_REQUESTS ?? 20_000);
const PER_RUN = 50;
const SETUP = {
  startupNodes: [{ name: 'n1', slots: 4 }, { name: 'n2', slots: 4 }],
  schedulerNodes: [{ name: 's1', slots: 4 }, { name: 's2', slots: 4 }, { name: 's3', slots: 4 }],
  withoutKeys: [],
  elastic: true,
};

// ----------------------------------------------------------- values

const junk = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 300000 }), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }), fc.object({ maxDepth: 1 }));
const name = fc.constantFrom('n1', 'n2', 's1', 's2', 's3', 'nope', '');
/** An index into what the run has minted so far (tools, jobs, allocation ids), or something made up. */
const ref = fc.nat({ max: 7 });
const key = fc.constantFrom(Key.PMIX_ALLOC_ID, Key.PMIX_ALLOC_REQ_ID, Key.PMIX_ALLOC_NODE_LIST, Key.PMIX_ALLOC_NUM_NODES, Key.PMIX_ALLOC_TARGET, Key.PMIX_ALLOC_SHARE, Key.PMIX_ALLOC_INHERITANCE, Key.PMIX_SPAWN_TARGET, Key.PMIX_SESSION_ID, 'pmix.made.up');

type Op = { kind: 'allocate' | 'spawn' | 'terminate' | 'disconnect' | 'scheduler' | 'daemon' | 'advance' | 'query' | 'connect'; who: number; a: number; b: unknown; c: unknown; keys: string[]; vals: unknown[]; malformed: number };
const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('allocate', 'allocate', 'allocate', 'spawn', 'spawn', 'terminate', 'disconnect', 'scheduler', 'daemon', 'advance', 'query', 'connect'),
  who: ref,
  a: fc.integer({ min: -1, max: 6 }),
  b: fc.oneof(name, junk),
  c: fc.oneof(fc.integer({ min: 0, max: 6 }), junk),
  keys: fc.array(key, { maxLength: 3 }),
  vals: fc.array(fc.oneof(ref, name, junk, fc.constantFrom(...Object.values(Inheritance))), { maxLength: 3 }),
  // 0: well-formed; otherwise one way to break the request.
  malformed: fc.nat({ max: 5 }),
});

// ----------------------------------------------------------- driving

interface Minted {
  tools: ProcId[];
  jobs: string[];
  allocs: string[];
}

const pick = <T>(xs: T[], i: number, otherwise: T): T => (xs.length === 0 ? otherwise : xs[i % xs.length]);

function requestOf(o: Op, m: Minted, scheduler: ProcId): { method: string; req: unknown } {
  const requester = o.who === 7 ? scheduler : o.who % 2 === 0 ? pick(m.tools, o.who, { nspace: 'ghost', rank: 0 }) : { nspace: pick(m.jobs, o.who, 'ghost-job'), rank: 0 };
  const value = (v: unknown) => (typeof v === 'number' && v < 8 && m.allocs.length > 0 ? pick(m.allocs, v, 'x') : v);
  const info = o.keys.map((k, i) => ({ key: k, value: value(o.vals[i]) }));
  let method: string;
  let req: Record<string, unknown>;
  switch (o.kind) {
    case 'allocate':
      method = 'allocate';
      req = { requester, directive: o.a, info };
      break;
    case 'spawn':
      method = 'spawn';
      req = { requester, apps: [{ cmd: 'a', np: typeof o.c === 'number' ? o.c : 1, ...(o.a === 5 ? { tool: true } : {}), ...(o.a === 6 ? { hosts: [String(o.b)] } : {}) }], info };
      break;
    case 'terminate':
      method = 'terminateJob';
      req = { nspace: pick(m.jobs, o.who, 'ghost-job') };
      break;
    case 'disconnect':
      method = 'disconnectTool';
      req = { proc: requester };
      break;
    case 'scheduler': {
      method = 'scheduler';
      const actions = ['reclaim', 'timeout-warning', 'grant-queued', 'add-nodes', 'fail-next-shrink-order', 'reclaim', 'timeout-warning'];
      const action = actions[Math.max(0, o.a) % actions.length];
      req = { action, ...(action === 'reclaim' || action === 'timeout-warning' ? { allocId: pick(m.allocs, o.who, 'x') } : {}), ...(action === 'add-nodes' ? { nodes: [String(o.b)] } : {}), ...(action === 'fail-next-shrink-order' ? { cause: -25 } : {}) };
      break;
    }
    case 'daemon':
      method = 'daemon';
      req = { event: ['report', 'wireup', 'exit', 'crash', 'fail-to-start'][Math.max(0, o.a) % 5], node: String(o.b) };
      break;
    case 'advance':
      method = 'advanceJob';
      req = { nspace: pick(m.jobs, o.who, 'ghost-job'), to: o.a % 2 === 0 ? 'map' : 'launch' };
      break;
    case 'query':
      method = 'queryAllocation';
      req = { requester, qualifiers: info };
      break;
    case 'connect':
      method = 'connectTool';
      req = { label: 'T' };
      break;
  }
  return { method, req: breakIt(req, o) };
}

/** Well-formed (0), or broken one way: a field of the wrong type, a missing field, an unknown field, an unknown enum value, garbage. */
function breakIt(req: Record<string, unknown>, o: Op): unknown {
  const fields = Object.keys(req);
  const f = fields[o.who % Math.max(1, fields.length)];
  switch (o.malformed) {
    case 0:
    case 1:
      return req;
    case 2:
      return { ...req, [f]: o.b };
    case 3: {
      const { [f]: _gone, ...rest } = req;
      return rest;
    }
    case 4:
      return { ...req, unknownField: o.c };
    default:
      return o.b;
  }
}

const STATUS_METHODS = new Set(['allocate', 'spawn', 'terminateJob', 'disconnectTool', 'scheduler', 'daemon', 'advanceJob', 'queryAllocation']);

function invariants(s: Snapshot): void {
  check(responseType('observe'), JSON.parse(JSON.stringify({ seq: 0, ...s })));
  const nodes = new Map(s.nodes.map((n) => [n.name, n]));
  for (const n of s.nodes) assert.ok(n.slotsInUse <= n.slots && n.slotsInUse >= 0, `node ${n.name}: ${n.slotsInUse} of ${n.slots} slots in use`);
  for (const j of s.jobs) for (const p of j.procs) if (p.running) assert.ok(nodes.has(p.node), `job ${j.nspace} rank ${p.rank} runs on ${p.node}, which is not in the DVM`);
}

async function runOne(impl: Implementation, ops: Op[]): Promise<void> {
  const { scheduler } = await impl.start(structuredClone(SETUP));
  const m: Minted = { tools: [(await impl.connectTool({ label: 'T' })).proc], jobs: [], allocs: [] };
  for (const o of ops) {
    const { method, req } = requestOf(o, m, scheduler);
    const before = await impl.observe({});
    let answer: { status?: number; nspace?: string; info?: { key: string; value: unknown }[]; proc?: ProcId } | undefined;
    try {
      answer = await (impl as unknown as Record<string, (r: unknown) => Promise<typeof answer>>)[method](req);
    } catch (e) {
      // Only the methods without a status may refuse by throwing (as the server refuses a malformed request).
      assert.ok(!STATUS_METHODS.has(method), `${method}(${JSON.stringify(req)}) threw: ${(e as Error).message}`);
      assert.deepEqual(await impl.observe({}), before, `${method} threw and changed something`);
      continue;
    }
    const after = await impl.observe({});
    if (answer && typeof answer.status === 'number' && !ACCEPTED_STATUSES.includes(answer.status) && method !== 'queryAllocation') {
      assert.ok(isDeepStrictEqual(after, before), `${method}(${JSON.stringify(req)}) was refused (${answer.status}) but changed what a client observes`);
    }
    invariants(after);
    if (answer?.nspace) m.jobs.push(answer.nspace);
    if (answer?.proc) m.tools.push(answer.proc);
    const id = answer?.info?.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value;
    if (typeof id === 'string' && !m.allocs.includes(id)) m.allocs.push(id);
  }
  await impl.stop();
}

test(`fuzz: ${TOTAL} random requests, well-formed and malformed, never throw, refusals change nothing, invariants hold`, async () => {
  const settings = propertySettings(Math.ceil(TOTAL / PER_RUN));
  const t0 = process.hrtime.bigint();
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: PER_RUN, maxLength: PER_RUN }), async (ops) => runOne(loadImplementation(), ops)),
    settings,
  );
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`fuzz: ${settings.numRuns * PER_RUN} requests in ${s.toFixed(1)} s (seed ${settings.seed ?? 'random'})`);
});
