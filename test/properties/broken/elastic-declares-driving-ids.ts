/**
 * Completion events carry the creating request's PMIX_ALLOC_REQ_ID (as
 * known-good/completion-carries-creation-req-id does), but the
 * implementation declares completion-request-id=driving.
 */
import { declaring } from './declared';
export const createImplementation = () => declaring({ completionRequestId: 'creation' }, { 'completion-request-id': 'driving' }, 'elastic-declares-driving-ids');
