/**
 * The subprocess adapter: any implementation, in any language, that speaks
 * the wire protocol (schemas/README.md) on its stdin/stdout.
 *
 *   PMIX_CONFORMANCE_ADAPTER=adapters/subprocess
 *   PMIX_CONFORMANCE_COMMAND='path/to/harness --flag'   (default: the reference engine's server)
 *   PMIX_CONFORMANCE_TIMEOUT_MS=10000                   (per request)
 *   PMIX_CONFORMANCE_START_TIMEOUT_MS=…                 (the handshake, process start included; default: the above)
 *   PMIX_CONFORMANCE_PROCESS=reuse | fresh               (default reuse, see below)
 *   PMIX_CONFORMANCE_ECHO_STDERR=1                       (copy the implementation's stderr to ours)
 *
 * Process lifetime. Every createImplementation() (one per scenario) gets an
 * implementation process of its own for as long as it lives: nothing else
 * talks to that process until its stop(). With `reuse`, a process whose
 * scenario ended cleanly (its `stop` answered) goes back to a pool and serves
 * the next scenario, whose `start` must bring up a fresh DVM; a process that
 * faulted in any way (crash, hang, garbage, wrong seq, schema violation) is
 * killed and never reused, so the next scenario starts a new one. `fresh`
 * starts a new process for every scenario and ends it at stop(): exact but
 * slow when the implementation takes long to start (the reference server
 * takes a few hundred milliseconds).
 */
import * as path from 'node:path';
import type { Implementation } from '../seam/implementation';
import { Connection, processesStarted, type ConnectionOptions } from '../protocol/connection';
import type { Args, Command, Result } from '../protocol/messages';
import { shellWords } from '../protocol/shell-words';

const ROOT = path.resolve(__dirname, '..');

/** The reference engine's server, as PMIX_CONFORMANCE_COMMAND would spell it (run from the repository root). */
export const REFERENCE_SERVER_COMMAND = 'node -r ./tools/register.js servers/reference-server.ts';

export interface SubprocessOptions {
  /** A command line, split like a shell would (no expansion). */
  command?: string;
  cwd?: string;
  timeoutMs?: number;
  startTimeoutMs?: number;
  process?: 'reuse' | 'fresh';
  echoStderr?: boolean;
}

function settings(options: SubprocessOptions): ConnectionOptions & { reuse: boolean } {
  const command = options.command ?? process.env.PMIX_CONFORMANCE_COMMAND;
  const argv = command ? shellWords(command) : [process.execPath, ...shellWords(REFERENCE_SERVER_COMMAND).slice(1)];
  if (argv.length === 0) throw new Error('PMIX_CONFORMANCE_COMMAND is empty');
  const timeoutMs = options.timeoutMs ?? milliseconds('PMIX_CONFORMANCE_TIMEOUT_MS', 10000);
  const startTimeoutMs = options.startTimeoutMs ?? milliseconds('PMIX_CONFORMANCE_START_TIMEOUT_MS', timeoutMs);
  const mode = options.process ?? process.env.PMIX_CONFORMANCE_PROCESS ?? 'reuse';
  if (mode !== 'reuse' && mode !== 'fresh') throw new Error(`PMIX_CONFORMANCE_PROCESS must be "reuse" or "fresh", not "${mode}"`);
  return {
    argv,
    cwd: options.cwd ?? (command ? process.cwd() : ROOT),
    timeoutMs,
    startTimeoutMs,
    echoStderr: options.echoStderr ?? process.env.PMIX_CONFORMANCE_ECHO_STDERR === '1',
    reuse: mode === 'reuse',
  };
}

function milliseconds(variable: string, fallback: number): number {
  const text = process.env[variable];
  if (text === undefined || text === '') return fallback;
  const ms = Number(text);
  if (!(ms > 0)) throw new Error(`${variable} must be a positive number of milliseconds, not "${text}"`);
  return ms;
}

/** Idle processes, by command and directory: each served a scenario that ended cleanly. */
const idle = new Map<string, Connection[]>();

async function acquire(s: ConnectionOptions & { reuse: boolean }): Promise<Connection> {
  const pool = idle.get(poolKey(s)) ?? [];
  while (pool.length > 0) {
    const c = pool.pop()!;
    if (c.alive) return c; // one that crashed while idle is simply dropped
  }
  return Connection.open(s);
}
const poolKey = (s: ConnectionOptions) => JSON.stringify([s.cwd, s.argv]);

function release(s: ConnectionOptions & { reuse: boolean }, c: Connection): void {
  if (!s.reuse) return c.close();
  const key = poolKey(s);
  idle.set(key, [...(idle.get(key) ?? []), c]);
}

export function createImplementation(options: SubprocessOptions = {}): Implementation {
  const s = settings(options);
  let connection: Promise<Connection> | undefined;
  let stopped = false;

  const connect = (): Promise<Connection> => {
    if (stopped) return Promise.reject(new Error('this implementation was stopped; the suite creates a new one per scenario'));
    return (connection ??= acquire(s));
  };
  const call = async <C extends Command>(cmd: C, args: Args<C>): Promise<Result<C>> => (await connect()).request(cmd, args);

  return {
    describe: async () => (await connect()).description,
    start: (setup) => call('start', setup),
    connectTool: (req) => call('connect-tool', req),
    disconnectTool: (req) => call('disconnect-tool', req),
    spawn: (req) => call('spawn', req),
    allocate: (req) => call('allocate', req),
    terminateJob: (req) => call('terminate-job', req),
    scheduler: (req) => call('scheduler', req),
    daemon: (req) => call('daemon', req),
    advanceJob: (req) => call('advance-job', req),
    queryAllocation: (req) => call('query-allocation', req),
    observe: (req) => call('observe', req),
    inspect: () => call('inspect', {}),
    processesStarted: () => processesStarted(),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const c = await connection?.catch(() => undefined);
      if (!c || !c.alive) return; // never started, or already faulted (and reported)
      if (c.busy) return c.kill(); // a request still outstanding: the process cannot be trusted again
      try {
        await c.request('stop', {});
      } catch (e) {
        c.kill();
        throw e;
      }
      release(s, c);
    },
  };
}
