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
/** The longest stderr line kept (the rest of it is dropped as it arrives). */
const STDERR_LINE_CHARS = 500;
/**
 * The longest protocol line accepted (PMIX_CONFORMANCE_MAX_LINE_BYTES). An
 * observation of a 100,000-node DVM is about 8 MB; a line past the limit is a
 * fault with that cause, never buffered without end (nor mistaken for a hang).
 */
export const MAX_LINE_CHARS = Number(process.env.PMIX_CONFORMANCE_MAX_LINE_BYTES ?? 32 * 1024 * 1024);
const KILL_GRACE_MS = 1000;

const live = new Set<Connection>();
let opened = 0;
/** How many implementation processes this runner has started so far (one per restart after a fault). */
export const processesStarted = (): number => opened;
let exitHookInstalled = false;
function ensureExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // The runner is exiting: idle implementations see EOF on stdin and go; make sure the rest do too.
  process.on('exit', () => {
    for (const c of live) c.kill(); // SIGTERM; SIGKILL for one already sent SIGTERM
  });
  // Interrupted (Ctrl-C, CI cancelling the job): end every implementation's
  // process group (they are detached, so the terminal's signal does not reach
  // them), then die of the same signal.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const c of live) c.kill(true);
      process.kill(process.pid, signal);
    });
  }
}

const excerpt = (text: string, max = 200) => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

export class Connection {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly label: string;
  private nextSeq = 1;
  private readonly pending = new Map<number, Pending>();
  /** The current, unfinished stdout line, as chunks (joined once, when its newline arrives). */
  private stdoutParts: string[] = [];
  private stdoutLength = 0;
  /** The current, unfinished stderr line: its first STDERR_LINE_CHARS characters, and how many more were dropped. */
  private stderrBuffer = '';
  private stderrDropped = 0;
  private readonly stderrTail: string[] = [];
  private failure?: WireFault;
  private exited = false;
  private terminating = false;
  description!: Description;

  private constructor(private readonly options: ConnectionOptions) {
    ensureExitHook();
    const [file, ...args] = options.argv;
    this.label = options.argv.join(' ');
    // Its own process group, so that ending it ends whatever it forked too (detached: setsid).
    this.child = spawn(file, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    opened += 1;
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
      // Nothing it forked may outlive it: children still holding the pipes are ended with it.
      this.signalGroup('SIGKILL');
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
      ...(answer.effectsTrailAnswers ? { effectsTrailAnswers: true } : {}),
      ...(answer.quietMs !== undefined ? { quietMs: answer.quietMs } : {}),
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
      this.signalGroup('SIGKILL');
      return;
    }
    this.terminating = true;
    this.signalGroup('SIGTERM');
    setTimeout(() => {
      if (!this.exited) this.signalGroup('SIGKILL');
    }, KILL_GRACE_MS).unref();
  }

  /** Signal the implementation's whole process group (it leads one: spawned detached). */
  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone already; or no group (a platform without them): the process alone.
      if (!this.exited) this.child.kill(signal);
    }
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

  /** Linear in what arrives: only the new chunk is searched for newlines, and a line is joined once. */
  private onStdout(chunk: string): void {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0 && !this.failure; nl = chunk.indexOf('\n', start)) {
      this.stdoutParts.push(chunk.slice(start, nl));
      const line = this.stdoutParts.join('').replace(/\r$/, '');
      this.stdoutParts = [];
      this.stdoutLength = 0;
      start = nl + 1;
      if (line.length > MAX_LINE_CHARS) return this.tooLong(line.length);
      this.onLine(line);
    }
    if (this.failure) return;
    const rest = chunk.slice(start);
    if (rest.length === 0) return;
    this.stdoutParts.push(rest);
    this.stdoutLength += rest.length;
    if (this.stdoutLength > MAX_LINE_CHARS) this.tooLong(this.stdoutLength);
  }

  private tooLong(chars: number): void {
    this.stdoutParts = [];
    this.fail(
      new WireFault(
        'protocol',
        `the implementation wrote a line of more than ${MAX_LINE_CHARS} characters on stdout (${chars} so far) without finishing it; the limit is PMIX_CONFORMANCE_MAX_LINE_BYTES${this.stderrSuffix()}`,
      ),
    );
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

  /**
   * Keep the tail of stderr (its last STDERR_LINES lines, each cut at
   * STDERR_LINE_CHARS) in linear time and bounded memory, however much an
   * implementation writes, with or without newlines.
   */
  private onStderr(chunk: string): void {
    if (this.options.echoStderr) process.stderr.write(chunk.replace(/^/gm, '[implementation] '));
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      this.appendStderr(chunk.slice(start, nl));
      this.keepStderr();
      start = nl + 1;
    }
    this.appendStderr(chunk.slice(start));
  }

  private appendStderr(text: string): void {
    const room = STDERR_LINE_CHARS - this.stderrBuffer.length;
    if (room > 0) this.stderrBuffer += text.slice(0, room);
    this.stderrDropped += Math.max(0, text.length - Math.max(room, 0));
  }

  private keepStderr(): void {
    const cut = this.stderrDropped > 0 ? `… (${this.stderrDropped} more characters)` : '';
    this.stderrTail.push(`${this.stderrBuffer}${cut}`);
    this.stderrBuffer = '';
    this.stderrDropped = 0;
    if (this.stderrTail.length > STDERR_LINES) this.stderrTail.shift();
  }

  private stderrSuffix(): string {
    if (this.stderrBuffer || this.stderrDropped) this.keepStderr();
    if (this.stderrTail.length === 0) return '; it wrote nothing on stderr';
    return `; its last stderr lines:\n${this.stderrTail.map((l) => `  | ${l}`).join('\n')}`;
  }
}
