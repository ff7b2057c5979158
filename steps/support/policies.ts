/** Scenario tags @scheduler:<name> choose the simulated scheduler's policy where the allocation RFC leaves it to the host. */
import type { SchedulerPolicy } from '../../seam/messages';

export const SCHEDULER_POLICIES: Record<string, SchedulerPolicy> = {
  'queues-when-short': { whenShort: 'queue' },
  'refuses-when-short': { whenShort: 'refuse' },
  'reacquires-same-nodes': { reacquire: 'same-nodes' },
  'reacquires-any-nodes': { reacquire: 'any-nodes' },
};
