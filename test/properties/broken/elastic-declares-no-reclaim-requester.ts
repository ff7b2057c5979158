/**
 * A reclaim's shrink tells the scheduler when it completes (as
 * known-good/reclaim-requested-by-scheduler does), but the implementation
 * declares reclaim-requester=none.
 */
import { declaring } from './declared';
export const createImplementation = () => declaring({ reclaimRequester: 'scheduler' }, { 'reclaim-requester': 'none' }, 'elastic-declares-no-reclaim-requester');
