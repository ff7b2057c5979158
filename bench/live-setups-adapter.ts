/**
 * The reference engine, described as the PRRTE bridge describes itself, with
 * every `start` it is asked for written down: what the live benchmark's floor
 * (bench/live.ts) brings up. The hooks skip a scenario on the description
 * alone (its capabilities and readings: steps/support/hooks.ts), and a
 * scenario's DVM is started, once, at its first action, from what its Given
 * steps set up before any answer (ConformanceWorld.ready), so a run of the
 * same selection against this adapter runs exactly the scenarios a live run
 * runs and asks for exactly the DVMs it starts, in the same order, in
 * seconds. Its effects do not trail its answers (the reference's own
 * description is kept for that), so nothing waits for quiet.
 *
 *   PMIX_BENCH_LIVE_DESCRIPTION=<file: the bridge's handshake answer, JSON>
 *   PMIX_BENCH_LIVE_SETUPS=<file: one `start` argument per line, appended>
 *   PMIX_CONFORMANCE_ADAPTER=bench/live-setups-adapter cucumber-js ...
 */
import * as fs from 'node:fs';
import type { Description, Implementation } from '../seam/implementation';
import { createImplementation as reference } from '../adapters/reference';

function described(): Partial<Description> {
  const file = process.env.PMIX_BENCH_LIVE_DESCRIPTION;
  if (!file) throw new Error('PMIX_BENCH_LIVE_DESCRIPTION names no file (the description to take: the PRRTE bridge\'s handshake answer)');
  const d = JSON.parse(fs.readFileSync(file, 'utf8')) as Description;
  return { name: d.name, version: d.version, capabilities: d.capabilities, readings: d.readings };
}

export function createImplementation(): Implementation {
  const impl = reference();
  const setups = process.env.PMIX_BENCH_LIVE_SETUPS;
  return {
    ...impl,
    describe: async () => ({ ...(await impl.describe()), ...described() }),
    start: (setup) => {
      if (setups) fs.appendFileSync(setups, `${JSON.stringify(setup)}\n`);
      return impl.start(setup);
    },
  };
}
