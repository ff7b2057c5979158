/**
 * What the scenario did to the implementation, request by request, with
 * what each answered: the record the frame checks (frame.ts) read to decide
 * whether an event delivered, a process ended or a reservation made is one
 * that something the scenario did can explain.
 *
 * The journal sits between the world and the implementation (a proxy over
 * every request method), so no step has to remember to record anything, and
 * a step added later is journaled too.
 */
import type { Implementation } from '../../seam/implementation';
import type {
  AllocateRequest,
  AllocateResult,
  DaemonEvent,
  QueryAllocationResult,
  SchedulerAction,
  SpawnRequest,
  SpawnResult,
  TerminateJobRequest,
} from '../../seam/messages';

/**
 * One request and its answer. `answer` is absent when none came (the call
 * threw or timed out, or the requester ended before it could answer): what
 * it did is then unknown, and the frame checks give it the benefit of the
 * doubt (it may have been accepted).
 */
export type JournalEntry =
  | { op: 'allocate'; req: AllocateRequest; answer?: AllocateResult }
  | { op: 'spawn'; req: SpawnRequest; answer?: SpawnResult }
  | { op: 'terminateJob'; req: TerminateJobRequest }
  | { op: 'scheduler'; req: SchedulerAction }
  | { op: 'daemon'; req: DaemonEvent }
  | { op: 'queryAllocation'; answer?: QueryAllocationResult };

const JOURNALED: ReadonlySet<string> = new Set(['allocate', 'spawn', 'terminateJob', 'scheduler', 'daemon', 'queryAllocation']);

/** The implementation, with every request it is made (and its answer) appended to `journal`. */
export function journaled(impl: Implementation, journal: JournalEntry[]): Implementation {
  return new Proxy(impl, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      // Bound to the implementation itself, so an adapter's class keeps its private state.
      if (typeof prop !== 'string' || !JOURNALED.has(prop)) return (value as (...a: unknown[]) => unknown).bind(target);
      return (req: unknown) => {
        // Recorded when it is made, so a request that never answers is in the journal too.
        const entry = { op: prop, req } as JournalEntry & { answer?: unknown };
        journal.push(entry);
        const answer = (value as (r: unknown) => Promise<unknown>).call(target, req);
        return Promise.resolve(answer).then((a) => {
          if (prop === 'allocate' || prop === 'spawn' || prop === 'queryAllocation') entry.answer = a;
          return a;
        });
      };
    },
  });
}
