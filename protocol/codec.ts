/**
 * Encode and decode protocol lines, validating every message against its
 * JSON Schema (schemas/). Both ends use it: the runner (adapters/subprocess)
 * and a TypeScript implementation's server (protocol/serve). Each schema is
 * compiled once, on first use.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isCommand, type Args, type Command, type Result, type WireError } from './messages';

export const SCHEMA_DIR = path.resolve(__dirname, '..', 'schemas');

/** A line that breaks the protocol: names the message type, the field path and the rule broken. */
export class ProtocolError extends Error {
  constructor(
    /** e.g. "allocate-response". */
    readonly messageType: string,
    /** JSON pointer into the message (ajv instancePath); '' is the whole message. */
    readonly path: string,
    /** The schema keyword that failed (ajv keyword), or "json" for a line that is not JSON. */
    readonly rule: string,
    readonly problem: string,
  ) {
    super(`invalid ${messageType} at ${path || '(root)'}: ${problem} [rule: ${rule}]`);
    this.name = 'ProtocolError';
  }
}

/** Annotation-only keywords the schemas carry for tools (see schemas/README.md). */
export const ANNOTATIONS = ['x-response', 'x-method', 'x-pmix-names'] as const;

let ajv: Ajv2020 | undefined;
/** One Ajv instance holding every schema file, keyed by its $id (its file name). */
export function schemaRegistry(): Ajv2020 {
  if (ajv) return ajv;
  const instance = new Ajv2020({ strictSchema: true, strictNumbers: true, strictTypes: true, strictTuples: true, allErrors: false, allowUnionTypes: true });
  for (const keyword of ANNOTATIONS) instance.addKeyword({ keyword });
  for (const file of fs.readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json')).sort()) {
    instance.addSchema(JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8')), file);
  }
  return (ajv = instance);
}

function validator(schemaFile: string): ValidateFunction {
  const v = schemaRegistry().getSchema(schemaFile);
  if (!v) throw new Error(`no schema ${schemaFile} in ${SCHEMA_DIR}`);
  return v;
}

export const requestType = (cmd: Command) => `${cmd}-request`;
export const responseType = (cmd: Command) => `${cmd}-response`;
export const ERROR_RESPONSE = 'error-response';

function explain(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
      return `has unknown property "${String(p.additionalProperty)}"`;
    case 'enum':
      return `must be one of ${JSON.stringify(p.allowedValues)}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'type':
      return `must be ${([] as unknown[]).concat(p.type).join(' or ')}`;
    case 'false schema':
      return 'is not allowed here';
    default:
      return e.message ?? 'is invalid';
  }
}

/** Validate `value` as message type `type`, or throw a ProtocolError naming the first violation. */
export function check(type: string, value: unknown): void {
  const validate = validator(`${type}.json`);
  if (validate(value)) return;
  const e = validate.errors![0];
  throw new ProtocolError(type, e.instancePath, e.keyword, explain(e));
}

/** JSON.parse, or a ProtocolError saying the line is not JSON. */
export function parseLine(type: string, line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (e) {
    const excerpt = line.length > 120 ? `${line.slice(0, 120)}…` : line;
    throw new ProtocolError(type, '', 'json', `is not JSON (${(e as Error).message}): ${JSON.stringify(excerpt)}`);
  }
}

/** Serialise, then validate exactly what will travel (undefined-valued fields vanish as they do on the wire). */
function encode(type: string, message: object): string {
  const line = JSON.stringify(message);
  check(type, JSON.parse(line));
  return line;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSeq = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

// --- requests (runner -> implementation) ---

export type Request = { [C in Command]: { seq: number; cmd: C; args: Args<C> } }[Command];

export function encodeRequest<C extends Command>(cmd: C, seq: number, args: Args<C>): string {
  return encode(requestType(cmd), { seq, cmd, ...args });
}

export function decodeRequest(line: string): Request {
  const value = parseLine('request', line);
  if (!isObject(value)) throw new ProtocolError('request', '', 'type', 'must be object');
  if (!isCommand(value.cmd)) {
    const problem = typeof value.cmd === 'string' ? `names no command: ${JSON.stringify(value.cmd)}` : 'must have a string property "cmd"';
    throw new ProtocolError('request', '/cmd', 'enum', problem);
  }
  check(requestType(value.cmd), value);
  const { seq, cmd, ...args } = value;
  return { seq, cmd, args } as Request;
}

/** The seq of a request line, if it has a readable one (for answering a bad request). */
export function seqOf(line: string): number | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) && isSeq(value.seq) ? value.seq : null;
  } catch {
    return null;
  }
}

// --- responses (implementation -> runner) ---

export function encodeResponse<C extends Command>(cmd: C, seq: number, result: Result<C>): string {
  return encode(responseType(cmd), { seq, ...result });
}

export function encodeError(seq: number | null, error: WireError): string {
  return encode(ERROR_RESPONSE, { seq, error });
}

export type Response<C extends Command> = { seq: number; ok: true; result: Result<C> } | { seq: number | null; ok: false; error: WireError };

/** A response line to a request of command `cmd`: its own response type, or an error response. */
export function decodeResponse<C extends Command>(cmd: C, line: string): Response<C> {
  return checkResponse(cmd, parseLine(responseType(cmd), line));
}

export function checkResponse<C extends Command>(cmd: C, value: unknown): Response<C> {
  if (isObject(value) && 'error' in value) {
    check(ERROR_RESPONSE, value);
    return { seq: value.seq as number | null, ok: false, error: value.error as WireError };
  }
  check(responseType(cmd), value);
  const { seq, ...result } = value as Record<string, unknown>;
  return { seq: seq as number, ok: true, result: result as Result<C> };
}
