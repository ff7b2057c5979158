/**
 * Steps for implementations with introspection (@needs:elastic-internals):
 * the launch fence, the grow and shrink campaigns in progress, and the jobs
 * parked at the map-eligible and launch boundaries.
 */
import { type DataTable } from '@cucumber/cucumber';
import { Then } from './support/claims';
import type { CampaignView, ElasticView } from '../seam/messages';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';
import { campaignId, campaignKey, elasticScenario, nodesKey } from './support/elastic';

async function elasticView(world: ConformanceWorld): Promise<ElasticView> {
  if (!world.has('elastic-internals')) throw new Error('this step needs the elastic-internals capability (tag the scenario @needs:elastic-internals)');
  const { introspection } = await world.observe();
  if (!introspection) throw new Error('the implementation declares elastic-internals but has no inspect()');
  // Outside elastic mode there may be no elastic bookkeeping at all: nothing raised, nothing parked.
  const view = introspection.elastic ?? { fence: 0, campaigns: [], parkedAtMap: [], parkedAtLaunch: [], shrinkOffers: [] };
  const seen = elasticScenario(world).campaigns;
  for (const c of view.campaigns) if (!seen.has(campaignKey(c.kind, c.targets))) seen.set(campaignKey(c.kind, c.targets), c.id);
  return view;
}

const describeCampaigns = (v: ElasticView) =>
  v.campaigns.map((c) => `${c.kind} #${c.id} targets [${c.targets.join(', ')}] pending [${c.pending.join(', ')}]`).join('; ') || 'no campaign';

Then('the launch fence is {int}', async function (this: ConformanceWorld, n: number) {
  const v = await elasticView(this);
  if (v.fence !== n) this.fail(`launch fence ${n}`, `fence ${v.fence}; ${describeCampaigns(v)}`);
});

/**
 * The plans' fence accounting, spelt out: the fence is the sum of what each
 * size change in progress still counts, a grow its whole set of targets
 * until it is drained, a shrink its targets not yet departed. The table
 * lists every size change in progress:
 *   | size change             | nodes counted |
 *   | shrink of nodes "s2,s3" | s3            |
 */
Then('the launch fence is {int}, counting:', async function (this: ConformanceWorld, n: number, table: DataTable) {
  const rows = table.hashes().map((r) => {
    const m = /^(grow|shrink) of nodes? "([^"]+)"$/.exec(r['size change'] ?? '');
    if (!m) throw new Error(`"${r['size change']}": a size change is written 'grow of nodes "s1,s2"' or 'shrink of node "s3"'`);
    return { kind: m[1] as 'grow' | 'shrink', targets: splitNames(m[2]), counted: splitNames(r['nodes counted'] ?? '') };
  });
  const total = rows.reduce((sum, r) => sum + r.counted.length, 0);
  if (total !== n) throw new Error(`the table counts ${total} nodes, not ${n}`);
  const v = await elasticView(this);
  for (const r of rows) {
    const c = findCampaign(this, v, r.kind, r.targets);
    const counted = c && (c.kind === 'grow' ? c.targets : c.pending);
    if (!counted || nodesKey(counted) !== nodesKey(r.counted)) this.fail(`the ${r.kind} campaign of ${r.targets.join(',')} in progress, counting ${r.counted.join(', ')} in the fence`, describeCampaigns(v));
  }
  if (v.campaigns.length !== rows.length) this.fail(`exactly the size changes the table lists in progress (${rows.length})`, describeCampaigns(v));
  if (v.fence !== n) this.fail(`launch fence ${n} (grow targets + shrink targets not yet departed)`, `fence ${v.fence}; ${describeCampaigns(v)}`);
});

Then('no size change is in progress', async function (this: ConformanceWorld) {
  const v = await elasticView(this);
  if (v.campaigns.length > 0 || v.fence !== 0) this.fail('no grow or shrink campaign in progress, launch fence 0', `fence ${v.fence}; ${describeCampaigns(v)}`);
});

function findCampaign(world: ConformanceWorld, v: ElasticView, kind: 'grow' | 'shrink', targets: string[]): CampaignView | undefined {
  const id = campaignId(world, kind, targets);
  return v.campaigns.find((c) => c.id === id) ?? v.campaigns.find((c) => c.kind === kind && nodesKey(c.targets) === nodesKey(targets));
}

for (const kind of ['grow', 'shrink'] as const) {
  Then(`exactly one ${kind} campaign is in progress, targeting node(s) {string}`, async function (this: ConformanceWorld, names: string) {
    const v = await elasticView(this);
    const mine = v.campaigns.filter((c) => c.kind === kind);
    if (mine.length !== 1 || nodesKey(mine[0].targets) !== nodesKey(splitNames(names))) {
      this.fail(`exactly one ${kind} campaign, targeting ${names}`, describeCampaigns(v));
    }
  });

  Then(`the ${kind} campaign of node(s) {string} still waits for node(s) {string}`, async function (this: ConformanceWorld, targets: string, pending: string) {
    const v = await elasticView(this);
    const c = findCampaign(this, v, kind, splitNames(targets));
    if (!c || nodesKey(c.pending) !== nodesKey(splitNames(pending))) {
      this.fail(`the ${kind} campaign of ${targets} in progress, its targets unchanged, still waiting for ${pending}`, describeCampaigns(v));
    }
  });

  Then(`the ${kind} campaign of node(s) {string} is over`, async function (this: ConformanceWorld, targets: string) {
    const v = await elasticView(this);
    const id = campaignId(this, kind, splitNames(targets));
    if (id === undefined) throw new Error(`the ${kind} campaign of ${targets} was never seen in progress (check it with "exactly one ${kind} campaign is in progress, …" first)`);
    if (v.campaigns.some((c) => c.id === id)) this.fail(`the ${kind} campaign of ${targets} removed`, describeCampaigns(v));
  });
}

for (const [words, list] of [
  ['map-eligible', 'parkedAtMap'],
  ['launch', 'parkedAtLaunch'],
] as const) {
  Then(`job {string} is held at the ${words} boundary`, async function (this: ConformanceWorld, alias: string) {
    const v = await elasticView(this);
    const ns = this.jobNspace(alias);
    const other = list === 'parkedAtMap' ? v.parkedAtLaunch : v.parkedAtMap;
    if (!v[list].includes(ns) || other.includes(ns)) {
      this.fail(`job ${alias} held at the ${words} boundary only`, `parked at map: [${v.parkedAtMap.map((x) => this.nameOf(x)).join(', ')}]; at launch: [${v.parkedAtLaunch.map((x) => this.nameOf(x)).join(', ')}]`);
    }
  });
}

Then('no job is held at either boundary', async function (this: ConformanceWorld) {
  const v = await elasticView(this);
  if (v.parkedAtMap.length > 0 || v.parkedAtLaunch.length > 0) {
    this.fail('no parked job', `parked at map: [${v.parkedAtMap.map((x) => this.nameOf(x)).join(', ')}]; at launch: [${v.parkedAtLaunch.map((x) => this.nameOf(x)).join(', ')}]`);
  }
});

/** Exported for the event steps, which check the shrink offers it records. */
export { elasticView as readElasticView };
