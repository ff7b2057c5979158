/**
 * A shrink counts as complete on the first departure report of any of its
 * targets (ED.def.shrink-complete, IP-ELASTIC-DEPARTURE): simulated by
 * making every other pending target of that shrink depart along with the
 * first one, although their daemons never reported leaving.
 * Run: PMIX_CONFORMANCE_ADAPTER=test/properties/broken/elastic-shrink-first-departure
 *   node --require ./tools/register.js --test test/properties/elastic.property.test.ts
 */
import { wrap } from './wrap';
export const createImplementation = () =>
  wrap(({ base }) => ({
    daemon: async (req) => {
      if ((req.event !== 'exit' && req.event !== 'crash') || req.node === undefined) return base.daemon(req);
      const shrink = (await base.inspect!()).elastic?.campaigns.find((c) => c.kind === 'shrink' && c.pending.includes(req.node!));
      const r = await base.daemon(req);
      for (const other of shrink?.pending ?? []) if (other !== req.node) await base.daemon({ event: 'exit', node: other });
      return r;
    },
  }));
