/**
 * What the reference engine's unit tests build on: a small cluster, the
 * allocation id an answer carries, and a node grown into an elastic DVM.
 */
import assert from 'node:assert/strict';
import type { Engine } from '../../../reference/engine';
import type { EngineConfig } from '../../../reference/state';
import type { Info, ProcId } from '../../../seam/messages';
import { Directive, Key, Status } from '../../../seam/pmix';

export interface ClusterShape {
  /** Startup nodes n1, n2, ... (default 1). */
  startupNodes?: number;
  /** Slots on each startup node (default 2). */
  startupSlots?: number;
  /** Nodes the scheduler can grant, s1, s2, ..., 2 slots each (default 2). */
  schedulerNodes?: number;
  elastic?: boolean;
  scheduler?: EngineConfig['scheduler'];
}

/** The cluster most tests need, spelt out only where it differs. */
export function cluster(shape: ClusterShape = {}): EngineConfig {
  const named = (prefix: string, count: number, slots: number) => Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i + 1}`, slots }));
  return {
    startupNodes: named('n', shape.startupNodes ?? 1, shape.startupSlots ?? 2),
    schedulerNodes: named('s', shape.schedulerNodes ?? 2, 2),
    withoutKeys: [],
    elastic: shape.elastic ?? false,
    // Absent, not undefined: the engine's defaults apply.
    ...(shape.scheduler ? { scheduler: shape.scheduler } : {}),
  };
}

/** The PMIX_ALLOC_ID an answer or event carries; a missing one fails the test. */
export const idOf = (info: Info[]) => info.find((i) => i.key === Key.PMIX_ALLOC_ID)!.value as string;

/** A new reservation of the node, its daemon reported in and wired (elastic mode): its allocation id. */
export function grown(e: Engine, who: ProcId, node: string, extra: Info[] = []): string {
  const r = e.allocate({ requester: who, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: node }, ...extra] });
  assert.equal(r.status, Status.PMIX_SUCCESS);
  assert.equal(e.daemon({ event: 'report', node }).status, Status.PMIX_SUCCESS);
  assert.equal(e.daemon({ event: 'wireup' }).status, Status.PMIX_SUCCESS);
  return idOf(r.info);
}
