/**
 * The small language that Gherkin tables use for PMIx attribute values, so a
 * feature can say what it means ("job A", "allocation R1", "the invalid
 * namespace") while the suite sends the ids the implementation minted.
 *
 *   (absent)                 the row is left out of the request
 *   true / false             a bool
 *   42                       an integer
 *   PMIX_ALLOC_INHERIT_NONE  the named constant's value
 *   job A / tool T           that process's namespace
 *   the scheduler            the scheduler's namespace
 *   allocation R1            the PMIX_ALLOC_ID the implementation returned for R1
 *   the invalid namespace    "" (as a spawn target: the default session)
 *   "text"                   the literal string
 *   [a, b]                   an array of the above (the array form of PMIX_SPAWN_TARGET)
 *
 * What a response or an event must carry may also be
 *   one of a, b              any of the above, (absent) included (where a reading of
 *                            the documents allows each: features/INTERPRETATIONS.md, Readings)
 */
import { isDeepStrictEqual } from 'node:util';
import type { InfoValue } from '../../seam/messages';
import { Inheritance, Key, type KeyName } from '../../seam/pmix';

export interface Names {
  jobNspace(alias: string): string;
  toolNspace(alias: string): string;
  schedulerNspace(): string;
  allocId(alias: string): string;
}

export const ABSENT = Symbol('absent');

export function parseValue(text: string, names: Names): InfoValue | typeof ABSENT {
  const t = text.trim();
  if (t === '(absent)') return ABSENT;
  if (t.startsWith('[') && t.endsWith(']')) {
    const inner = t.slice(1, -1).trim();
    if (inner === '') return [];
    return splitTopLevel(inner).map((part) => {
      const v = parseValue(part, names);
      if (typeof v !== 'string') throw new Error(`array entries must be strings: ${part}`);
      return v;
    });
  }
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (/^-?\d+$/.test(t)) return Number(t);
  if (t in Inheritance) return Inheritance[t as keyof typeof Inheritance];
  if (t === 'the invalid namespace') return '';
  if (t === 'the scheduler') return names.schedulerNspace();
  let m = /^job (\S+)$/.exec(t);
  if (m) return names.jobNspace(m[1]);
  m = /^tool (\S+)$/.exec(t);
  if (m) return names.toolNspace(m[1]);
  m = /^allocation (\S+)$/.exec(t);
  if (m) return names.allocId(m[1]);
  m = /^"(.*)"$/.exec(t);
  if (m) return m[1];
  throw new Error(`cannot read attribute value "${text}" (see steps/support/values.ts for the forms)`);
}

function splitTopLevel(s: string): string[] {
  return s.split(',').map((p) => p.trim());
}

/** "PMIX_ALLOC_TARGET" -> "pmix.alloc.tgt"; a raw key string passes through. */
export function keyString(name: string): string {
  const n = name.trim();
  if (n in Key) return Key[n as KeyName];
  if (/^[a-z][a-z0-9.]*$/.test(n)) return n;
  throw new Error(`unknown PMIx attribute "${name}"`);
}

export const splitNames = (list: string): string[] =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** What a carried value must be: one value, absent, or any of several (absence among them or not). */
export type Expected = InfoValue | typeof ABSENT | OneOf;
export interface OneOf {
  oneOf: (InfoValue | typeof ABSENT)[];
}

/** parseValue, plus `one of a, b`: for what is carried, never for what is sent. */
export function parseExpected(text: string, names: Names): Expected {
  const m = /^one of (.+)$/.exec(text.trim());
  if (!m) return parseValue(text, names);
  return { oneOf: splitTopLevel(m[1]).map((part) => parseValue(part, names)) };
}

export const isOneOf = (e: Expected): e is OneOf => typeof e === 'object' && e !== null && !Array.isArray(e) && 'oneOf' in e;

/**
 * Whether what an info array holds under one key (every entry with that
 * key) is what was expected: absent, exactly one entry with the value, or
 * either of those as `one of` allows.
 */
export function carriedAsExpected(expected: Expected, present: { value: unknown }[]): boolean {
  const allowed = isOneOf(expected) ? expected.oneOf : [expected];
  return allowed.some((v) => (v === ABSENT ? present.length === 0 : present.length === 1 && isDeepStrictEqual(present[0].value, v)));
}

/** The expectation in words, for a failure message. */
export const describeExpected = (expected: Expected): string => {
  const one = (v: InfoValue | typeof ABSENT) => (v === ABSENT ? '(absent)' : JSON.stringify(v));
  return isOneOf(expected) ? `one of ${expected.oneOf.map(one).join(', ')}` : one(expected);
};
