/**
 * CHILD fires when the last derived child ends even though the owning
 * namespace still runs (reading B of IP-CHILD-WAITS-FOR-OWNER, rejected).
 */
import { endChildWhen } from './child-tracking';
export const createImplementation = () =>
  endChildWhen(async (a, g) => {
    const derived = new Set(g.descendants(a.owner));
    for (const o of a.owners) if (o !== a.owner) for (const d of [o, ...g.descendants(o)]) derived.add(d);
    if (derived.size === 0) return false;
    for (const d of derived) if (await g.running(d)) return false;
    return true;
  });
