/**
 * Reading PMIx info arrays the way the reference engine's emulated PMIx
 * would: a key the emulated PMIx does not define is not recognised (it is
 * dropped like any unknown attribute), and a recognised key with a value of
 * the wrong type is a PMIX_ERR_BAD_PARAM.
 */
import type { Info, InfoValue } from '../seam/messages';
import { Inheritance, Key, Status, type OptionalKeyName } from '../seam/pmix';
import type { State } from './state';

/**
 * A request refused with a PMIx status: an answer, not a fault, so it
 * captures no stack trace (capturing one was the engine's costliest line in
 * the property runs, where refusals are frequent).
 */
export class Rejection extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.status = status;
  }
}

const OPTIONAL_BY_KEY = new Map<string, OptionalKeyName>([
  [Key.PMIX_ALLOC_TARGET, 'PMIX_ALLOC_TARGET'],
  [Key.PMIX_ALLOC_SHARE, 'PMIX_ALLOC_SHARE'],
  [Key.PMIX_ALLOC_INHERITANCE, 'PMIX_ALLOC_INHERITANCE'],
  [Key.PMIX_ALLOC_WARN_TIMEOUT, 'PMIX_ALLOC_WARN_TIMEOUT'],
  [Key.PMIX_SPAWN_TARGET, 'PMIX_SPAWN_TARGET'],
]);

/** The info array as the emulated PMIx sees it: unknown optional keys removed. */
export function recognised(state: State, info: Info[]): Map<string, Info> {
  const out = new Map<string, Info>();
  for (const i of info) {
    const optional = OPTIONAL_BY_KEY.get(i.key);
    if (optional && !state.supports(optional)) continue;
    if (!out.has(i.key)) out.set(i.key, i); // first occurrence wins, as in a PMIx info scan
  }
  return out;
}

const bad = (key: string, want: string, got: InfoValue) =>
  new Rejection(Status.PMIX_ERR_BAD_PARAM, `${key} must be ${want}, got ${JSON.stringify(got)}`);

export function str(info: Map<string, Info>, key: string): string | undefined {
  const i = info.get(key);
  if (!i) return undefined;
  if (typeof i.value !== 'string') throw bad(key, 'a string', i.value);
  return i.value;
}

export function bool(info: Map<string, Info>, key: string): boolean | undefined {
  const i = info.get(key);
  if (!i) return undefined;
  if (typeof i.value !== 'boolean') throw bad(key, 'a boolean', i.value);
  return i.value;
}

export function uint(info: Map<string, Info>, key: string, max: number): number | undefined {
  const i = info.get(key);
  if (!i) return undefined;
  const v = i.value;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) {
    throw bad(key, `an integer in 0..${max}`, v);
  }
  return v;
}

/** PMIX_SPAWN_TARGET: one allocation-id string, or an array of them. */
export function strOrStrArray(info: Map<string, Info>, key: string): string[] | undefined {
  const i = info.get(key);
  if (!i) return undefined;
  if (typeof i.value === 'string') return [i.value];
  if (Array.isArray(i.value) && i.value.length > 0 && i.value.every((s) => typeof s === 'string')) {
    return [...i.value];
  }
  throw bad(key, 'a string or a non-empty array of strings', i.value);
}

const UINT8 = 255;
const UINT32 = 4294967295;
const DISPOSITIONS: readonly number[] = Object.values(Inheritance);

/**
 * PMIX_ALLOC_INHERITANCE. Without the key in the emulated PMIx every
 * reservation is DEFAULT, and a non-default value is refused with
 * PMIX_ERR_NOT_SUPPORTED rather than silently ignored (the requester must
 * never be misled about its allocation's lifetime). A value outside the four
 * dispositions is likewise a value the host does not support.
 */
export function inheritance(state: State, raw: Info[]): number | undefined {
  const i = raw.find((x) => x.key === Key.PMIX_ALLOC_INHERITANCE);
  if (!i) return undefined;
  const v = i.value;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > UINT8) {
    throw bad(Key.PMIX_ALLOC_INHERITANCE, 'a pmix_alloc_inheritance_t (uint8)', v);
  }
  if (!state.supports('PMIX_ALLOC_INHERITANCE')) {
    if (v === Inheritance.PMIX_ALLOC_INHERIT_DEFAULT) return v;
    throw new Rejection(Status.PMIX_ERR_NOT_SUPPORTED, `this PMIx has no PMIX_ALLOC_INHERITANCE; value ${v} cannot be honoured`);
  }
  if (!DISPOSITIONS.includes(v)) {
    throw new Rejection(Status.PMIX_ERR_NOT_SUPPORTED, `inheritance value ${v} is not a disposition this host supports`);
  }
  return v;
}

export const LIMITS = { UINT8, UINT32 };
