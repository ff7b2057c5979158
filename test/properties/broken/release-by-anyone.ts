/** Any process may release any reservation: the ownership check on PMIX_ALLOC_RELEASE is missing. */
import { wrap } from './wrap';
export const createImplementation = () =>
  wrap(({ base, scheduler }) => ({
    allocate: (req) => base.allocate(req.directive === 3 ? { ...req, requester: scheduler() } : req),
  }));
