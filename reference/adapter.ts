/**
 * The reference engine behind the adapter seam. This module is what the
 * suite loads by default (PMIX_CONFORMANCE_ADAPTER=reference/adapter).
 */
import type { Implementation } from '../seam/implementation';
import { CAPABILITIES, type CapabilityName } from '../seam/capabilities';
import { Engine } from './engine';
import { readingsOf, type EngineVariant } from './variant';

const ALL = Object.keys(CAPABILITIES) as CapabilityName[];

/**
 * The default engine, or (for the known-good implementations) the engine
 * taking the freedoms `variant` selects, under `name`.
 */
export function createImplementation(variant: EngineVariant = {}, name = 'reference engine'): Implementation {
  let engine: Engine | undefined;
  const live = (): Engine => {
    if (!engine) throw new Error('the reference engine was not started');
    return engine;
  };
  return {
    describe: async () => ({ name, version: '0.1.0', capabilities: ALL, readings: readingsOf(variant) }),
    start: async (setup) => {
      engine = new Engine(setup, variant);
      return { scheduler: engine.schedulerProc };
    },
    connectTool: async () => ({ proc: live().connectTool() }),
    disconnectTool: async (req) => live().disconnectTool(req.proc),
    spawn: async (req) => live().spawn(req),
    allocate: async (req) => live().allocate(req),
    terminateJob: async (req) => live().terminateJob(req.nspace),
    scheduler: async (req) => live().scheduler(req),
    queryAllocation: async (req) => live().queryAllocation(req),
    daemon: async (req) => live().daemon(req),
    advanceJob: async (req) => live().advanceJob(req),
    observe: async (req) => live().observe(req),
    inspect: async () => live().inspect(),
    stop: async () => {
      engine = undefined;
    },
  };
}
