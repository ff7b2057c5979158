/**
 * CHILD drains on the owner's genealogy only (the plan's narrower rule,
 * rejected by IP-DERIVED-CHILDREN): a job spawned into the reservation by
 * someone else (another owner, the scheduler) does not hold it open.
 */
import { endChildWhen } from './child-tracking';
export const createImplementation = () =>
  endChildWhen(async (a, g) => {
    if (await g.running(a.owner)) return false;
    for (const d of g.descendants(a.owner)) if (await g.running(d)) return false;
    return true;
  });
