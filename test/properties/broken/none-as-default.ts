/** NONE is performed as DEFAULT: the owner's end unreserves instead of returning the nodes. */
import { recordAs } from './wrap';
export const createImplementation = () => recordAs(1, 3);
