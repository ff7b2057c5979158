/**
 * Random multi-tenant sequences of allocation requests, extends, releases,
 * spawns and terminations — including malformed, unknown-id and
 * unauthorised ones — as plain data, so a failing sequence prints readably
 * and can be pasted into a scenario.
 */
import fc from 'fast-check';

/** A reference to an allocation made earlier in the sequence, or something that is not one. */
export type AllocRef = { kind: 'made'; index: number } | { kind: 'unknown' } | { kind: 'default' };

export type Op =
  | { op: 'new'; who: number; nodes: number; target?: number | 'invalid'; share?: boolean | 'garbage'; inheritance?: number; reqId?: string }
  | { op: 'extend'; who: number; alloc: AllocRef; byReqId: boolean; nodes: number; share?: boolean }
  | { op: 'release'; who: number; alloc: AllocRef }
  | { op: 'spawn'; who: number; targets?: AllocRef[]; arrayForm: boolean; np: number; legacy?: 'PMIX_ALLOC_ID' | 'PMIX_ALLOC_REQ_ID'; tool?: boolean }
  | { op: 'terminate'; job: number }
  | { op: 'tool-leaves'; tool: number };

const allocRef: fc.Arbitrary<AllocRef> = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 7 }).map((index) => ({ kind: 'made' as const, index })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'unknown' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'default' as const }) },
);

/** `who` indexes the live requesters: 0 = the scheduler, then tools, then jobs. */
const who = fc.nat({ max: 9 });

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        op: fc.constant('new' as const),
        who,
        nodes: fc.integer({ min: 0, max: 2 }),
        target: fc.oneof(fc.nat({ max: 9 }), fc.constant('invalid' as const)),
        share: fc.oneof(fc.boolean(), fc.constant('garbage' as const)),
        inheritance: fc.integer({ min: 0, max: 5 }),
        reqId: fc.constantFrom('r1', 'r2', 'r3'),
      },
      { requiredKeys: ['op', 'who', 'nodes'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      { op: fc.constant('extend' as const), who, alloc: allocRef, byReqId: fc.boolean(), nodes: fc.integer({ min: 0, max: 1 }), share: fc.boolean() },
      { requiredKeys: ['op', 'who', 'alloc', 'byReqId', 'nodes'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('release' as const), who, alloc: allocRef }) },
  {
    weight: 5,
    arbitrary: fc.record(
      {
        op: fc.constant('spawn' as const),
        who,
        targets: fc.array(allocRef, { minLength: 1, maxLength: 3 }),
        arrayForm: fc.boolean(),
        np: fc.integer({ min: 1, max: 4 }),
        legacy: fc.constantFrom('PMIX_ALLOC_ID' as const, 'PMIX_ALLOC_REQ_ID' as const),
        // A tool app (AppSpec.tool): whether its processes take slots is a reading; where they may go is not.
        tool: fc.boolean(),
      },
      { requiredKeys: ['op', 'who', 'arrayForm', 'np'] },
    ),
  },
  {
    // Untargeted spawns, big enough to press against the small default pool:
    // the case where an isolation bug would spill onto reserved nodes.
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('spawn' as const), who, arrayForm: fc.constant(false), np: fc.integer({ min: 2, max: 4 }) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('terminate' as const), job: fc.nat({ max: 9 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('tool-leaves' as const), tool: fc.nat({ max: 1 }) }) },
);

export const sequenceArb = (maxLength: number) => fc.array(opArb, { minLength: 1, maxLength });
