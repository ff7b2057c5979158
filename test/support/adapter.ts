/**
 * Unit and property tests reach the implementation the same way the
 * features do: through the seam, by module path. Default: the reference engine.
 */
import * as path from 'node:path';
import type { AdapterModule, Implementation } from '../../seam/implementation';

export function loadImplementation(): Implementation {
  const chosen = process.env.PMIX_CONFORMANCE_ADAPTER ?? 'adapters/reference';
  const modulePath = path.isAbsolute(chosen) ? chosen : path.resolve(__dirname, '..', '..', chosen);
  return (require(modulePath) as AdapterModule).createImplementation();
}

/**
 * fast-check settings. The seed is fixed by default so the test command is
 * reproducible run to run; PMIX_PROPERTY_SEED=random explores new ground,
 * PMIX_PROPERTY_SEED=<n> PMIX_PROPERTY_PATH=<p> replays a reported failure.
 * PMIX_PROPERTY_END_ON_FAILURE=1 stops at the first counterexample without
 * shrinking it (scripts/mutation.sh: a mutant is killed, no need to explain how).
 */
export const DEFAULT_SEED = 20261122;
export function propertySettings(defaultRuns: number) {
  const env = process.env.PMIX_PROPERTY_SEED;
  const seed = env === 'random' ? undefined : env !== undefined ? Number(env) : DEFAULT_SEED;
  const path = process.env.PMIX_PROPERTY_PATH;
  return {
    numRuns: Number(process.env.PMIX_PROPERTY_RUNS ?? defaultRuns),
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(process.env.PMIX_PROPERTY_END_ON_FAILURE === '1' ? { endOnFailure: true } : {}),
    // Under node:test, verbose 1 reports the failing inputs but not the
    // assertion's message; this way the report has seed, path, the shrunk
    // counterexample and why it failed.
    verbose: 0 as const,
    includeErrorInReport: true,
  };
}
