/**
 * The simulated scheduler: it grants nodes for PMIX_ALLOC_NEW / EXTEND by
 * name (PMIX_ALLOC_NODE_LIST) or by count (PMIX_ALLOC_NUM_NODES), in a fixed
 * order, and says no when it cannot. It decides only which physical nodes;
 * which session they join is the runtime's decision (allocation.ts).
 */
import { Status } from '../seam/pmix';
import { Rejection } from './attributes';
import { refusal, type State } from './state';

export interface Grant {
  /** Nodes not yet in the DVM: they join it. */
  fromScheduler: string[];
  /** Startup-pool nodes in the default session that the request named: carved out of it. */
  carved: string[];
}

/** Thrown when a required resource cannot be granted now; the caller refuses or queues. */
export class Shortfall extends Rejection {
  constructor(status: number, message: string) {
    super(status, message);
  }
}

/**
 * Decide a grant without changing anything; the caller commits it only once
 * every other check has passed, so a refused request has no partial effect.
 * A required attribute (PMIX_INFO_REQD) the scheduler cannot satisfy fails
 * the request; an optional one is provisional: the scheduler grants what it
 * can of it (RFC "APIs for Flexible Allocation Support").
 */
export function planGrant(
  state: State,
  nodeList: string | undefined,
  numNodes: number | undefined,
  required: { nodeList: boolean; numNodes: boolean } = { nodeList: false, numNodes: false },
): Grant {
  const grant: Grant = { fromScheduler: [], carved: [] };
  if (nodeList !== undefined) {
    const names = nodeList.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    if (names.length === 0 || new Set(names).size !== names.length) {
      throw new Rejection(Status.PMIX_ERR_BAD_PARAM, `PMIX_ALLOC_NODE_LIST "${nodeList}" names no node, or a node twice`);
    }
    for (const name of names) {
      const node = state.nodes.get(name);
      if (node && state.schedulerFree.has(name)) grant.fromScheduler.push(name);
      else if (node && node.inDvm && node.allocId === null && state.defaultPool.has(name)) grant.carved.push(name);
      else if (required.nodeList) {
        throw new Shortfall(refusal(state), `the scheduler cannot grant node "${name}": ${node ? 'it is already allocated' : 'no such node'}`);
      }
    }
    return grant;
  }
  if (numNodes !== undefined && numNodes > 0) {
    if (state.schedulerFree.size < numNodes && required.numNodes) {
      throw new Shortfall(refusal(state), `the scheduler cannot grant ${numNodes} nodes: ${state.schedulerFree.size} available`);
    }
    for (const name of state.schedulerFree) {
      if (grant.fromScheduler.length === numNodes) break;
      grant.fromScheduler.push(name);
    }
  }
  return grant;
}
