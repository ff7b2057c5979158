/**
 * The hang guard: a run against an implementation that never answers one
 * kind of request stops early instead of paying the request timeout in every
 * scenario (10 s each: about an hour for the suite). After K consecutive
 * scenarios in which the same request kind timed out (K =
 * PMIX_CONFORMANCE_MAX_TIMEOUTS, default 3; 0 turns the guard off; the CLI's
 * --max-timeouts sets it), every remaining scenario is skipped, saying why,
 * and the report fails the run with a verdict that names the request kind:
 * "allocate never answered in 3 consecutive scenarios".
 *
 * Skipped rather than aborted: cucumber still finishes its run, so every
 * report (the message stream, JUnit, HTML, conformance.json) is complete and
 * lists each scenario that was not run with the reason; skipping touches no
 * implementation, so it costs nothing. A streak is per request kind and ends
 * when a request of that kind is answered; scenarios that do not send that
 * kind neither extend nor end it.
 *
 * world.ts's call() hands every request to watch(); the hooks are in
 * hang-guard-hooks.ts (this module registers none, so tests can load it).
 */
import { ImplementationFault } from './failures';

/** The media types tools/lib/run.ts reads (repeated there: it cannot import step code). */
export const STOPPED_MEDIA_TYPE = 'application/vnd.pmix-conformance.stopped+json';
export const SKIP_MEDIA_TYPE = 'application/vnd.pmix-conformance.skip+json';

export const DEFAULT_MAX_TIMEOUTS = 3;

/** K from PMIX_CONFORMANCE_MAX_TIMEOUTS: a whole number; 0 means never stop. */
export function maxTimeouts(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.PMIX_CONFORMANCE_MAX_TIMEOUTS;
  if (v === undefined || v === '') return DEFAULT_MAX_TIMEOUTS;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`PMIX_CONFORMANCE_MAX_TIMEOUTS must be a whole number (0: never stop early), not "${v}"`);
  return n;
}

/** A request that got no answer in time: the world's own timer, or the wire connection's. */
export function isTimeout(e: unknown): boolean {
  const text = e instanceof ImplementationFault ? e.cause : e instanceof Error ? e.message : String(e);
  return /\bwithin \d+ ms\b/.test(text);
}

export class HangGuard {
  /** Per request kind: how many consecutive scenarios (that sent it) it timed out in. */
  private readonly streaks = new Map<string, number>();
  private readonly thisScenario = new Set<string>();
  /** Set once the guard trips: what hung. */
  verdict?: string;

  constructor(readonly limit: number) {}

  scenarioStarted(): void {
    this.thisScenario.clear();
  }

  answered(operation: string): void {
    this.streaks.delete(operation);
  }

  /** Returns the verdict when this timeout trips the guard. */
  timedOut(operation: string): string | undefined {
    if (this.thisScenario.has(operation)) return undefined;
    this.thisScenario.add(operation);
    const n = (this.streaks.get(operation) ?? 0) + 1;
    this.streaks.set(operation, n);
    if (this.limit > 0 && n >= this.limit && !this.verdict) {
      this.verdict = `${operation} never answered in ${n} consecutive scenario${n === 1 ? '' : 's'} (PMIX_CONFORMANCE_MAX_TIMEOUTS=${this.limit})`;
      return this.verdict;
    }
    return undefined;
  }
}

let guard = new HangGuard(DEFAULT_MAX_TIMEOUTS);

/** A new run: a new guard, its limit read from the environment now. */
export function resetGuard(): void {
  guard = new HangGuard(maxTimeouts());
}

/** The reason the run stopped early, once the guard has tripped. */
export function stoppedBecause(): string | undefined {
  return guard.verdict;
}

export function scenarioStarted(): void {
  guard.scenarioStarted();
}

/** The hook world.ts's call() uses: watches one request's answer. Returns the same promise. */
export function watch<T>(operation: string, answer: Promise<T>): Promise<T> {
  answer.then(
    () => guard.answered(operation),
    (e: unknown) => {
      if (!isTimeout(e)) return;
      const tripped = guard.timedOut(operation);
      if (tripped) process.stderr.write(`\npmix-conformance: stopping the run early: ${tripped}; the remaining scenarios are skipped (not run)\n`);
    },
  );
  return answer;
}
