/**
 * Random interleavings of elastic-DVM happenings as plain data, so a shrunk
 * counterexample prints readably and can be replayed. Every index is
 * resolved against the state the sequence has reached (connected tools,
 * running jobs, allocations made so far, nodes joining / leaving / gone),
 * always modulo the list's length, so every sequence is runnable; an op
 * that names nothing (no joining node to report, no held job to advance)
 * is skipped.
 */
import fc from 'fast-check';

/**
 * Who issues a grow: a connected tool, or rank 0 of a running job (an
 * application requester). `app` falls back to a tool when no job runs.
 */
export type GrowRequester = { kind: 'tool' | 'app'; index: number };

/** An allocation made earlier: index into the live ones, or into every one made (ended ones included). */
export type AllocRef = { among: 'live' | 'all'; index: number };

/** The nodes a daemon op picks from. */
export type NodeSet =
  /** launched by a grow, not yet wired */
  | 'joining'
  /** a shrink target, not yet departed */
  | 'leaving'
  /** a scheduler node with a wired daemon that belongs to no campaign (its loss is unrelated to any campaign) */
  | 'ready'
  /** a node that has already left the DVM (a repeated or late report) */
  | 'gone';

export type Op =
  /**
   * PMIX_ALLOC_NEW / PMIX_ALLOC_EXTEND for 1–2 scheduler nodes: by
   * PMIX_ALLOC_NODE_LIST naming free scheduler nodes (`byList`), else
   * PMIX_ALLOC_NUM_NODES. `reqId`: carry a fresh, unique PMIX_ALLOC_REQ_ID.
   * NEW only: `share` (PMIX_ALLOC_SHARE=true: the nodes join the default
   * session), `none` (PMIX_ALLOC_INHERIT_NONE: the owner's end returns the
   * nodes, a shrink with no requester). EXTEND: `alloc` is one of the
   * requester's own allocations, or with `foreign` any allocation (then
   * usually refused).
   */
  | { op: 'grow'; directive: 'NEW' | 'EXTEND'; by: GrowRequester; nodes: 1 | 2; byList: boolean; reqId: boolean; share?: boolean; none?: boolean; alloc?: AllocRef; foreign?: boolean }
  /**
   * PMIX_ALLOC_RELEASE. Without `nodes`: the whole allocation, by
   * PMIX_ALLOC_ID. With `nodes`: PMIX_ALLOC_NODE_LIST naming 1–2 of its
   * nodes (`withId`: PMIX_ALLOC_ID too). `by`: a live owner, the scheduler,
   * or a process that owns nothing of it (refused). `reqId` is sent only
   * when the request also names the allocation (a REQ_ID alone would name
   * one, not label the request).
   */
  | { op: 'release'; by: 'owner' | 'scheduler' | 'stranger'; alloc: AllocRef; nodes?: 1 | 2; withId?: boolean; reqId: boolean }
  /** The scheduler reclaims an allocation (a shrink with no requester). */
  | { op: 'reclaim'; alloc: AllocRef }
  /** The scheduler pushes 1–2 free nodes into the DVM (a grow with no requester). */
  | { op: 'push'; nodes: 1 | 2 }
  /** Something a daemon does; `index` picks the node in `among`. */
  | { op: 'daemon'; event: 'report' | 'exit' | 'crash' | 'fail-to-start'; among: NodeSet; index: number }
  /** The head node distributes the wireup to the daemons that have reported. */
  | { op: 'wireup' }
  /**
   * Drive one campaign in progress (index into those of `kind`) to its end:
   * a grow's pending daemons each report in and the head node sends the
   * wireup, or with `fail` one of its targets fails to start (with `crash`:
   * crashes); a shrink's pending daemons each depart (exit, or with `crash`
   * crash), with `repeat` each departure reported twice. Each of these is
   * its own checked step; other campaigns may still be in progress around it.
   */
  | { op: 'complete'; kind: 'grow' | 'shrink'; index: number; crash?: boolean; fail?: boolean; repeat?: boolean }
  /**
   * A connected tool spawns a job of `np` processes, optionally held before
   * the map-eligible boundary ('map') or the launch boundary ('launch').
   * `into`: PMIX_SPAWN_TARGET naming one of the tool's own reserved
   * allocations (absent, or when it has none: the default session).
   */
  | { op: 'spawn'; by: number; np: 1 | 2; hold?: 'map' | 'launch'; into?: number }
  /**
   * Move a held job on (index into the held jobs). A job held before the
   * map-eligible boundary goes `to` 'map' (optionally held again before launch) or
   * 'launch'; one held before launch always goes to 'launch'.
   */
  | { op: 'advance'; job: number; to: 'map' | 'launch'; holdBeforeLaunch?: boolean }
  /** Every process of a job exits (index into the running jobs, or into those still waiting: held or parked). */
  | { op: 'terminate'; job: number; among: 'running' | 'waiting' };

const idx = fc.nat({ max: 9 });
const allocRef: fc.Arbitrary<AllocRef> = fc.record({
  among: fc.oneof({ weight: 4, arbitrary: fc.constant('live' as const) }, { weight: 1, arbitrary: fc.constant('all' as const) }),
  index: idx,
});
const nodes = fc.constantFrom(1 as const, 2 as const);

const growArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      {
        op: fc.constant('grow' as const),
        directive: fc.constant('NEW' as const),
        by: fc.record({ kind: fc.constantFrom('tool' as const, 'app' as const), index: idx }),
        nodes,
        byList: fc.boolean(),
        reqId: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        share: fc.boolean(),
        none: fc.boolean(),
      },
      { requiredKeys: ['op', 'directive', 'by', 'nodes', 'byList', 'reqId'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        op: fc.constant('grow' as const),
        directive: fc.constant('EXTEND' as const),
        by: fc.record({ kind: fc.constantFrom('tool' as const, 'app' as const), index: idx }),
        nodes,
        byList: fc.boolean(),
        reqId: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        alloc: allocRef,
        foreign: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      },
      { requiredKeys: ['op', 'directive', 'by', 'nodes', 'byList', 'reqId', 'alloc', 'foreign'] },
    ),
  },
);

const daemonArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('daemon' as const), event: fc.constant('report' as const), among: fc.constant('joining' as const), index: idx }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('daemon' as const), event: fc.constantFrom('crash' as const, 'fail-to-start' as const), among: fc.constant('joining' as const), index: idx }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('daemon' as const), event: fc.constantFrom('exit' as const, 'crash' as const), among: fc.constant('leaving' as const), index: idx }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('daemon' as const), event: fc.constantFrom('exit' as const, 'crash' as const), among: fc.constant('ready' as const), index: idx }) },
  // Late happenings of a daemon that is gone, which change nothing (IP-ELASTIC-ROLLBACK). Not
  // 'fail-to-start': sent for a node whose daemon has not been launched, the seam gives it another
  // meaning (seam/messages.ts DaemonEvent: the node's next daemon is kept from starting), so a
  // later grow or push of the node would rightly fail, which the model does not predict.
  { weight: 2, arbitrary: fc.record({ op: fc.constant('daemon' as const), event: fc.constantFrom('report' as const, 'exit' as const, 'crash' as const), among: fc.constant('gone' as const), index: idx }) },
);

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: growArb },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        op: fc.constant('release' as const),
        by: fc.oneof({ weight: 5, arbitrary: fc.constant('owner' as const) }, { weight: 2, arbitrary: fc.constant('scheduler' as const) }, { weight: 1, arbitrary: fc.constant('stranger' as const) }),
        alloc: allocRef,
        nodes,
        withId: fc.boolean(),
        reqId: fc.boolean(),
      },
      { requiredKeys: ['op', 'by', 'alloc', 'reqId'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reclaim' as const), alloc: allocRef }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('push' as const), nodes }) },
  { weight: 7, arbitrary: daemonArb },
  { weight: 2, arbitrary: fc.constant({ op: 'wireup' as const }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('complete' as const), kind: fc.constant('grow' as const), index: idx }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('complete' as const), kind: fc.constant('grow' as const), index: idx, fail: fc.constant(true), crash: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('complete' as const), kind: fc.constant('shrink' as const), index: idx, crash: fc.boolean(), repeat: fc.boolean() }, { requiredKeys: ['op', 'kind', 'index'] }),
  },
  {
    weight: 7,
    arbitrary: fc.record(
      {
        op: fc.constant('spawn' as const),
        by: fc.nat({ max: 1 }),
        np: nodes,
        hold: fc.oneof({ weight: 1, arbitrary: fc.constant('map' as const) }, { weight: 2, arbitrary: fc.constant('launch' as const) }),
        into: idx,
      },
      { requiredKeys: ['op', 'by', 'np'] },
    ),
  },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('advance' as const), job: idx, to: fc.constantFrom('map' as const, 'launch' as const), holdBeforeLaunch: fc.boolean() }, { requiredKeys: ['op', 'job', 'to'] }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('terminate' as const), job: idx, among: fc.oneof({ weight: 3, arbitrary: fc.constant('running' as const) }, { weight: 1, arbitrary: fc.constant('waiting' as const) }) }),
  },
);

export const sequenceArb = (maxLength: number): fc.Arbitrary<Op[]> => fc.array(opArb, { minLength: 1, maxLength, size: 'max' });
