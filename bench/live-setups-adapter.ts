/**
 * The PRRTE bridge's description over the reference engine, writing down
 * every `start` it is asked for: which scenarios a live run of a selection
 * runs and which DVMs it starts, for the live benchmark's floor
 * (bench/live.ts), found in seconds. The hooks skip a scenario on the
 * description alone (its capabilities and readings: steps/support/hooks.ts),
 * and a scenario's DVM is started, once, at its first action, from what its
 * Given steps set up before any answer (ConformanceWorld.ready). So a run of
 * the same selection against this adapter runs exactly the scenarios a live
 * run runs and asks for exactly the DVMs it starts, in the same order.
 *
 * Nothing after the start is needed, and the reference engine cannot be run
 * honestly under the bridge's description (without daemon-control its
 * daemons would wait to be stepped, and each such scenario would wait out
 * the settle limit): every request after `start` is refused at once, so each
 * scenario that runs ends as an error at its first action. `stop` is served.
 *
 *   PMIX_BENCH_LIVE_DESCRIPTION=<file: the bridge's description (Connection.description), JSON>
 *   PMIX_BENCH_LIVE_SETUPS=<file: one `start` argument per line, appended>
 *   PMIX_CONFORMANCE_ADAPTER=bench/live-setups-adapter cucumber-js ...
 */
import * as fs from 'node:fs';
import type { Description, Implementation } from '../seam/implementation';
import { createImplementation as reference } from '../adapters/reference';

/** What every request after `start` is answered with: the pass needs nothing more of a scenario. */
export const STOPPED_HERE = 'the live benchmark\'s setups pass (bench/live-setups-adapter.ts) stops every scenario at its first action, once its DVM is written down';

function described(): Partial<Description> {
  const file = process.env.PMIX_BENCH_LIVE_DESCRIPTION;
  if (!file) throw new Error('PMIX_BENCH_LIVE_DESCRIPTION names no file (the description to take: the PRRTE bridge\'s)');
  const d = JSON.parse(fs.readFileSync(file, 'utf8')) as Description;
  if (typeof d.name !== 'string' || !Array.isArray(d.capabilities)) throw new Error(`${file} is not an implementation's description (name, version, capabilities, readings)`);
  return { name: d.name, version: d.version, capabilities: d.capabilities, readings: d.readings };
}

export function createImplementation(): Implementation {
  const impl = reference();
  const setups = process.env.PMIX_BENCH_LIVE_SETUPS;
  const refused = () => Promise.reject(new Error(STOPPED_HERE));
  return {
    describe: async () => ({ ...(await impl.describe()), ...described() }),
    start: (setup) => {
      if (setups) fs.appendFileSync(setups, `${JSON.stringify(setup)}\n`);
      return impl.start(setup);
    },
    connectTool: refused,
    disconnectTool: refused,
    spawn: refused,
    allocate: refused,
    terminateJob: refused,
    scheduler: refused,
    daemon: refused,
    advanceJob: refused,
    queryAllocation: refused,
    observe: refused,
    inspect: refused,
    stop: () => impl.stop(),
  };
}
