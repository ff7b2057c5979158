/**
 * The time the suite waits in, shared by the steps and an in-process
 * implementation. Against a live runtime it is the wall clock: the steps
 * poll until the runtime has finished reacting (steps/support/settle.ts).
 *
 * The self-test makes implementations whose effects trail their answers on
 * purpose (adapters/time-shifted.ts) and runs the whole suite against them
 * many times; waiting for them in real time would cost minutes per run. In
 * virtual time a sleep advances the clock at once (after letting pending
 * work run), so the same polling, the same delays and the same verdicts take
 * no wall time, and every run is replayable. Only an implementation in the
 * suite's own process can share it; over the wire time is real.
 */

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const real: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

function virtual(): Clock {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms) => {
      // Let whatever is already queued run first, as it would while a real sleep waits.
      await new Promise((resolve) => setImmediate(resolve));
      t += Math.max(0, ms);
    },
  };
}

let current: Clock = real;

export const clock: Clock = {
  now: () => current.now(),
  sleep: (ms) => current.sleep(ms),
};

/** From now until useRealTime(): virtual time, starting at 0. */
export function useVirtualTime(): void {
  current = virtual();
}

export function useRealTime(): void {
  current = real;
}

export const inVirtualTime = (): boolean => current !== real;
