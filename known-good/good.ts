/**
 * Known-good implementations: the mirror image of known-bad/. Each is the
 * reference engine taking one freedom the specification leaves an
 * implementation (reference/variant.ts), or answering in a way the
 * specification allows but the default engine does not use. The self-test
 * (tools/self-test.ts) runs the whole suite against each and fails unless
 * every scenario it runs passes: a scenario that fails one of these asserts
 * more than the specification says.
 */
import type { Implementation } from '../seam/implementation';
import { createImplementation as reference } from '../reference/adapter';
import type { EngineVariant } from '../reference/variant';

export interface KnownGood {
  /** One line: the freedom it takes. */
  freedom: string;
  /** The document and the sentence that permit it (or the silence it relies on). */
  permittedBy: string;
}

/** The reference engine with one variation point set, introducing itself by its own name. */
export const engineWith =
  (variant: EngineVariant, name: string): (() => Implementation) =>
  () =>
    reference(variant, `reference engine, known-good variant "${name}"`);
