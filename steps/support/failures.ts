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
    // The most specific clause (an Examples block's, the scenario's) is cited last
    // by cucumber's tag order; show it first, one per line.
    const clauses = [...report.clauses].reverse();
    super(
      [
        `the implementation broke ${clauses.length === 1 ? 'a clause' : 'one of these clauses'}:`,
        ...(clauses.length > 0 ? clauses.map((c) => `  clause:    ${c}`) : ['  clause:    (untagged)']),
        `  operation: ${report.operation}`,
        `  expected:  ${report.expected}`,
        `  observed:  ${report.observed}`,
      ].join('\n'),
    );
    this.name = 'ConformanceFailure';
    // Stack frames of the suite's own steps mean nothing to an implementer.
    this.stack = `${this.name}: ${this.message}`;
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
