/**
 * The two ways a scenario can go wrong, kept distinct because an implementer
 * acts on them differently: a ConformanceFailure means the implementation
 * broke a clause; an ImplementationFault means it (or its adapter) crashed,
 * hung, or answered something that is not an answer.
 */
export interface FailureReport {
  operation: string;
  clauses: string[];
  expected: string;
  observed: string;
}

export class ConformanceFailure extends Error {
  constructor(readonly report: FailureReport) {
    super(
      [
        `clause:    ${report.clauses.join(', ') || '(untagged)'}`,
        `operation: ${report.operation}`,
        `expected:  ${report.expected}`,
        `observed:  ${report.observed}`,
      ].join('\n'),
    );
    this.name = 'ConformanceFailure';
  }
}

export class ImplementationFault extends Error {
  constructor(
    readonly operation: string,
    readonly cause: string,
  ) {
    super(`implementation fault during ${operation}: ${cause}`);
    this.name = 'ImplementationFault';
  }
}
