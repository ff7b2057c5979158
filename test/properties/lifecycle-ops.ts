/**
 * Random multi-tenant lifecycle sequences as plain data, so a shrunk
 * counterexample prints readably. Indices are resolved against the state
 * the sequence has reached (live requesters, running jobs, allocations made
 * so far), always modulo the list's length, so every sequence is runnable.
 */
import fc from 'fast-check';

/** An allocation made earlier: index into the live ones, or into every one made so far (ended ones included). */
export type AllocRef = { among: 'live' | 'all'; index: number };

/**
 * Who issues a spawn or a release:
 *  - owner: one of the allocation's live owners (owning namespace, or a job
 *    spawned into it);
 *  - requester: the process that asked for the allocation (a tool that
 *    used PMIX_ALLOC_TARGET is not an owner);
 *  - scheduler: the scheduler (implicit owner of everything);
 *  - job: a running job (nesting);
 *  - resident: a running job that runs in a live reservation (its untargeted
 *    children land there too);
 *  - any: index into [scheduler, connected tools…, running jobs…].
 * Each falls back to `any` when it names no one.
 */
export type Who =
  | { kind: 'owner'; index: number }
  | { kind: 'requester' }
  | { kind: 'scheduler' }
  | { kind: 'job'; index: number }
  | { kind: 'resident'; index: number }
  | { kind: 'any'; index: number };

export type Op =
  /**
   * PMIX_ALLOC_NEW of one node: PMIX_ALLOC_NUM_NODES=1 (the scheduler
   * grants one of its nodes), or with `startup` PMIX_ALLOC_NODE_LIST naming
   * an idle startup node of the default session (index into those; falls
   * back to NUM_NODES when there is none). `by` indexes [connected tools…,
   * running jobs…]; `target` (used only when `by` is a tool) indexes the
   * running jobs and becomes PMIX_ALLOC_TARGET. Absent inheritance/share:
   * the attribute is absent.
   */
  | { op: 'allocate'; by: number; inheritance?: 1 | 2 | 3 | 4; share?: boolean; target?: number; startup?: number }
  /**
   * PMIx_Spawn of one process. `into` (and `alsoInto`, a second entry when
   * it names another allocation) are the PMIX_SPAWN_TARGET allocations;
   * `withDefault` adds the invalid namespace '' as an entry (alone when
   * `into` is absent). Without either, the spawn carries no
   * PMIX_SPAWN_TARGET. `arrayForm`: a one-entry array instead of a string.
   */
  | { op: 'spawn'; by: Who; into?: AllocRef; alsoInto?: AllocRef; withDefault?: boolean; arrayForm?: boolean }
  /** Every process of a running job exits (index into the running jobs). */
  | { op: 'terminate'; job: number }
  /** A connected tool disconnects (index into the connected tools). */
  | { op: 'disconnect'; tool: number }
  /** PMIX_ALLOC_RELEASE naming an allocation (PMIX_ALLOC_ID). */
  | { op: 'release'; by: Who; alloc: AllocRef }
  /** The scheduler reclaims an allocation. */
  | { op: 'reclaim'; alloc: AllocRef }
  /** The DVM is torn down: only ever the last op. */
  | { op: 'teardown' };

const idx = fc.nat({ max: 9 });

export const allocRefArb: fc.Arbitrary<AllocRef> = fc.record({
  among: fc.oneof({ weight: 3, arbitrary: fc.constant('live' as const) }, { weight: 1, arbitrary: fc.constant('all' as const) }),
  index: idx,
});

export const whoArb: fc.Arbitrary<Who> = fc.oneof(
  { weight: 5, arbitrary: idx.map((index) => ({ kind: 'owner' as const, index })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'requester' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'scheduler' as const }) },
  { weight: 2, arbitrary: idx.map((index) => ({ kind: 'job' as const, index })) },
  { weight: 2, arbitrary: idx.map((index) => ({ kind: 'resident' as const, index })) },
  { weight: 2, arbitrary: idx.map((index) => ({ kind: 'any' as const, index })) },
);

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        op: fc.constant('allocate' as const),
        by: idx,
        inheritance: fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const),
        share: fc.boolean(),
        target: idx,
      },
      { requiredKeys: ['op', 'by'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        op: fc.constant('allocate' as const),
        by: idx,
        inheritance: fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const),
        share: fc.boolean(),
        target: idx,
        startup: fc.nat({ max: 3 }),
      },
      { requiredKeys: ['op', 'by', 'startup'] },
    ),
  },
  {
    weight: 8,
    arbitrary: fc.record(
      { op: fc.constant('spawn' as const), by: whoArb, into: allocRefArb, alsoInto: allocRefArb, withDefault: fc.boolean(), arrayForm: fc.boolean() },
      { requiredKeys: ['op', 'by'] },
    ),
  },
  {
    // Untargeted spawns by jobs: nesting, and children landing in their parent's reservation (IP-PARENT-SESSION).
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('spawn' as const),
      by: fc.oneof(idx.map((index) => ({ kind: 'resident' as const, index })), idx.map((index) => ({ kind: 'job' as const, index }))),
    }),
  },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('terminate' as const), job: idx }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('disconnect' as const), tool: fc.nat({ max: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('release' as const), by: whoArb, alloc: allocRefArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reclaim' as const), alloc: allocRefArb }) },
);

/** A sequence of ops, optionally ending with a DVM teardown. */
export const sequenceArb = (maxLength: number): fc.Arbitrary<Op[]> =>
  fc
    .tuple(fc.array(opArb, { minLength: 1, maxLength, size: 'max' }), fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }))
    .map(([ops, teardown]) => (teardown ? [...ops, { op: 'teardown' as const }] : ops));
