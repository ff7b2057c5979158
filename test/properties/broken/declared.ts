/**
 * Helpers for variants that declare a reading they do not take: the
 * reference engine with one variation point set (the behaviour of a
 * known-good), introducing itself with other readings. The property must
 * hold an implementation to what it declares (../profile.ts), so each such
 * variant must fail it, while the known-good it copies passes.
 */
import type { Implementation } from '../../../seam/implementation';
import type { Readings } from '../../../seam/readings';
import { createImplementation as reference } from '../../../reference/adapter';
import type { EngineVariant } from '../../../reference/variant';

/** The engine taking `variant`, declaring `readings` over its own (undefined: that reading undeclared). */
export function declaring(variant: EngineVariant, readings: Partial<Record<keyof Readings, string | undefined>>, name: string): Implementation {
  const impl = reference(variant, `broken: ${name}`);
  // As ./wrap.ts: with PMIX_BROKEN_NO_INSPECT=1 the property must tell from what a client observes alone.
  const inspect = process.env.PMIX_BROKEN_NO_INSPECT === '1' ? {} : { inspect: impl.inspect };
  const { inspect: _, ...rest } = impl;
  return {
    ...rest,
    ...inspect,
    describe: async () => {
      const d = await impl.describe();
      const merged: Record<string, string | undefined> = { ...(d.readings ?? {}), ...readings };
      for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
      return { ...d, readings: merged as Readings };
    },
  };
}
