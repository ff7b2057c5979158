/**
 * What the property oracles need to know about the implementation under
 * test before they can judge it: what it declares in the handshake
 * (seam/implementation.ts Description), read once per run.
 *
 *  - readings (seam/readings.ts, features/INTERPRETATIONS.md "Readings"):
 *    where the documents allow more than one behaviour, the value the
 *    implementation takes. A declared value is held to exactly that value's
 *    behaviour. An undeclared one is held to what holds under every value,
 *    as the Gherkin side does with its untagged Examples ("a reading never
 *    hides a violation"): the oracle accepts each value's behaviour, and
 *    the first time the implementation's behaviour tells the values apart
 *    the run holds it to that value from then on (one implementation, one
 *    value; a mix of the two is neither reading).
 *  - capabilities (seam/capabilities.ts): which harness hooks the
 *    implementation offers. Without daemon-control its daemons act on their
 *    own (the property may only watch them, and kill one with
 *    daemon-faults); without job-staging, scheduler-control, introspection
 *    or elastic-internals the property does not use what is missing.
 *
 * Freedoms that are not readings hold for every implementation, declared or
 * not, and the oracles allow them always: any accepted status where the
 * documents name none (seam/pmix ACCEPTED_STATUSES), any error status where
 * a refusal's status is not named (IP-RELEASE-ERRORS, IP-SLOT-CAPACITY,
 * IP-TARGET-INVALID), the order of an observation's lists (they are sets;
 * events are ordered by seq alone), the key a failure's cause travels under
 * (ED: "conveyed in the event's info array"), a job that releases its own
 * node and ends before the answer (IP-RELEASER-ENDED-BY-RELEASE), and a
 * spawn larger than its sessions' free slots placed anyway
 * (IP-SLOT-CAPACITY).
 */
import { isDeepStrictEqual } from 'node:util';
import type { CapabilityName } from '../../seam/capabilities';
import type { Description, Implementation } from '../../seam/implementation';
import type { Introspection, Snapshot } from '../../seam/messages';
import { ACCEPTED_STATUSES } from '../../seam/pmix';
import { READINGS, type ReadingName } from '../../seam/readings';
import { canonicalIntrospection, canonicalSnapshot } from '../../steps/support/canonical';

/** A status a client must treat as "the request was accepted". */
export const accepted = (status: number): boolean => ACCEPTED_STATUSES.includes(status);

/**
 * Events in seq order (their only order: seq may have gaps, and an
 * observation's lists come in any order), leaving the snapshot as it is
 * when they already are.
 */
export function eventsBySeq(snap: Snapshot): Snapshot {
  const ev = snap.events;
  for (let i = 1; i < ev.length; i++) if (ev[i - 1].seq > ev[i].seq) return { ...snap, events: [...ev].sort((a, b) => a.seq - b.seq) };
  return snap;
}

/** Two observations show the same: compared as sets (steps/support/canonical.ts puts every list in one order). */
export function sameObservation(a: { snap: Snapshot; intro?: Introspection }, b: { snap: Snapshot; intro?: Introspection }): { snap: boolean; intro: boolean } {
  const intro = (o: { intro?: Introspection }) => (o.intro ? canonicalIntrospection(o.intro) : undefined);
  return { snap: isDeepStrictEqual(canonicalSnapshot(a.snap), canonicalSnapshot(b.snap)), intro: isDeepStrictEqual(intro(a), intro(b)) };
}

export type ReadingValue<R extends ReadingName> = keyof (typeof READINGS)[R]['values'] & string;

export class Profile {
  readonly name: string;
  private readonly caps: Set<string>;
  private readonly declared: Record<string, string>;
  /** Values an undeclared reading was seen to take in this run, and the step that showed it. */
  private readonly shown = new Map<string, { value: string; why: string }>();

  constructor(d: Description) {
    this.name = d.name;
    this.caps = new Set(d.capabilities);
    this.declared = { ...((d.readings ?? {}) as Record<string, string>) };
  }

  static async of(impl: Implementation): Promise<Profile> {
    return new Profile(await impl.describe());
  }

  has(c: CapabilityName): boolean {
    return this.caps.has(c);
  }

  /** The value the implementation is held to: declared, or shown earlier in this run; undefined while open. */
  reading<R extends ReadingName>(name: R): ReadingValue<R> | undefined {
    return (this.declared[name] ?? this.shown.get(name)?.value) as ReadingValue<R> | undefined;
  }

  /** May the implementation behave as `value` of reading `name`? */
  allows<R extends ReadingName>(name: R, value: ReadingValue<R>): boolean {
    const v = this.reading(name);
    return v === undefined || v === value;
  }

  /**
   * The implementation was seen to take `value` (its behaviour fits that
   * value only). Returns why that is wrong, or undefined when it is allowed;
   * an undeclared reading is held to the value from then on.
   */
  took<R extends ReadingName>(name: R, value: ReadingValue<R>, why: string): string | undefined {
    const declared = this.declared[name];
    if (declared !== undefined) {
      return declared === value ? undefined : `${why}: that is reading ${name}=${value}, but ${this.name} declares ${name}=${declared} (${READINGS[name].ip})`;
    }
    const before = this.shown.get(name);
    if (before === undefined) {
      this.shown.set(name, { value, why });
      return undefined;
    }
    return before.value === value
      ? undefined
      : `${why}: that is reading ${name}=${value}, but earlier in this run ${before.why}, which is ${name}=${before.value}; an implementation takes one value (${READINGS[name].ip})`;
  }

  /** Why the implementation is held to a value of reading `name`, for messages; undefined while it is open. */
  heldBecause(name: ReadingName): string | undefined {
    const declared = this.declared[name];
    if (declared !== undefined) return `${this.name} declares ${name}=${declared} (${READINGS[name].ip})`;
    const shown = this.shown.get(name);
    return shown ? `${name} is undeclared, and earlier in this run ${shown.why}, which is ${name}=${shown.value}: an implementation takes one value (${READINGS[name].ip})` : undefined;
  }

  /** One line for the run's story. */
  describe(): string {
    const rs = Object.keys(READINGS).map((r) => `${r}=${this.declared[r] ?? '(undeclared)'}`);
    return `${this.name}; readings ${rs.join(', ')}; ${this.has('daemon-control') ? 'daemon control' : 'daemons act on their own'}`;
  }
}
