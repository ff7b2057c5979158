/**
 * Waiting for an implementation to finish reacting.
 *
 * A live runtime answers a request before all of its effects can be seen:
 * daemons start and exit, processes end, events arrive, a moment later. A
 * claim that something *holds* (a job keeps running, a node stays or has
 * left, no further event) is only tested once the runtime has finished
 * reacting; judged straight after the answer it would pass a runtime that
 * breaks it a moment later. So against an implementation that says its
 * effects trail its answers (Description.effectsTrailAnswers), every
 * observation the steps judge is taken once successive observations have
 * stopped changing (see ConformanceWorld.snapshot), and the scenario's final
 * claims are judged again at its end (steps/support/claims.ts).
 *
 * "Stopped changing": the same whole observation for PMIX_CONFORMANCE_QUIET_MS
 * (600 ms by default) and, unless the harness itself steps daemons
 * (daemon-control), no node joining or leaving; at most
 * PMIX_CONFORMANCE_SETTLE_MS (20 s) in all. Neither document bounds how long
 * a runtime may take to react, so both are settings: a runtime slower than
 * them needs larger values, never a weaker check.
 */
import { isDeepStrictEqual } from 'node:util';
import { clock } from '../../seam/clock';
import type { NodeView, Snapshot } from '../../seam/messages';

export const SETTLE_MS = Number(process.env.PMIX_CONFORMANCE_SETTLE_MS ?? 20_000);
export const QUIET_MS = Number(process.env.PMIX_CONFORMANCE_QUIET_MS ?? 600);
/** Extra time to let pass before the final claims are judged again (the check that the quiet period was long enough). */
export const FINAL_WAIT_MS = Number(process.env.PMIX_CONFORMANCE_FINAL_WAIT_MS ?? 0);
const POLL_MS = 100;

export const unsettledNodes = (nodes: readonly NodeView[]): NodeView[] => nodes.filter((n) => n.daemon !== 'ready');
export const describeNodes = (nodes: readonly NodeView[]): string => nodes.map((n) => `${n.name} ${n.daemon}`).join(', ');

export interface Settled {
  snapshot: Snapshot;
  /** How long the wait took. */
  waitedMs: number;
  /** Set when it never settled within SETTLE_MS: what was still moving. */
  unsettled?: string;
}

export interface SettleOptions {
  /** Also wait until no node is joining or leaving. */
  daemonsToo: boolean;
  /** Quiet period (default QUIET_MS). */
  quietMs?: number;
}

/**
 * Observe (a fresh, canonical, whole observation each time) until the
 * observations stop changing. Never fails: the caller judges what it gets,
 * and says so if it had not settled.
 */
export async function settle(observe: () => Promise<Snapshot>, options: SettleOptions): Promise<Settled> {
  const quietMs = options.quietMs ?? QUIET_MS;
  const start = clock.now();
  let last = await observe();
  let stableSince = clock.now();
  for (;;) {
    const now = clock.now();
    const moving = options.daemonsToo ? unsettledNodes(last.nodes) : [];
    if (moving.length === 0 && now - stableSince >= quietMs) return { snapshot: last, waitedMs: now - start };
    if (now - start >= SETTLE_MS) {
      // Not quiet yet (a quiet period would have returned above), or daemons still moving.
      const unsettled = moving.length > 0 ? `still ${describeNodes(moving)}` : 'still changing when the wait ended';
      return { snapshot: last, waitedMs: now - start, unsettled };
    }
    await clock.sleep(POLL_MS);
    const next = await observe();
    if (!isDeepStrictEqual(next, last)) {
      last = next;
      stableSince = clock.now();
    }
  }
}
