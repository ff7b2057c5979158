/** A fault while stopping is reported (the scenario errors, naming stop), never swallowed; the report counts the processes started. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { readRun } from '../../tools/lib/run';

const root = path.resolve(__dirname, '..', '..');

test('an implementation that crashes on stop makes the scenario errored, with the cause; processes started are counted', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmix-stop-'));
  const out = path.join(dir, 'run.ndjson');
  const cucumber = path.join(path.dirname(require.resolve('@cucumber/cucumber/package.json')), 'bin', 'cucumber.js');
  const fixture = path.join(__dirname, 'fixtures', 'reference-crash-on-stop.ts');
  await promisify(execFile)(process.execPath, [cucumber, '--name', '^tool "T" asks with PMIX_ALLOC_TARGET \\(absent\\) and PMIX_ALLOC_SHARE true:', '--format', `message:${out}`], {
    cwd: root,
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', PMIX_CONFORMANCE_ADAPTER: 'adapters/subprocess', PMIX_CONFORMANCE_COMMAND: `${process.execPath} -r ${path.join(root, 'tools', 'register.js')} ${fixture}` },
  }).catch(() => undefined); // it must fail: that is the point
  const run = readRun(out);
  assert.equal(run.scenarios.length, 1);
  const s = run.scenarios[0];
  assert.equal(s.outcome, 'errored', s.message);
  assert.match(s.message ?? '', /during stop/);
  assert.ok((run.processesStarted ?? 0) >= 1, `processesStarted ${run.processesStarted}`);
});
