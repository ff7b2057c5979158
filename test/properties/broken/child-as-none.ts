/** CHILD is performed as NONE: the reservation is returned at the owner's end even while derived children run. */
import { recordAs } from './wrap';
export const createImplementation = () => recordAs(2, 1);
