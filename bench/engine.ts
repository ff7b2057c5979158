/**
 * Engine operations at two scales (1x and 10x of the workload), each timed
 * over the same number of calls, so the ratio shows how an operation's cost
 * grows with state it may or may not touch. Prints one JSON object on stdout.
 *
 *   node -r ./tools/register.js bench/engine.ts [--base 10000]
 *
 * Workload at scale k: 10,000k startup nodes (the default session),
 * 1,000k reservations of one scheduler node each, 10,000k running jobs
 * (spread over the reservations). Every operation is timed over CALLS calls.
 */
import { Engine } from '../reference/engine';
import type { ProcId } from '../seam/messages';
import { Directive, Inheritance, Key } from '../seam/pmix';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const BASE_NODES = arg('--nodes', 10_000);
const BASE_RES = arg('--reservations', 1_000);
const BASE_JOBS = arg('--jobs', 10_000);
const CALLS = arg('--calls', 200);

interface World {
  engine: Engine;
  tool: ProcId;
  owners: ProcId[];
  allocs: string[];
  jobs: string[];
  spare: number;
}

const allocIdOf = (info: { key: string; value: unknown }[]) => info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value as string;

function build(k: number, elastic = false): World {
  const nodes = BASE_NODES * k;
  const res = BASE_RES * k;
  const jobs = BASE_JOBS * k;
  const engine = new Engine({
    startupNodes: Array.from({ length: nodes }, (_, i) => ({ name: `n${i}`, slots: 4 })),
    schedulerNodes: Array.from({ length: res + 4 * CALLS }, (_, i) => ({ name: `s${i}`, slots: 64 })),
    withoutKeys: [],
    elastic,
  });
  const tool = engine.connectTool();
  const owners: ProcId[] = [];
  const allocs: string[] = [];
  for (let r = 0; r < res; r++) {
    const a = engine.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: `s${r}` }] });
    allocs.push(allocIdOf(a.info));
  }
  // In elastic mode each of those NEWs started a grow: let them complete, so the jobs below run rather than park.
  if (elastic) {
    for (let r = 0; r < res; r++) engine.daemon({ event: 'report', node: `s${r}` });
    engine.daemon({ event: 'wireup' });
  }
  const ids: string[] = [];
  for (let j = 0; j < jobs; j++) {
    const s = engine.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: allocs[j % res] }] });
    ids.push(s.nspace!);
  }
  for (let r = 0; r < Math.min(res, CALLS); r++) owners.push({ nspace: ids[r], rank: 0 });
  return { engine, tool, owners, allocs, jobs: ids, spare: res };
}

/**
 * µs per call: the median of the calls' own times, so one garbage-collector
 * pause in a heap of 100,000 nodes (tens of milliseconds, on whichever call it
 * lands) does not read as the operation's cost; the mean is in `means`.
 */
const means: Record<string, number>[] = [];
function time(fn: (i: number) => void): number {
  const each: number[] = [];
  let total = 0;
  for (let i = 0; i < CALLS; i++) {
    const t0 = process.hrtime.bigint();
    fn(i);
    const us = Number(process.hrtime.bigint() - t0) / 1e3;
    each.push(us);
    total += us;
  }
  lastMean = total / CALLS;
  each.sort((a, b) => a - b);
  return each[Math.floor((CALLS - 1) / 2)];
}
let lastMean = 0;

type Op = { name: string; run: (w: World) => number };

const OPS: Op[] = [
  { name: 'NEW (one node by name)', run: (w) => time((i) => w.engine.allocate({ requester: w.tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: `s${w.spare + i}` }] })) },
  {
    name: 'EXTEND (one node)',
    run: (w) => time((i) => w.engine.allocate({ requester: w.tool, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: w.allocs[i] }, { key: Key.PMIX_ALLOC_NODE_LIST, value: `s${w.spare + CALLS + i}` }] })),
  },
  { name: 'spawn into a reservation', run: (w) => time((i) => w.engine.spawn({ requester: w.tool, apps: [{ cmd: 'b', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: w.allocs[i] }] })) },
  { name: 'spawn into the default session', run: (w) => time(() => w.engine.spawn({ requester: w.tool, apps: [{ cmd: 'c', np: 1 }], info: [] })) },
  { name: 'observe one node', run: (w) => time((i) => w.engine.observe({ nodes: [`n${i}`], jobs: [] })) },
  { name: 'observe one job', run: (w) => time((i) => w.engine.observe({ nodes: [], jobs: [w.jobs[i]] })) },
  {
    name: 'terminate a job with 3 descendants',
    run: (w) => {
      const parents: string[] = [];
      for (let i = 0; i < CALLS; i++) {
        const p = w.engine.spawn({ requester: w.tool, apps: [{ cmd: 'p', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: w.allocs[i] }] }).nspace!;
        let parent = p;
        for (let d = 0; d < 3; d++) parent = w.engine.spawn({ requester: { nspace: parent, rank: 0 }, apps: [{ cmd: 'd', np: 1 }], info: [] }).nspace!;
        parents.push(p);
      }
      return time((i) => w.engine.terminateJob(parents[i]));
    },
  },
  {
    name: 'owner ends, disposition NONE fires',
    run: (w) => {
      const owners: string[] = [];
      for (let i = 0; i < CALLS; i++) {
        const o = w.engine.spawn({ requester: w.tool, apps: [{ cmd: 'o', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: w.allocs[i] }] }).nspace!;
        w.engine.allocate({ requester: { nspace: o, rank: 0 }, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: `s${w.spare + 2 * CALLS + i}` }, { key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_NONE }] });
        owners.push(o);
      }
      return time((i) => w.engine.terminateJob(owners[i]));
    },
  },
  { name: 'RELEASE a reservation', run: (w) => time((i) => w.engine.allocate({ requester: w.tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: w.allocs[w.allocs.length - 1 - i] }] })) },
];

/** Elastic: a grow (NEW of a scheduler node) with a job parked behind it, completed by report + wireup; then its release (a shrink) completed by the daemon's exit. */
function campaigns(w: World): number {
  return time((i) => {
    const node = `s${w.spare + 3 * CALLS + i}`;
    const a = w.engine.allocate({ requester: w.tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: node }] });
    const id = allocIdOf(a.info);
    w.engine.spawn({ requester: w.tool, apps: [{ cmd: 'parked', np: 1 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: w.allocs[i] }] });
    w.engine.daemon({ event: 'report', node });
    w.engine.daemon({ event: 'wireup' });
    w.engine.allocate({ requester: w.tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: id }] });
    w.engine.daemon({ event: 'exit', node });
  });
}

/** One world per scale, the operations in turn (RELEASE last: it is the only one that takes state away). */
function measure(k: number): Record<string, number> {
  const out: Record<string, number> = {};
  const mean: Record<string, number> = {};
  means.push(mean);
  const tb = Date.now();
  let w: World | undefined = build(k);
  if (process.env.BENCH_VERBOSE) process.stderr.write(`  ${k}x build: ${Date.now() - tb} ms, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB\n`);
  for (const op of OPS) {
    const t = Date.now();
    out[op.name] = op.run(w);
    mean[op.name] = lastMean;
    if (process.env.BENCH_VERBOSE) process.stderr.write(`  ${k}x ${op.name}: ${Date.now() - t} ms, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB\n`);
  }
  w = undefined;
  out['grow + shrink campaign with a parked job (elastic)'] = campaigns(build(k, true));
  mean['grow + shrink campaign with a parked job (elastic)'] = lastMean;
  return out;
}

const t0 = Date.now();
measure(1); // warm-up: let the JIT settle before anything is recorded
const x1 = measure(1);
const x10 = measure(10);
process.stdout.write(
  `${JSON.stringify({
    workload: { nodes: [BASE_NODES, BASE_NODES * 10], reservations: [BASE_RES, BASE_RES * 10], jobs: [BASE_JOBS, BASE_JOBS * 10], callsPerOp: CALLS },
    unit: 'microseconds per call (median of the calls; the mean beside it)',
    ops: Object.keys(x1).map((name) => ({ name, x1: x1[name], x10: x10[name], ratio: x10[name] / x1[name], meanX1: means[1][name], meanX10: means[2][name] })),
    elapsedMs: Date.now() - t0,
  })}\n`,
);
