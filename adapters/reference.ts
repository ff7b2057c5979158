/**
 * The built-in implementation the suite runs against by default: the
 * reference engine (reference/adapter.ts), every request checked first
 * against the wire protocol's schemas (protocol/validated.ts), exactly as a
 * request over the wire would be.
 */
import type { Implementation } from '../seam/implementation';
import { createImplementation as engine } from '../reference/adapter';
import { validated } from '../protocol/validated';

export function createImplementation(): Implementation {
  return validated(engine());
}
