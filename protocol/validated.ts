/**
 * The wire's request schemas, applied in process. Over the wire the server
 * checks every request against schemas/ before an implementation sees it; an
 * implementation driven through the TypeScript seam gets the same check from
 * this decorator, with the same validator (protocol/codec.ts), so a malformed
 * request can neither throw inside it nor change anything:
 *  - a method that answers a PMIx status answers PMIX_ERR_BAD_PARAM, no effect;
 *  - the others (start, connectTool, observe) throw, as the server refuses.
 * A request is judged exactly as it is, not as JSON would turn it: it must be
 * a plain object (a missing request is malformed, observe's too) holding only
 * what JSON carries unchanged. A field present but undefined is refused: the
 * schemas skip it, yet the implementation would see it, and one that tells
 * `'hosts' in app` from an absent field would act on something that can
 * never arrive over the wire.
 */
import type { Implementation } from '../seam/implementation';
import { Status } from '../seam/pmix';
import { check, ProtocolError, requestType, valid } from './codec';
import { METHOD_OF, type Command } from './messages';

const STATUS_METHODS = new Set<string>(['disconnectTool', 'allocate', 'spawn', 'terminateJob', 'scheduler', 'daemon', 'advanceJob', 'queryAllocation']);
const WITH_INFO = new Set<string>(['allocate', 'spawn']);

/** Where `value` holds something JSON would not carry unchanged (JSON pointer, what), or undefined when it holds none. */
export function notPlainJson(value: unknown, at = '', ancestors: object[] = []): [string, string] | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : [at, `is ${value}`];
    case 'object': {
      if (value === null) return undefined;
      if (ancestors.includes(value)) return [at, 'refers to itself'];
      const proto = Object.getPrototypeOf(value) as unknown;
      if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return [at, 'is not a plain object'];
      const inner = [...ancestors, value];
      for (const [k, v] of Object.entries(value)) {
        const problem = notPlainJson(v, `${at}/${k}`, inner);
        if (problem) return problem;
      }
      return undefined;
    }
    default:
      return [at, `is ${typeof value}`];
  }
}

/** Throws a ProtocolError when `req` is not a valid `cmd` request exactly as it is. */
function judge(cmd: Command, req: unknown): void {
  const type = requestType(cmd);
  if (typeof req !== 'object' || req === null || Array.isArray(req)) {
    throw new ProtocolError(type, '', 'type', req === undefined ? 'is missing' : `must be an object, not ${Array.isArray(req) ? 'an array' : String(req)}`);
  }
  const problem = notPlainJson(req);
  if (problem) throw new ProtocolError(type, problem[0], 'json', `${problem[1]}: it cannot travel the wire as it is`);
  const message = { seq: 0, cmd, ...req };
  if (!valid(type, message)) check(type, message);
}

export function validated(inner: Implementation): Implementation {
  const out: Record<string, unknown> = { ...inner };
  for (const [cmd, method] of Object.entries(METHOD_OF) as [Command, keyof Implementation][]) {
    const fn = inner[method] as ((req: unknown) => Promise<unknown>) | undefined;
    if (!fn || method === 'describe' || method === 'stop' || method === 'inspect') continue;
    // Not an async function: it hands back the implementation's own promise
    // rather than wrapping it in another (every promise costs under
    // cucumber's and node:test's async tracking, and this is on every call).
    out[method] = (req: unknown): Promise<unknown> => {
      try {
        judge(cmd, req);
      } catch (e) {
        if (!(e instanceof ProtocolError)) return Promise.reject(e);
        if (STATUS_METHODS.has(method)) return Promise.resolve({ status: Status.PMIX_ERR_BAD_PARAM, ...(WITH_INFO.has(method) ? { info: [] } : {}) });
        return Promise.reject(new Error(`malformed ${method} request: ${e.message}`));
      }
      try {
        return Promise.resolve(fn.call(inner, req));
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }
  return out as unknown as Implementation;
}
