/**
 * Ignores PMIX_ALLOC_INHERITANCE on an EXTEND: the disposition selected at
 * creation stays. The authoritative specification says both "selected at
 * creation" and "honored on NEW and EXTEND"; the plan (000, ranked next)
 * settles it — the EXTEND's value replaces the recorded one — and nothing
 * above it disagrees: see IP-EXTEND-INHERITANCE.
 */
import { createImplementation as reference } from '../reference/adapter';
import type { KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'PL.extend.inheritance-replaces', what: 'an EXTEND\'s PMIX_ALLOC_INHERITANCE leaves the disposition selected at creation' };

export const createImplementation = () => reference({ extendInheritance: 'keep' }, 'known-bad: extend-keeps-inheritance');
