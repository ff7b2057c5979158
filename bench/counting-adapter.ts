/**
 * The reference engine, counting the requests a run of the suite makes (for
 * the benchmark's wire floor: bench/bounds.ts). Every seam method but
 * `describe` is one request/answer pair on the wire (seam/implementation.ts;
 * `describe` is answered by the handshake, once per implementation process),
 * so the count made in process is the count the same run makes over the wire.
 * At exit the tally goes to the file PMIX_BENCH_COUNT_FILE names.
 *
 *   PMIX_CONFORMANCE_ADAPTER=bench/counting-adapter PMIX_BENCH_COUNT_FILE=/tmp/n.json cucumber-js
 */
import * as fs from 'node:fs';
import type { Implementation } from '../seam/implementation';
import { createImplementation as reference } from '../adapters/reference';

const tally: Record<string, number> = {};
const file = process.env.PMIX_BENCH_COUNT_FILE;
if (file) process.on('exit', () => fs.writeFileSync(file, JSON.stringify(tally)));

/** The requests counted so far in this process, by seam method. */
export const requestsSoFar = (): Record<string, number> => ({ ...tally });

export function createImplementation(): Implementation {
  const impl = reference();
  const counted = { ...impl } as Record<string, unknown>;
  for (const [name, fn] of Object.entries(impl)) {
    if (typeof fn !== 'function' || name === 'describe' || name === 'processesStarted') continue;
    counted[name] = (...args: unknown[]) => {
      tally[name] = (tally[name] ?? 0) + 1;
      return (fn as (...a: unknown[]) => unknown).apply(impl, args);
    };
  }
  return counted as unknown as Implementation;
}
