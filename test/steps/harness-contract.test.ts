/**
 * A breach of what docs/writing-a-harness.md requires of a harness is the
 * harness's fault: the scenario errors with the cause, and no clause of the
 * specification is charged. Here: a harness that stops listing jobs once
 * they end. "has ended" and "was never launched" treat it alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runSuite } from './run-suite';

test('a harness whose observations forget ended jobs errors, citing the harness contract, and fails no clause for it', async () => {
  const run = await runSuite(path.join(__dirname, 'fixtures', 'forgets-ended-jobs.ts'), ['features/lifecycle/inheritance-dispositions.feature', 'features/elastic/grow-campaigns.feature']);
  const missing = run.scenarios.filter((s) => /does not list it/.test(s.message ?? ''));
  assert.ok(missing.length > 0, 'some scenario looks at an ended job');
  for (const s of missing) {
    assert.equal(s.outcome, 'errored', `${s.id} ${s.name}`);
    assert.match(s.message ?? '', /writing-a-harness\.md §8/);
  }
  const charged = run.scenarios.filter((s) => s.outcome === 'failed' && /no longer observable|to be observable/.test(s.message ?? ''));
  assert.deepEqual(charged.map((s) => s.id), []);
});
