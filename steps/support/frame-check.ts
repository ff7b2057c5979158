/**
 * The frame checks (frame.ts) at the end of a passed scenario: judged on a
 * whole observation of the end, taken once the implementation has settled
 * when its effects trail its answers, and failing the scenario with the
 * clause that forbids what was seen.
 *
 * PMIX_CONFORMANCE_FRAME=off turns them off: only to measure what they add
 * (how many more scenarios a fault fails); a conformance run keeps them.
 */
import { ConformanceFailure } from './failures';
import { frameViolations } from './frame';
import type { ConformanceWorld } from './world';

/** Read at each check: the self-test runs one process with the checks on and off in turn. */
const frameChecksOn = () => process.env.PMIX_CONFORMANCE_FRAME !== 'off';

export async function checkFrame(world: ConformanceWorld): Promise<void> {
  if (!frameChecksOn() || !world.dvmStarted) return;
  // The final claims, judged again, left a settled observation of the end; otherwise take one.
  if (world.trails && world.claims.length === 0) world.forget();
  const final = await world.snapshot({});
  const violations = frameViolations({
    journal: world.journal,
    final,
    departed: world.departed,
    elastic: world.setup.elastic,
    scheduler: world.scheduler,
    nameOf: (id) => world.nameOf(id),
  });
  if (violations.length === 0) return;
  const [first, ...more] = violations;
  throw new ConformanceFailure({
    operation: 'the end of the scenario: what nothing the scenario did explains (frame check)',
    clauses: [first.clause],
    expected: first.expected,
    observed: first.observed + (more.length > 0 ? `; and ${more.map((v) => `${v.clause}: ${v.observed}`).join('; ')}` : ''),
  });
}
