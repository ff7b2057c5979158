/**
 * Declares session-id-in-response=omitted (its responses carry no
 * PMIX_SESSION_ID, which is allowed) and lets any job spawn onto a
 * reservation named by PMIX_SESSION_ID: a non-owner that guesses the number
 * gets the owner's nodes. The scenarios that spawn by PMIX_SESSION_ID need
 * the number from the response, so an implementation declaring "omitted"
 * skipped every one of them, this ownership check included.
 */
import type { Implementation } from '../seam/implementation';
import type { SpawnRequest } from '../seam/messages';
import { createImplementation as reference } from '../reference/adapter';
import { Key } from '../seam/pmix';
import { infoValue, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'NR.own.spawn-check',
  what: 'declares session-id-in-response=omitted; a spawn naming a reservation by PMIX_SESSION_ID skips the ownership check',
};

export function createImplementation(): Implementation {
  const inner = reference({ sessionIdInResponse: false }, 'known-bad: the reference engine with one rule broken');
  return {
    ...inner,
    spawn: async (req: SpawnRequest) => {
      const session = infoValue(req.info, Key.PMIX_SESSION_ID);
      if (typeof session !== 'number' || infoValue(req.info, Key.PMIX_SPAWN_TARGET) !== undefined) return inner.spawn(req);
      // The reservation the number names (the engine's ids end in ".<session id>"), asked for as its owner would.
      const { allocations } = await inner.inspect!();
      const named = allocations.find((a) => a.allocId.endsWith(`.${session}`));
      if (!named || named.owners.includes(req.requester.nspace)) return inner.spawn(req);
      return inner.spawn({ ...req, requester: { nspace: named.owner, rank: 0 } });
    },
  };
}
