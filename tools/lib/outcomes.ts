/**
 * The four outcomes a scenario can have, and how a cucumber step result is
 * classified into one. They are kept apart because an implementer acts on
 * each differently:
 *
 * - passed:  every step passed;
 * - failed:  the implementation broke a clause (a ConformanceFailure, or any
 *            other assertion failure);
 * - skipped: the implementation does not claim what the scenario needs (a
 *            capability), so it was not run; the reason is machine-readable;
 * - errored: the implementation (or its adapter) crashed, hung or answered
 *            something that is not an answer (an ImplementationFault), or an
 *            unexpected exception means the scenario could not be judged.
 */

export type Outcome = 'passed' | 'failed' | 'skipped' | 'errored';
export const OUTCOMES: readonly Outcome[] = ['passed', 'failed', 'skipped', 'errored'];

/**
 * Why a scenario errored:
 * - implementation: an ImplementationFault (crash, hang, protocol error, exception inside the adapter);
 * - timeout:        cucumber's own step timeout fired (the implementation hung outside the suite's guard);
 * - unexpected:     another exception (a TypeError on a malformed answer, or a bug in a step);
 * - suite:          the step is undefined, ambiguous or pending (a defect of the suite, not the implementation).
 */
export type ErrorKind = 'implementation' | 'timeout' | 'unexpected' | 'suite';

/** The parts of a cucumber TestStepResult this module reads (messages' shape). */
export interface StepResult {
  status: string;
  message?: string;
  exception?: { type: string; message?: string };
}

export interface Classified {
  outcome: Outcome;
  errorKind?: ErrorKind;
  /** The exception's type, when there was one (ConformanceFailure, ImplementationFault, AssertionError, …). */
  exceptionType?: string;
  /** The exception's message without its stack trace (or cucumber's message when there was no exception). */
  message?: string;
}

/** Exception types that mean "the implementation broke a clause". */
const FAILURE_TYPES = new Set(['ConformanceFailure', 'AssertionError']);
/** Exception types that mean "the implementation crashed, hung or answered garbage". */
const FAULT_TYPES = new Set(['ImplementationFault', 'WireFault', 'ProtocolError']);

/** One step's result, on its own. */
export function classifyStep(result: StepResult): Classified {
  switch (result.status) {
    case 'PASSED':
      return { outcome: 'passed' };
    case 'SKIPPED':
      return { outcome: 'skipped' };
    case 'UNDEFINED':
      return { outcome: 'errored', errorKind: 'suite', message: 'a step has no definition (a defect of the suite)' };
    case 'AMBIGUOUS':
      return { outcome: 'errored', errorKind: 'suite', message: `a step matches more than one definition (a defect of the suite)${result.message ? `: ${firstLine(result.message)}` : ''}` };
    case 'PENDING':
      return { outcome: 'errored', errorKind: 'suite', message: 'a step is pending (a defect of the suite)' };
    case 'FAILED':
      return classifyFailure(result);
    default:
      // UNKNOWN: the step never reported; treat it as not judged.
      return { outcome: 'errored', errorKind: 'suite', message: `step status ${result.status}` };
  }
}

function classifyFailure(result: StepResult): Classified {
  const type = result.exception?.type ?? exceptionTypeFromMessage(result.message);
  const message = result.exception?.message ?? stripStack(result.message ?? '');
  if (type && FAILURE_TYPES.has(type)) return { outcome: 'failed', exceptionType: type, message };
  if (type && FAULT_TYPES.has(type)) return { outcome: 'errored', errorKind: 'implementation', exceptionType: type, message };
  if (/^function timed out/.test(message)) return { outcome: 'errored', errorKind: 'timeout', exceptionType: type, message };
  return { outcome: 'errored', errorKind: 'unexpected', exceptionType: type ?? 'Error', message };
}

/** How bad each outcome is, for picking a scenario's worst step. */
const SEVERITY: Record<Outcome, number> = { passed: 0, skipped: 1, failed: 2, errored: 3 };

/**
 * A scenario's outcome from all its steps (hooks included), in order. The
 * first step that did not pass decides (later steps are merely skipped
 * because of it), except that a failing After hook still turns a passed
 * scenario into a failed or errored one.
 */
export function classifyScenario(steps: readonly StepResult[]): Classified {
  if (steps.length === 0) return { outcome: 'errored', errorKind: 'suite', message: 'the scenario reported no step (the run was interrupted?)' };
  let decided: Classified | undefined;
  for (const step of steps) {
    const c = classifyStep(step);
    if (c.outcome === 'passed') continue;
    if (!decided) {
      decided = c;
      continue;
    }
    // After a skip (say, an unmet capability), only a real problem of a later hook overrides it.
    if (decided.outcome === 'skipped' && SEVERITY[c.outcome] > SEVERITY.skipped) decided = c;
  }
  return decided ?? { outcome: 'passed' };
}

/** The fields of a ConformanceFailure message (steps/support/failures.ts), if it is one. */
export interface FailureFields {
  clauses: string[];
  operation?: string;
  expected?: string;
  observed?: string;
}

/**
 * Parse the `clause:` / `operation:` / `expected:` / `observed:` lines of a
 * ConformanceFailure message. A value may continue on following lines that
 * do not start a new field (multi-line observations).
 */
export function parseFailure(message: string): FailureFields | undefined {
  const fields: Record<string, string> = {};
  let current: string | undefined;
  for (const line of stripStack(message).split('\n')) {
    const m = /^\s*(?:ConformanceFailure:\s*)?(clause|operation|expected|observed):\s?(.*)$/.exec(line);
    if (m) {
      current = m[1];
      // One `clause:` line per clause (steps/support/failures.ts); earlier forms joined them with commas.
      fields[current] = current === 'clause' && fields.clause !== undefined ? `${fields.clause},${m[2].trim()}` : m[2].trim();
    } else if (current) {
      fields[current] += `\n${line.trimEnd()}`;
    }
  }
  if (fields.clause === undefined && fields.observed === undefined) return undefined;
  const clauses = (fields.clause ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== '(untagged)');
  return { clauses, operation: fields.operation, expected: fields.expected, observed: fields.observed };
}

/** Cucumber's `message` is the error's stack: the text up to the first "    at " frame. */
export function stripStack(text: string): string {
  const lines = text.split('\n');
  const firstFrame = lines.findIndex((l) => /^\s+at\s/.test(l));
  return (firstFrame < 0 ? lines : lines.slice(0, firstFrame)).join('\n').trimEnd();
}

function exceptionTypeFromMessage(message?: string): string | undefined {
  const m = message ? /^([A-Za-z_$][\w$]*(?:Error|Failure|Fault)):/.exec(message) : null;
  return m?.[1];
}

const firstLine = (s: string) => s.split('\n')[0];
