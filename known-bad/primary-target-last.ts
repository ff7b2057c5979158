/**
 * Makes the last valid PMIX_SPAWN_TARGET entry the job's primary session.
 * Once listed as a freedom (the authoritative specification does not say
 * which target is primary), but the plan (000, ranked next) says it is the
 * first valid entry, and nothing above it disagrees: see IP-PRIMARY-TARGET.
 */
import { createImplementation as reference } from '../reference/adapter';
import type { KnownBad } from './wrap';

export const knownBad: KnownBad = { breaks: 'PL.spawn.primary-first-valid', what: 'the last valid PMIX_SPAWN_TARGET entry becomes the primary session' };

export const createImplementation = () => reference({ primaryTarget: 'last' }, 'known-bad: primary-target-last');
