/**
 * A runtime in which a job that releases the reservation its own nodes belong
 * to ends before the answer reaches it: the release is carried out, the
 * shrink ends the job with its node, and the call never returns (here: it
 * fails, as a harness reports a caller that died mid-call).
 */
import type { Implementation } from '../seam/implementation';
import { Directive } from '../seam/pmix';
import { createImplementation as reference } from '../reference/adapter';
import type { KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'a job whose release takes its own node out of the DVM is ended before it hears the answer',
  permittedBy:
    'PRRTE plan 8.2.2.11.4: when nodes leave the DVM, the shrink path "terminates the affected jobs and daemons before the nodes leave"; no document orders that before or after the answer (IP-RELEASER-ENDED-BY-RELEASE).',
};

const ENDED = new Set(['TERMINATED', 'KILLED', 'NEVER_LAUNCHED']);

export function createImplementation(): Implementation {
  const inner = reference({}, 'reference engine, known-good variant "releaser-ends-before-answer"');
  return {
    ...inner,
    allocate: async (req) => {
      const result = await inner.allocate(req);
      if (req.directive !== Directive.PMIX_ALLOC_RELEASE) return result;
      const { jobs } = await inner.observe({ jobs: [req.requester.nspace] });
      const job = jobs.find((j) => j.nspace === req.requester.nspace);
      if (job && ENDED.has(job.state)) throw new Error(`${req.requester.nspace} ended while its release was answered`);
      return result;
    },
  };
}
