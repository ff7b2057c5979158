/** Run some of the suite in this process against an adapter module, and read its outcomes (tools/lib/run.ts). */
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfiguration, runCucumber } from '@cucumber/cucumber/api';
import { parseRun, type RunInfo } from '../../tools/lib/run';

const root = path.resolve(__dirname, '..', '..');

export async function runSuite(adapter: string, paths: string[], env: Record<string, string> = {}): Promise<RunInfo> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const lines: string[] = [];
  try {
    const environment = { cwd: root, stdout: devNull(), stderr: process.stderr, env: process.env };
    const { runConfiguration } = await loadConfiguration({ profiles: ['mutation'], provided: { paths } }, environment);
    await runCucumber(
      { ...runConfiguration, runtime: { ...runConfiguration.runtime, worldParameters: { ...runConfiguration.runtime.worldParameters, adapter } } },
      environment,
      (envelope) => lines.push(JSON.stringify(envelope)),
    );
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return parseRun(lines.join('\n'));
}

function devNull(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
