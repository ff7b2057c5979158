/**
 * A process that runs the suite many times, against one implementation after
 * another, loading cucumber, the step definitions and the compiled sources
 * once (tools/self-test.ts forks two). A cucumber process per run spent most
 * of its time starting: loading modules and support code took longer than
 * running the few scenarios that cite one clause.
 *
 * Protocol (node IPC): the parent sends { adapter, tags?, out } per run; the
 * worker answers { out } or { out, error } when the run's message stream is
 * written to `out` (the parent judges the outcomes from it). Each run gets its
 * own world parameters (`adapter`), so PMIX_CONFORMANCE_ADAPTER must not be
 * set in this process.
 *
 * The runs of one worker share its modules: an implementation under test
 * keeps its state in what createImplementation() returns (every known-bad and
 * known-good one does), never by patching a module another run also loads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfiguration, loadSupport, runCucumber } from '@cucumber/cucumber/api';
import { useRealTime } from '../../seam/clock';

export interface SuiteJob {
  adapter: string;
  /** A cucumber tag expression; every scenario when absent. */
  tags?: string;
  /** Where the run's messages (ndjson) go. */
  out: string;
  /** Environment variables set for this run only (e.g. what adapters/time-shifted.ts wraps). */
  env?: Record<string, string>;
}
export type SuiteJobDone = { out: string } | { out: string; error: string };

const root = path.resolve(__dirname, '..', '..');

async function main(): Promise<void> {
  delete process.env.PMIX_CONFORMANCE_ADAPTER;
  const environment = { cwd: root, stdout: process.stdout, stderr: process.stderr, env: process.env };
  const { runConfiguration } = await loadConfiguration({ profiles: ['mutation'] }, environment);
  const support = await loadSupport(runConfiguration, environment);
  process.on('message', (job: SuiteJob) => {
    void runJob(job).then((done) => process.send?.(done));
  });
  process.send?.({ ready: true });

  async function runJob(job: SuiteJob): Promise<SuiteJobDone> {
    const lines: string[] = [];
    const saved = Object.fromEntries(Object.keys(job.env ?? {}).map((k) => [k, process.env[k]]));
    Object.assign(process.env, job.env);
    try {
      await runCucumber(
        {
          ...runConfiguration,
          sources: { ...runConfiguration.sources, tagExpression: job.tags ?? '' },
          support,
          runtime: { ...runConfiguration.runtime, worldParameters: { ...runConfiguration.runtime.worldParameters, adapter: job.adapter } },
          formats: { ...runConfiguration.formats, stdout: 'summary', files: {} },
        },
        { ...environment, stdout: devNull() },
        (envelope) => lines.push(JSON.stringify(envelope)),
      );
      fs.writeFileSync(job.out, `${lines.join('\n')}\n`);
      return { out: job.out };
    } catch (e) {
      return { out: job.out, error: e instanceof Error ? e.message : String(e) };
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      // An implementation may have switched to virtual time (seam/clock.ts); the next run starts in real time.
      useRealTime();
    }
  }
}

/** A stream that drops what is written (the summary formatter must write somewhere). */
function devNull(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

void main();
