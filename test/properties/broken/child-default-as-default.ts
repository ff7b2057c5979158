/** CHILD_DEFAULT is performed as DEFAULT: unreserved at the owner's end even while derived children run. */
import { recordAs } from './wrap';
export const createImplementation = () => recordAs(4, 3);
