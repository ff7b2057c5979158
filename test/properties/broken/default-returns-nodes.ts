/** DEFAULT is performed as NONE: nodes go back to the scheduler at the owner's end (introspection still says DEFAULT). */
import { recordAs } from './wrap';
export const createImplementation = () => recordAs(3, 1);
