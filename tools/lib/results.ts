/**
 * Reading a cucumber message stream (the `message` formatter's ndjson): one
 * result per scenario (pickle), with its tags and its worst step status.
 */
import * as fs from 'node:fs';

export type Outcome = 'PASSED' | 'FAILED' | 'SKIPPED' | 'UNDEFINED' | 'AMBIGUOUS' | 'PENDING' | 'UNKNOWN';

export interface ScenarioResult {
  pickleId: string;
  uri: string;
  name: string;
  tags: string[];
  outcome: Outcome;
  /** The first failure message, if any. */
  message?: string;
}

const RANK: Record<Outcome, number> = { PASSED: 0, SKIPPED: 1, UNKNOWN: 2, PENDING: 3, UNDEFINED: 4, AMBIGUOUS: 5, FAILED: 6 };

export function readResults(ndjsonPath: string): ScenarioResult[] {
  const pickles = new Map<string, { uri: string; name: string; tags: string[] }>();
  const caseToPickle = new Map<string, string>();
  const startedToCase = new Map<string, string>();
  const worst = new Map<string, { outcome: Outcome; message?: string }>();
  for (const line of fs.readFileSync(ndjsonPath, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const env = JSON.parse(line);
    if (env.pickle) pickles.set(env.pickle.id, { uri: env.pickle.uri, name: env.pickle.name, tags: env.pickle.tags.map((t: { name: string }) => t.name) });
    else if (env.testCase) caseToPickle.set(env.testCase.id, env.testCase.pickleId);
    else if (env.testCaseStarted) startedToCase.set(env.testCaseStarted.id, env.testCaseStarted.testCaseId);
    else if (env.testStepFinished) {
      const pickleId = caseToPickle.get(startedToCase.get(env.testStepFinished.testCaseStartedId) ?? '');
      if (!pickleId) continue;
      const r = env.testStepFinished.testStepResult;
      const outcome = (r.status as Outcome) ?? 'UNKNOWN';
      const prev = worst.get(pickleId);
      if (!prev || RANK[outcome] > RANK[prev.outcome]) worst.set(pickleId, { outcome, message: r.message ?? r.exception?.message });
    }
  }
  return [...pickles.entries()].map(([pickleId, p]) => ({ pickleId, ...p, ...(worst.get(pickleId) ?? { outcome: 'UNKNOWN' as Outcome }) }));
}
