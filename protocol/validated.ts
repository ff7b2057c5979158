/**
 * The wire's request schemas, applied in process. Over the wire the server
 * checks every request against schemas/ before an implementation sees it; an
 * implementation driven through the TypeScript seam gets the same check from
 * this decorator, with the same validator (protocol/codec.ts), so a malformed
 * request can neither throw inside it nor change anything:
 *  - a method that answers a PMIx status answers PMIX_ERR_BAD_PARAM, no effect;
 *  - the others (start, connectTool, observe) throw, as the server refuses.
 */
import type { Implementation } from '../seam/implementation';
import { Status } from '../seam/pmix';
import { check, ProtocolError, requestType, valid } from './codec';
import { METHOD_OF, type Command } from './messages';

const STATUS_METHODS = new Set<string>(['disconnectTool', 'allocate', 'spawn', 'terminateJob', 'scheduler', 'daemon', 'advanceJob', 'queryAllocation']);
const WITH_INFO = new Set<string>(['allocate', 'spawn']);

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
        const message = { seq: 0, cmd, ...(req as object) };
        // Judged as it would travel (plain JSON: undefined fields vanish, and
        // so on). A request already valid as it is needs no round trip: the
        // schemas skip undefined properties and reject NaN, Infinity, a
        // function, a bigint or undefined in a list, so JSON can only make it
        // lose fields the schemas ignore; only an invalid one is judged again
        // in its wire form (steps send plain data, never objects with toJSON).
        if (!valid(requestType(cmd), message)) check(requestType(cmd), JSON.parse(JSON.stringify(message)) as unknown);
      } catch (e) {
        if (!(e instanceof ProtocolError) && !(e instanceof TypeError)) return Promise.reject(e);
        if (STATUS_METHODS.has(method)) return Promise.resolve({ status: Status.PMIX_ERR_BAD_PARAM, ...(WITH_INFO.has(method) ? { info: [] } : {}) });
        return Promise.reject(new Error(`malformed ${method} request: ${(e as Error).message}`));
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
