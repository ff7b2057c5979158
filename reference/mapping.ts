/**
 * Mapping: which nodes a job's processes go to, within the sessions it may
 * use. Below spawn.ts (a spawn maps at once) and elastic.ts (a parked job
 * maps when it is admitted), so neither imports the other for it.
 */
import type { AppSpec } from '../seam/messages';
import { PMIX_NSPACE_INVALID } from '../seam/pmix';
import { Rejection } from './attributes';
import { refusal, usable, type State } from './state';

/** The nodes of one target session, without scanning any other session. */
function nodesOf(state: State, session: string): Iterable<string> {
  return session === PMIX_NSPACE_INVALID ? state.defaultPool : (state.allocations.get(session)?.nodes ?? []);
}

export type Placement = { app: number; rank: number; node: string }[];

/**
 * Map onto the usable nodes (wired daemons, in the DVM) of the union of the
 * target sessions. The specification governs which nodes a job may use, not
 * the layout: the default engine maps by slot with no oversubscription and
 * tool processes taking no slot; a variant may lay processes out another way
 * (reference/variant.ts). Throws a Rejection (or, with `orThrow` false,
 * returns null) when the job does not fit.
 */
export function map(state: State, apps: AppSpec[], targets: string[], orThrow: boolean): Placement | null {
  const v = state.variant;
  // The candidates (usable nodes of the target sessions), walked lazily in
  // session order: the default by-slot mapping stops at the first nodes with
  // room, so a spawn's cost does not grow with the size of its sessions.
  // Only the layouts that need the whole list (hosts, tool apps, variants)
  // materialise it.
  const isCandidate = (name: string) => {
    const node = state.nodes.get(name);
    return node !== undefined && usable(node) && targets.some((t) => (t === PMIX_NSPACE_INVALID ? state.defaultPool.has(name) : state.allocations.get(t)?.nodes.has(name) === true));
  };
  function* candidates(): Generator<string> {
    for (const t of targets) for (const n of nodesOf(state, t)) if (usable(state.nodes.get(n)!)) yield n;
  }
  const claimed = new Map<string, number>();
  const free = (name: string) => {
    const node = state.nodes.get(name)!;
    return node.slots - node.slotsInUse - (claimed.get(name) ?? 0);
  };
  const placement: Placement = [];
  let rank = 0;
  const place = (appIndex: number, node: string) => {
    claimed.set(node, (claimed.get(node) ?? 0) + 1);
    placement.push({ app: appIndex, rank: rank++, node });
  };
  try {
    apps.forEach((app, appIndex) => {
      const toolApp = app.tool === true && !v.toolProcsTakeSlots;
      const lazy = !(app.hosts && app.hosts.length > 0) && !toolApp && !v.oversubscribe && (v.mapping === undefined || v.mapping === 'by-slot');
      let left = app.np;
      if (lazy) {
        for (const name of candidates()) {
          while (left > 0 && free(name) > 0) {
            place(appIndex, name);
            left -= 1;
          }
          if (left === 0) break;
        }
        if (left > 0) throw new Rejection(refusal(state), `not enough free slots for app "${app.cmd}"`);
        return;
      }
      let pool: string[];
      if (app.hosts && app.hosts.length > 0) {
        const outside = app.hosts.filter((h) => !isCandidate(h));
        if (outside.length > 0) {
          throw new Rejection(refusal(state), `host(s) ${outside.join(', ')} are not in the sessions this job may use`);
        }
        pool = app.hosts;
      } else pool = [...new Set(candidates())];
      pool = ordered(state, pool);
      if (toolApp) {
        if (pool.length === 0) throw new Rejection(refusal(state), `no node for tool app "${app.cmd}"`);
        for (let i = 0; i < app.np; i++) placement.push({ app: appIndex, rank: rank++, node: pool[i % pool.length] });
        return;
      }
      if (v.mapping === 'by-node' || v.mapping === 'round-robin') {
        // One process per node with a free slot, round the list, until none has one.
        for (let placed = true; left > 0 && placed; ) {
          placed = false;
          for (const name of pool) {
            if (left === 0) break;
            if (free(name) > 0) {
              place(appIndex, name);
              left -= 1;
              placed = true;
            }
          }
        }
      } else {
        for (const name of pool) {
          while (left > 0 && free(name) > 0) {
            place(appIndex, name);
            left -= 1;
          }
          if (left === 0) break;
        }
      }
      // Oversubscription: past every slot, round the list again.
      for (let i = 0; left > 0 && v.oversubscribe && pool.length > 0; i++, left--) place(appIndex, pool[i % pool.length]);
      if (left > 0) throw new Rejection(refusal(state), `not enough free slots for app "${app.cmd}"`);
    });
  } catch (e) {
    if (!orThrow && e instanceof Rejection) return null;
    throw e;
  }
  return placement;
}

/** The candidate nodes in the order this engine's mapping walks them. */
function ordered(state: State, pool: string[]): string[] {
  switch (state.variant.mapping) {
    case 'reversed':
      return [...pool].reverse();
    case 'round-robin': {
      // Each job starts one node further on than the last.
      if (pool.length === 0) return pool;
      const k = state.counters.job % pool.length;
      return [...pool.slice(k), ...pool.slice(0, k)];
    }
    default:
      return pool;
  }
}

/** A tool app's processes take no slot in the default engine (ProcRec.tool); a variant counts them like any other. */
export const holdsNoSlot = (state: State, app: { tool?: boolean }): boolean => app.tool === true && !state.variant.toolProcsTakeSlots;
