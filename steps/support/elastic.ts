/**
 * What the elastic DVM's step files share: the per-scenario memory (the
 * event mark, first mappings, last departures, campaign ids) and how a step
 * looks at and describes the DVM's nodes.
 */
import type { DaemonEvent, NodeView } from '../../seam/messages';
import type { ConformanceWorld } from './world';

/** What the elastic steps remember about one scenario. */
export interface ElasticScenario {
  /** Completion events with a seq above this were delivered after the scenario's setup (see "have joined the DVM"). */
  mark: number;
  /** The mapping a job had when it was first seen mapped: rank -> node. */
  mappings: Map<string, Map<number, string>>;
  /** The last departure event driven for each node, to repeat it. */
  departures: Map<string, DaemonEvent>;
  /** Campaign ids the introspection showed, by the sorted target list they were first seen with. */
  campaigns: Map<string, number>;
}

const scenarios = new WeakMap<ConformanceWorld, ElasticScenario>();

export function elasticScenario(world: ConformanceWorld): ElasticScenario {
  let s = scenarios.get(world);
  if (!s) scenarios.set(world, (s = { mark: 0, mappings: new Map(), departures: new Map(), campaigns: new Map() }));
  return s;
}

/** Node lists compare as sets: the same names in any order give the same key. */
export const nodesKey = (names: string[]) => [...names].sort().join(',');

/** The key a campaign is remembered under: its kind and its targets. */
export const campaignKey = (kind: 'grow' | 'shrink', targets: string[]) => `${kind}:${nodesKey(targets)}`;

/** The campaign id the introspection showed for these targets (see elastic-internals.steps.ts). */
export function campaignId(world: ConformanceWorld, kind: 'grow' | 'shrink', targets: string[]): number | undefined {
  return elasticScenario(world).campaigns.get(campaignKey(kind, targets));
}

/** What these nodes look like now, by name; a node not in the DVM is absent. */
export async function nodeViews(world: ConformanceWorld, names: string[]): Promise<Map<string, NodeView>> {
  await world.ready();
  const snap = await world.snapshot({ nodes: names });
  return new Map(snap.nodes.map((n) => [n.name, n]));
}

export const describeNode = (name: string, v: NodeView | undefined) => (v ? `node ${name}: daemon ${v.daemon}, ${v.slotsInUse}/${v.slots} slots in use` : `node ${name} is not in the DVM`);
