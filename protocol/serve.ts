/**
 * The implementation's end of the wire: read requests from a line stream,
 * validate them, dispatch them to an Implementation (created afresh at every
 * `start`), validate the answers and write them, one line each. Any
 * TypeScript implementation can be served with this; servers/reference-server.ts
 * serves the reference engine.
 */
import type { Implementation } from '../seam/implementation';
import { decodeRequest, encodeError, encodeResponse, ProtocolError, seqOf, type Request } from './codec';
import { PROTOCOL_VERSION, type Result, type WireError } from './messages';

export interface ServeOptions {
  createImplementation(): Implementation;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Diagnostics; never the protocol stream. */
  log?: (text: string) => void;
}

/** A refusal the server itself makes (as opposed to the implementation throwing). */
class Refusal extends Error {
  constructor(
    readonly kind: NonNullable<WireError['kind']>,
    message: string,
    readonly supportedVersions?: string[],
  ) {
    super(message);
  }
}

function wireError(e: unknown): WireError {
  if (e instanceof Refusal) {
    return { message: e.message, kind: e.kind, ...(e.supportedVersions ? { supportedVersions: e.supportedVersions } : {}) };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { message: err.message || err.name, kind: 'internal', ...(err.stack ? { detail: err.stack } : {}) };
}

/** Serve until the input closes; resolves then (after stopping any live DVM). */
export async function serve(options: ServeOptions): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const log = options.log ?? ((text: string) => process.stderr.write(`${text}\n`));
  let handshaken = false;
  let impl: Implementation | undefined;

  const live = (): Implementation => {
    if (!impl) throw new Refusal('not-started', 'no DVM: send "start" first');
    return impl;
  };

  async function dispatch(req: Request): Promise<Result<Request['cmd']>> {
    if (req.cmd === 'start-protocol') {
      if (handshaken) throw new Refusal('bad-request', 'the handshake ("start-protocol") is sent once, first; this process has already had it');
      if (req.args.protocolVersion !== PROTOCOL_VERSION) {
        throw new Refusal('protocol-version', `this implementation speaks protocol ${PROTOCOL_VERSION}, not ${req.args.protocolVersion}`, [PROTOCOL_VERSION]);
      }
      const d = await options.createImplementation().describe();
      handshaken = true;
      return { protocolVersion: PROTOCOL_VERSION, implementation: { name: d.name, version: d.version }, capabilities: d.capabilities, ...(d.readings ? { readings: d.readings } : {}), ...(d.effectsTrailAnswers ? { effectsTrailAnswers: true } : {}), ...(d.quietMs !== undefined ? { quietMs: d.quietMs } : {}) };
    }
    if (!handshaken) throw new Refusal('bad-request', `the first request must be "start-protocol", not "${req.cmd}"`);
    switch (req.cmd) {
      case 'start':
        if (impl) await impl.stop();
        impl = options.createImplementation();
        return impl.start(req.args);
      case 'stop':
        if (impl) await impl.stop();
        impl = undefined;
        return {};
      case 'connect-tool':
        return live().connectTool(req.args);
      case 'disconnect-tool':
        return live().disconnectTool(req.args);
      case 'allocate':
        return live().allocate(req.args);
      case 'spawn':
        return live().spawn(req.args);
      case 'terminate-job':
        return live().terminateJob(req.args);
      case 'scheduler':
        return live().scheduler(req.args);
      case 'daemon':
        return live().daemon(req.args);
      case 'advance-job':
        return live().advanceJob(req.args);
      case 'query-allocation':
        return live().queryAllocation(req.args);
      case 'observe':
        return live().observe(req.args);
      case 'inspect': {
        const target = live();
        if (!target.inspect) throw new Refusal('not-supported', 'this implementation does not provide introspection');
        return target.inspect();
      }
    }
  }

  async function answer(line: string): Promise<string> {
    let req: Request;
    try {
      req = decodeRequest(line);
    } catch (e) {
      log(`bad request: ${(e as Error).message}`);
      return encodeError(seqOf(line), { message: (e as Error).message, kind: 'bad-request' });
    }
    let result: Result<Request['cmd']>;
    try {
      result = await dispatch(req);
    } catch (e) {
      if (!(e instanceof Refusal)) log(`${req.cmd} (seq ${req.seq}) failed: ${e instanceof Error ? e.stack : String(e)}`);
      return encodeError(req.seq, wireError(e));
    }
    try {
      return encodeResponse(req.cmd, req.seq, result as never);
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e;
      log(`the implementation's answer to ${req.cmd} (seq ${req.seq}) breaks the protocol: ${e.message}`);
      return encodeError(req.seq, { message: `the implementation's answer breaks the protocol: ${e.message}`, kind: 'internal' });
    }
  }

  for await (const line of lines(input)) {
    output.write(`${await answer(line)}\n`);
  }
  if (impl) await impl.stop().catch(() => undefined);
}

/**
 * The request lines: split on "\n" only (a CRLF ending loses its "\r"). Node's
 * readline also ends a line at a lone "\r", which would turn one malformed
 * request into two and answer it twice.
 */
async function* lines(input: NodeJS.ReadableStream): AsyncGenerator<string> {
  let buffered = '';
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    buffered += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      yield line.endsWith('\r') ? line.slice(0, -1) : line;
    }
  }
  if (buffered.length > 0) yield buffered.endsWith('\r') ? buffered.slice(0, -1) : buffered;
}
