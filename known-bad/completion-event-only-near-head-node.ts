/** A completion event to a requester that is a process of a job running off the head node is lost: only tools and processes on the head node hear of their size changes. */
import { Status } from '../seam/pmix';
import { wrapHeadNodeLocal, type KnownBad } from './wrap';

export const knownBad: KnownBad = {
  breaks: 'ED.deliver.exactly-one',
  what: 'the completion event never reaches a requesting job process on a node other than the head node',
};

export const createImplementation = wrapHeadNodeLocal([Status.PMIX_DVM_IS_READY, Status.PMIX_ERR_DVM_MOD]);
