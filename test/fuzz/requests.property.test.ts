/**
 * Fuzzing the seam: random requests, well-formed and malformed, against the
 * default implementation (the reference engine behind the wire schemas,
 * adapters/reference.ts). Whatever arrives:
 *  - no status-answering method throws; it answers a PMIx status;
 *  - a request that could not have travelled the wire as it is (not an
 *    object, missing, a field present but undefined, or against the schemas)
 *    is refused the way the schemas refuse: PMIX_ERR_BAD_PARAM from a status
 *    method, a "malformed <method> request" throw from the others (observe,
 *    connectTool), never a throw from inside the engine nor an answer;
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
import { inspect, isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { check, requestType, responseType, valid } from '../../protocol/codec';
import { METHOD_OF, type Command } from '../../protocol/messages';
import type { Implementation } from '../../seam/implementation';
import type { ProcId, Snapshot } from '../../seam/messages';
import { ACCEPTED_STATUSES, Inheritance, Key, Status } from '../../seam/pmix';
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

type Op = { kind: 'allocate' | 'spawn' | 'terminate' | 'disconnect' | 'scheduler' | 'daemon' | 'advance' | 'query' | 'connect' | 'observe'; who: number; a: number; b: unknown; c: unknown; keys: string[]; vals: unknown[]; malformed: number };
const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('allocate', 'allocate', 'allocate', 'spawn', 'spawn', 'terminate', 'disconnect', 'scheduler', 'daemon', 'advance', 'query', 'connect', 'observe'),
  who: ref,
  a: fc.integer({ min: -1, max: 6 }),
  b: fc.oneof(name, junk),
  c: fc.oneof(fc.integer({ min: 0, max: 6 }), junk),
  keys: fc.array(key, { maxLength: 3 }),
  vals: fc.array(fc.oneof(ref, name, junk, fc.constantFrom(...Object.values(Inheritance))), { maxLength: 3 }),
  // 0, 1: well-formed; otherwise one way to break the request.
  malformed: fc.nat({ max: 6 }),
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
    case 'observe':
      method = 'observe';
      req = { ...(o.a % 2 === 0 ? { nodes: [String(o.b)] } : {}), ...(o.a > 2 ? { jobs: [pick(m.jobs, o.who, 'ghost-job')] } : {}) };
      break;
  }
  return { method, req: breakIt(req, o) };
}

/** Well-formed (0, 1), or broken one way: a field of another value or type, a missing field, an unknown field, a field present but undefined, garbage or no request at all. */
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
    case 5:
      // Present but undefined: the schemas skip such a field, JSON would drop it; as it is, it never travels.
      return { ...req, [o.who % 2 === 0 ? f : 'unknownField']: undefined };
    default:
      return o.b; // junk includes null and undefined: no request at all

  }
}

const STATUS_METHODS = new Set(['allocate', 'spawn', 'terminateJob', 'disconnectTool', 'scheduler', 'daemon', 'advanceJob', 'queryAllocation']);
const COMMAND_OF = new Map(Object.entries(METHOD_OF).map(([cmd, method]) => [method as string, cmd as Command]));

/**
 * Whether the request could have arrived over the wire exactly as it is: a
 * plain object, unchanged by JSON, valid against its schema. Written apart
 * from protocol/validated.ts (through JSON, not by walking the value) so the
 * two are not one mistake made twice.
 */
function travelsAsIs(method: string, req: unknown): boolean {
  if (typeof req !== 'object' || req === null || Array.isArray(req)) return false;
  const cmd = COMMAND_OF.get(method)!;
  const wire = JSON.parse(JSON.stringify(req)) as object;
  return isDeepStrictEqual(wire, req) && valid(requestType(cmd), { seq: 0, cmd, ...wire });
}

function invariants(s: Snapshot): void {
  check(responseType('observe'), JSON.parse(JSON.stringify({ seq: 0, ...s })));
  const nodes = new Map(s.nodes.map((n) => [n.name, n]));
  for (const n of s.nodes) assert.ok(n.slotsInUse <= n.slots && n.slotsInUse >= 0, `node ${n.name}: ${n.slotsInUse} of ${n.slots} slots in use`);
  for (const j of s.jobs) for (const p of j.procs) if (p.running) assert.ok(nodes.has(p.node), `job ${j.nspace} rank ${p.rank} runs on ${p.node}, which is not in the DVM`);
}

/** A request as written, undefined fields included (JSON.stringify would hide the very fault). */
const show = (v: unknown): string => inspect(v, { depth: 4, breakLength: Infinity });

async function runOne(impl: Implementation, ops: Op[]): Promise<void> {
  const { scheduler } = await impl.start(structuredClone(SETUP));
  const m: Minted = { tools: [(await impl.connectTool({ label: 'T' })).proc], jobs: [], allocs: [] };
  for (const o of ops) {
    const { method, req } = requestOf(o, m, scheduler);
    const before = await impl.observe({});
    const malformed = !travelsAsIs(method, req);
    const shown = `${method}(${show(req)})`;
    let answer: { status?: number; nspace?: string; info?: { key: string; value: unknown }[]; proc?: ProcId } | undefined;
    try {
      answer = await (impl as unknown as Record<string, (r: unknown) => Promise<typeof answer>>)[method](req);
    } catch (e) {
      // Only the methods without a status may refuse by throwing (as the server refuses a malformed request), and only a malformed request.
      const message = (e as Error).message;
      assert.ok(!STATUS_METHODS.has(method), `${shown} threw: ${message}`);
      assert.ok(malformed && message.startsWith(`malformed ${method} request`), `${shown} threw, not as a refusal of a malformed request: ${message}`);
      assert.deepEqual(await impl.observe({}), before, `${method} threw and changed something`);
      continue;
    }
    if (malformed) {
      assert.ok(STATUS_METHODS.has(method), `${shown} is malformed but was answered: ${show(answer)}`);
      assert.equal(answer?.status, Status.PMIX_ERR_BAD_PARAM, `${shown} is malformed but was answered ${show(answer)}, not PMIX_ERR_BAD_PARAM`);
    }
    const after = await impl.observe({});
    if (answer && typeof answer.status === 'number' && !ACCEPTED_STATUSES.includes(answer.status) && method !== 'queryAllocation') {
      assert.ok(isDeepStrictEqual(after, before), `${shown} was refused (${answer.status}) but changed what a client observes`);
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
