/**
 * The runner's end of the wire: one implementation process, spoken to over
 * its stdin/stdout. Every fault becomes a WireFault with a cause a human can
 * act on: the process could not start, exited or was killed (with its exit
 * code or signal and its last stderr lines), did not answer in time, wrote a
 * line that is not a valid protocol message, answered a seq nobody asked,
 * refused (or answered) another protocol version, or answered with an error.
 * Every fault but the last kills the process: the stream can no longer be trusted.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Description } from '../seam/implementation';
import { checkResponse, encodeRequest, parseLine, ProtocolError } from './codec';
import { PROTOCOL_VERSION, type Args, type Command, type Result, type WireError } from './messages';

export type FaultKind = 'spawn' | 'exit' | 'timeout' | 'protocol' | 'version' | 'error-response' | 'closed';

export class WireFault extends Error {
  constructor(
    readonly kind: FaultKind,
    message: string,
    /** The implementation's error, for kind 'error-response' (and 'version' when it refused). */
    readonly wireError?: WireError,
  ) {
    super(message);
    this.name = 'WireFault';
  }
}

export interface ConnectionOptions {
  /** The command: program and arguments. */
  argv: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** How long any one request may take. */
  timeoutMs: number;
  /** How long the handshake may take, process start-up included (default: timeoutMs). */
  startTimeoutMs?: number;
  /** Also copy the implementation's stderr to ours, prefixed. */
  echoStderr?: boolean;
}

interface Pending {
  cmd: Command;
  seq: number;
  resolve(result: unknown): void;
  reject(fault: Error): void;
  timer: NodeJS.Timeout;
}

const STDERR_LINES = 20;
const MAX_LINE_CHARS = 64 * 1024 * 1024;
const KILL_GRACE_MS = 1000;

const live = new Set<Connection>();
let exitHookInstalled = false;
function ensureExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // The runner is exiting: idle implementations see EOF on stdin and go; make sure the rest do too.
  process.on('exit', () => {
    for (const c of live) c.kill(); // SIGTERM; SIGKILL for one already sent SIGTERM
  });
}

const excerpt = (text: string, max = 200) => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

export class Connection {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly label: string;
  private nextSeq = 1;
  private readonly pending = new Map<number, Pending>();
  private stdoutBuffer = '';
  private stderrBuffer = '';
  private readonly stderrTail: string[] = [];
  private failure?: WireFault;
  private exited = false;
  private terminating = false;
  description!: Description;

  private constructor(private readonly options: ConnectionOptions) {
    ensureExitHook();
    const [file, ...args] = options.argv;
    this.label = options.argv.join(' ');
    this.child = spawn(file, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(this);
    // The runner must be able to exit with an idle implementation still up: it sees EOF and exits too.
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) (stream as unknown as Socket).unref?.();
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr.on('data', (chunk: string) => this.onStderr(chunk));
    this.child.stdin.on('error', () => undefined); // EPIPE: the exit is reported below
    this.child.on('error', (e) => this.fail(new WireFault('spawn', `could not start the implementation \`${this.label}\`: ${e.message}`)));
    this.child.on('exit', () => {
      this.exited = true;
      // 'close' comes once stderr is drained; don't wait forever if a grandchild holds the pipes.
      setTimeout(() => this.onClose(this.child.exitCode, this.child.signalCode), 200).unref();
    });
    this.child.on('close', (code, signal) => this.onClose(code, signal));
  }

  /** Start the process and do the handshake (start-protocol). */
  static async open(options: ConnectionOptions): Promise<Connection> {
    const c = new Connection(options);
    try {
      await c.handshake();
    } catch (e) {
      c.fail(e instanceof WireFault ? e : new WireFault('protocol', String(e))); // ends the process, once
      throw e;
    }
    return c;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  /** Usable: no fault so far. */
  get alive(): boolean {
    return this.failure === undefined;
  }
  /** A request is outstanding. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  private async handshake(): Promise<void> {
    let answer: Result<'start-protocol'>;
    try {
      answer = await this.request('start-protocol', { protocolVersion: PROTOCOL_VERSION }, this.options.startTimeoutMs ?? this.options.timeoutMs);
    } catch (e) {
      if (e instanceof WireFault && e.wireError?.kind === 'protocol-version') {
        const speaks = e.wireError?.supportedVersions?.length ? ` (it speaks ${e.wireError.supportedVersions.join(', ')})` : '';
        throw new WireFault('version', `the implementation refused protocol version ${PROTOCOL_VERSION}: ${e.wireError?.message}${speaks}`, e.wireError);
      }
      throw e;
    }
    if (answer.protocolVersion !== PROTOCOL_VERSION) {
      throw new WireFault('version', `the implementation answered protocol version ${answer.protocolVersion}; this suite speaks ${PROTOCOL_VERSION} only`);
    }
    this.description = {
      name: answer.implementation.name,
      version: answer.implementation.version,
      capabilities: answer.capabilities,
      ...(answer.readings ? { readings: answer.readings } : {}),
    };
  }

  /** Send one request; resolves with the validated result (without its seq). */
  request<C extends Command>(cmd: C, args: Args<C>, timeoutMs = this.options.timeoutMs): Promise<Result<C>> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = this.nextSeq++;
    let line: string;
    try {
      line = encodeRequest(cmd, seq, args);
    } catch (e) {
      return Promise.reject(new Error(`the suite's own ${cmd} request breaks the protocol (a bug in the suite, not the implementation): ${(e as Error).message}`));
    }
    return new Promise<Result<C>>((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(new WireFault('timeout', `no response to ${cmd} (seq ${seq}) within ${timeoutMs} ms; the implementation was killed${this.stderrSuffix()}`)),
        timeoutMs,
      );
      this.pending.set(seq, { cmd, seq, resolve: resolve as (r: unknown) => void, reject, timer });
      this.child.stdin.write(`${line}\n`);
    });
  }

  /** End the process gracefully: close its stdin (a server exits at EOF), terminate it if it lingers. */
  close(): void {
    this.fail(new WireFault('closed', 'the connection to the implementation was closed'), false);
    this.child.stdin.end();
    setTimeout(() => this.kill(), KILL_GRACE_MS).unref();
  }

  /** Terminate the process (SIGTERM, then SIGKILL if it has not gone after a grace period, or at once if `now`). */
  kill(now = false): void {
    if (this.exited || this.child.pid === undefined) return;
    if (now || this.terminating) {
      this.child.kill('SIGKILL');
      return;
    }
    this.terminating = true;
    this.child.kill('SIGTERM');
    setTimeout(() => {
      if (!this.exited) this.child.kill('SIGKILL');
    }, KILL_GRACE_MS).unref();
  }

  /** A fatal fault: every outstanding request gets it, later requests too; the process is ended. */
  private fail(fault: WireFault, kill = true): void {
    if (this.failure) return;
    this.failure = fault;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(fault);
    }
    this.pending.clear();
    if (kill) this.kill();
  }

  private onClose(code: number | null, signal: NodeJS.Signals | null): void {
    live.delete(this);
    if (this.failure) return;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const first = this.pending.values().next().value as Pending | undefined;
    const when = first ? `while answering ${first.cmd} (seq ${first.seq})` : 'between requests';
    this.fail(new WireFault('exit', `the implementation (\`${this.label}\`, pid ${this.child.pid}) ${how} ${when}${this.stderrSuffix()}`));
  }

  private onStdout(chunk: string): void {
    if (this.failure) return;
    this.stdoutBuffer += chunk;
    let nl: number;
    while ((nl = this.stdoutBuffer.indexOf('\n')) >= 0 && !this.failure) {
      const line = this.stdoutBuffer.slice(0, nl).replace(/\r$/, '');
      this.stdoutBuffer = this.stdoutBuffer.slice(nl + 1);
      this.onLine(line);
    }
    if (this.stdoutBuffer.length > MAX_LINE_CHARS) {
      this.fail(new WireFault('protocol', `the implementation wrote more than ${MAX_LINE_CHARS} characters on stdout without a newline`));
    }
  }

  private onLine(line: string): void {
    let value: unknown;
    try {
      value = parseLine('response', line);
    } catch (e) {
      return this.fail(
        new WireFault('protocol', `the implementation wrote a line on stdout that is not a protocol message (stdout must carry protocol lines only; diagnostics go to stderr): ${(e as Error).message}${this.stderrSuffix()}`),
      );
    }
    const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    const pending = typeof record.seq === 'number' ? this.pending.get(record.seq) : undefined;
    if (!pending) {
      const outstanding = [...this.pending.values()].map((p) => `${p.cmd} (seq ${p.seq})`).join(', ');
      const error = record.seq === null && typeof record.error === 'object' ? ` — it could not read a request: ${JSON.stringify(record.error)}` : '';
      return this.fail(
        new WireFault(
          'protocol',
          `the implementation answered seq ${JSON.stringify(record.seq)}, but ${outstanding ? `the outstanding request is ${outstanding}` : 'no request is outstanding'}${error}: ${excerpt(line)}`,
        ),
      );
    }
    let decoded: ReturnType<typeof checkResponse>;
    try {
      decoded = checkResponse(pending.cmd, value);
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e;
      return this.fail(new WireFault('protocol', `the answer to ${pending.cmd} (seq ${pending.seq}) breaks the protocol: ${e.message}; line: ${excerpt(line)}`));
    }
    this.pending.delete(pending.seq);
    clearTimeout(pending.timer);
    if (decoded.ok) {
      pending.resolve(decoded.result);
    } else {
      const { message, kind, detail } = decoded.error;
      const more = detail ? `\n${detail.split('\n').slice(0, 12).map((l) => `  | ${l}`).join('\n')}` : '';
      pending.reject(new WireFault('error-response', `the implementation answered ${pending.cmd} (seq ${pending.seq}) with an error${kind ? ` (${kind})` : ''}: ${message}${more}`, decoded.error));
    }
  }

  private onStderr(chunk: string): void {
    this.stderrBuffer += chunk;
    const lines = this.stderrBuffer.split('\n');
    this.stderrBuffer = lines.pop() ?? '';
    for (const l of lines) this.keepStderr(l);
  }

  private keepStderr(line: string): void {
    if (this.options.echoStderr) process.stderr.write(`[implementation] ${line}\n`);
    this.stderrTail.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
    if (this.stderrTail.length > STDERR_LINES) this.stderrTail.shift();
  }

  private stderrSuffix(): string {
    if (this.stderrBuffer) {
      this.keepStderr(this.stderrBuffer);
      this.stderrBuffer = '';
    }
    if (this.stderrTail.length === 0) return '; it wrote nothing on stderr';
    return `; its last stderr lines:\n${this.stderrTail.map((l) => `  | ${l}`).join('\n')}`;
  }
}
