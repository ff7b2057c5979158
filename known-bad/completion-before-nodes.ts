/**
 * Delivers each completion event at once, but shows the nodes' new state
 * only later: PMIX_DVM_IS_READY reaches the requester while the nodes it
 * announces are still joining (or still leaving). Looked at once everything
 * has settled, it is indistinguishable from a conforming runtime.
 */
import { timeShifted } from '../adapters/time-shifted';
import { inVirtualTime, useVirtualTime } from '../seam/clock';
import type { Implementation } from '../seam/implementation';
import { wrap, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'ED.event.ready-reflects-size',
  what: 'completion events are delivered at once, the nodes reach the state they announce 500 ms later',
};

const engine = wrap(() => ({}));

export function createImplementation(): Implementation {
  if (!inVirtualTime()) useVirtualTime();
  return timeShifted(engine(), { nodesMs: 500, eventsMs: 0 });
}
