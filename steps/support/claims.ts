/**
 * Then steps are claims about what holds, and a claim made at the end of a
 * scenario must still hold once the implementation has finished reacting.
 *
 * Every step file defines its Then steps with this `Then` instead of
 * cucumber's. A Then step that made no request (it only observed) is a
 * claim: it is remembered, with its arguments, until the next request. What
 * is remembered when the scenario ends are its final claims; against an
 * implementation whose effects trail its answers they are judged again at the
 * end (judgeFinalClaimsAgain, called by the After hook), after waiting
 * PMIX_CONFORMANCE_FINAL_WAIT_MS and for the implementation to settle. A job
 * ended a moment after the answer, a second completion event delivered late,
 * a node that left after it was seen to stay: each makes a claim that held
 * first fail then, and the failure says when each judgement was made.
 *
 * A Then step that makes a request (a probe: "… can spawn into it") is not
 * judged again: repeating it would repeat the request.
 */
import { BeforeStep, Then as cucumberThen } from '@cucumber/cucumber';
import { clock } from '../../seam/clock';
import { ConformanceFailure } from './failures';
import { FINAL_WAIT_MS } from './settle';
import type { ConformanceWorld } from './world';

export interface Claim {
  /** The step's text, as the scenario says it. */
  text: string;
  /** When it was judged (clock.now()). */
  judgedAt: number;
  judge(): Promise<unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type StepFn = (this: ConformanceWorld, ...args: any[]) => unknown;

export function Then(pattern: string | RegExp, fn: StepFn): void {
  const claim = async function (this: ConformanceWorld, ...args: unknown[]) {
    const requests = this.requestsMade;
    const result = await fn.apply(this, args);
    if (this.requestsMade === requests) {
      this.claims.push({ text: this.stepText ?? String(pattern), judgedAt: clock.now(), judge: () => Promise.resolve(fn.apply(this, args)) });
    }
    return result;
  };
  // Cucumber reads a step function's arity (a data table is one more argument).
  Object.defineProperty(claim, 'length', { value: fn.length });
  cucumberThen(pattern, claim);
}

// The text of the step being run, so that a claim judged again can be named as the scenario says it.
BeforeStep(function (this: ConformanceWorld, { pickleStep }) {
  this.stepText = pickleStep.text;
});

/**
 * The end of a scenario against an implementation whose effects trail its
 * answers: wait, let it settle, and judge the final claims again. A claim
 * that fails now held when first judged: the failure says so, with both times.
 */
export async function judgeFinalClaimsAgain(world: ConformanceWorld): Promise<void> {
  const claims = world.claims;
  if (claims.length === 0) return;
  if (FINAL_WAIT_MS > 0) await clock.sleep(FINAL_WAIT_MS);
  world.forget();
  for (const claim of claims) {
    try {
      await claim.judge();
    } catch (e) {
      if (!(e instanceof ConformanceFailure)) throw e;
      const first = claim.judgedAt - world.answeredAt;
      throw new ConformanceFailure({
        ...e.report,
        expected: `${e.report.expected} — still true at the end of the scenario ("Then ${claim.text}")`,
        observed: `${e.report.observed}; it held when first judged, ${first} ms after the last answer, and no longer does: the implementation changed after it was judged`,
      });
    }
  }
}
