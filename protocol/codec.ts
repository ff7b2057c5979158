/**
 * Encode and decode protocol lines, validating every message against its
 * JSON Schema (schemas/). Both ends use it: the runner (adapters/subprocess)
 * and a TypeScript implementation's server (protocol/serve). Each schema is
 * compiled once, on first use.
 */
// ajv itself is loaded only to compile (a cache miss, or schemaRegistry()): the
// cached validators need its small runtime alone.
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cachedFile } from './compile-cache';
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
  return (ajv = newAjv());
}

const AJV_OPTIONS = { strictSchema: true, strictNumbers: true, strictTypes: true, strictTuples: true, allErrors: false, allowUnionTypes: true } as const;

function newAjv(extra: object = {}): Ajv2020 {
  const Ajv = (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default;
  const instance = new Ajv({ ...AJV_OPTIONS, ...extra });
  for (const keyword of ANNOTATIONS) instance.addKeyword({ keyword });
  for (const file of schemaFiles()) instance.addSchema(JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8')), file);
  return instance;
}

const schemaFiles = () => fs.readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json')).sort();

/**
 * Every schema's validator, compiled once for good: ajv's generated code
 * (its "standalone" output) for the current schema files is kept in the
 * compile cache (protocol/compile-cache.js), so a process loads it instead of
 * compiling the schemas again (compiling took ~0.2 s of every start, twice
 * per scenario run over the wire). Keyed by the schemas' text, ajv's version
 * and the options. Undefined when there is no cache folder.
 */
let standalone: Record<string, ValidateFunction> | null | undefined;
function standaloneValidators(): Record<string, ValidateFunction> | undefined {
  if (standalone !== undefined) return standalone ?? undefined;
  const files = schemaFiles();
  const ajvPackage = require.resolve('ajv/package.json');
  const parts = [`ajv ${(JSON.parse(fs.readFileSync(ajvPackage, 'utf8')) as { version: string }).version} ${ajvPackage}`, JSON.stringify(AJV_OPTIONS), ...files.flatMap((f) => [f, fs.readFileSync(path.join(SCHEMA_DIR, f), 'utf8')])];
  const file = cachedFile(parts, () => {
    const instance = newAjv({ code: { source: true } });
    const exportsByName = Object.fromEntries(files.map((f, i) => [`v${i}`, f]));
    // The generated module requires ajv's runtime helpers by package name; the
    // cache folder may be outside this checkout, so name them by path.
    const ajvDir = path.dirname(ajvPackage);
    const standaloneCode = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default;
    return standaloneCode(instance, exportsByName).replace(/require\("ajv\/dist\/([^"]+)"\)/g, (_, rest: string) => `require(${JSON.stringify(path.join(ajvDir, 'dist', rest))})`);
  });
  if (!file) {
    standalone = null;
    return undefined;
  }
  const mod = require(file) as Record<string, ValidateFunction>;
  standalone = Object.fromEntries(files.map((f, i) => [f, mod[`v${i}`]]));
  return standalone;
}

/** Each message type's validator, found once (this is on every message's path). */
const byType = new Map<string, ValidateFunction>();
function validator(type: string): ValidateFunction {
  let v = byType.get(type);
  if (!v) {
    const schemaFile = `${type}.json`;
    v = standaloneValidators()?.[schemaFile] ?? schemaRegistry().getSchema(schemaFile);
    if (!v) throw new Error(`no schema ${schemaFile} in ${SCHEMA_DIR}`);
    byType.set(type, v);
  }
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

/** Whether `value` is a valid message of type `type`. */
export function valid(type: string, value: unknown): boolean {
  return validator(type)(value) === true;
}

/** Validate `value` as message type `type`, or throw a ProtocolError naming the first violation. */
export function check(type: string, value: unknown): void {
  const validate = validator(type);
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

/**
 * Serialise, then validate exactly what will travel (undefined-valued fields
 * vanish as they do on the wire). A message already valid as it is needs no
 * second parse: the schemas skip undefined properties and reject what JSON
 * would turn into something else (NaN, Infinity, undefined in a list), so
 * serialising can only drop fields they ignore.
 */
function encode(type: string, message: object): string {
  const line = JSON.stringify(message);
  if (!valid(type, message)) check(type, JSON.parse(line));
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
