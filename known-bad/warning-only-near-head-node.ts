/** A relayed timeout warning to a requester that is a process of a job running off the head node is lost: only tools and processes on the head node are warned. */
import { Status } from '../seam/pmix';
import { wrapHeadNodeLocal, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'NR.warn.directed',
  what: 'the timeout warning never reaches a requesting job process on a node other than the head node',
};

export const createImplementation = wrapHeadNodeLocal([Status.PMIX_ALLOC_TIMEOUT_WARNING]);
