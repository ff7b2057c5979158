/** The elastic property's failure story: each step in the suite's Gherkin phrasing, and the model's state, so a failing run reads as a scenario. */
import { describeStatus } from '../../seam/pmix';
import { Action, Run } from './elastic-run';

// ---------------------------------------------------------------- Gherkin

export function table(rows: [string, string][]): string[] {
  const w = Math.max(...rows.map(([k]) => k.length));
  const v = Math.max(...rows.map(([, x]) => x.length));
  return rows.map(([k, x]) => `      | ${k.padEnd(w)} | ${x.padEnd(v)} |`);
}

/** The step in the suite's phrasing (features/AUTHORING.md), to paste into a scenario. */
export function gherkin(run: Run, act: Action, newAlloc?: string): string[] {
  switch (act.a) {
    case 'grow': {
      const rows: [string, string][] = [];
      if (act.alloc) rows.push(['PMIX_ALLOC_ID', `allocation ${act.alloc.label}`]);
      if (act.list) rows.push(['PMIX_ALLOC_NODE_LIST', `"${act.list.join(',')}"`]);
      else rows.push(['PMIX_ALLOC_NUM_NODES', String(act.count)]);
      if (act.reqId) rows.push(['PMIX_ALLOC_REQ_ID', `"${act.reqId}"`]);
      if (act.share) rows.push(['PMIX_ALLOC_SHARE', 'true']);
      if (act.none) rows.push(['PMIX_ALLOC_INHERITANCE', 'PMIX_ALLOC_INHERIT_NONE']);
      const head = act.directive === 'NEW' ? `PMIX_ALLOC_NEW for allocation "${newAlloc ?? '?'}"` : 'PMIX_ALLOC_EXTEND';
      return [`    When ${run.who(act.by)} requests ${head} with:`, ...table(rows)];
    }
    case 'release': {
      const rows: [string, string][] = [];
      if (act.withId) rows.push(['PMIX_ALLOC_ID', `allocation ${act.alloc.label}`]);
      if (act.nodes) rows.push(['PMIX_ALLOC_NODE_LIST', `"${act.nodes.join(',')}"`]);
      if (act.reqId) rows.push(['PMIX_ALLOC_REQ_ID', `"${act.reqId}"`]);
      return [`    When ${run.who(act.by)} requests PMIX_ALLOC_RELEASE with:`, ...table(rows)];
    }
    case 'reclaim':
      return [`    When the scheduler reclaims allocation "${act.alloc.label}"`];
    case 'push':
      return [`    When the scheduler pushes node(s) "${act.nodes.join(',')}" into the DVM`];
    case 'daemon': {
      const cause = act.cause !== undefined ? ` with ${describeStatus(act.cause).split(' ')[0]}` : '';
      const verb = { report: 'reports in', exit: 'exits', crash: `crashes${cause}`, 'fail-to-start': `fails to start${cause}`, wireup: '' }[act.event];
      return [`    When the daemon on node "${act.node}" ${verb}`];
    }
    case 'wireup':
      return ['    When the head node sends the wireup to the daemons that reported in'];
    case 'spawn': {
      const held = act.hold === 'map' ? ', held before the map-eligible boundary' : act.hold === 'launch' ? ', held before the launch boundary' : '';
      const head = `    When ${run.who(act.by)} spawns job "${newAlloc ?? '?'}" with ${act.np} process${act.np > 1 ? 'es' : ''}${held}`;
      return act.into ? [`${head} and:`, ...table([['PMIX_SPAWN_TARGET', `allocation ${act.into.label}`]])] : [head];
    }
    case 'advance':
      return [
        `    When job "${act.job.label}" is moved on to the ${act.to === 'map' ? 'map-eligible' : 'launch'} boundary${act.holdBeforeLaunch ? ', and held again before the launch boundary' : ''}`,
      ];
    case 'terminate':
      return [`    When job "${act.job.label}" terminates`];
    case 'watch':
      return ['    # (the daemons act on their own: the run only looks)'];
  }
}

export function stateLine(run: Run): string {
  const m = run.model;
  const camps = [...m.campaigns.values()].map((c) => `${c.label} ${c.kind} [${c.targets.map((t) => (c.pending.has(t) ? t : `${t}✓`)).join(',')}]${c.request ? ` for ${c.request.label}` : ''}`);
  const parts = [`fence ${m.fence()}`];
  if (camps.length > 0) parts.push(`campaigns: ${camps.join('; ')}`);
  const lab = (xs: string[]) => xs.map((x) => m.jobs.get(x)!.label).join(',');
  if (m.parkedAtMap.length > 0) parts.push(`parked at map: ${lab(m.parkedAtMap)}`);
  if (m.parkedAtLaunch.length > 0) parts.push(`parked at launch: ${lab(m.parkedAtLaunch)}`);
  return `      # ${parts.join(' | ')}`;
}
