/** The elastic property's checks: each observation against what the model and the declared readings allow, and at the end of a run the whole event log (checkTally). */
import { isDeepStrictEqual } from 'node:util';
import type { EventView, Info, JobView, Snapshot } from '../../seam/messages';
import { Key, Status, describeStatus } from '../../seam/pmix';
import { type CampaignModel, type ExpectedEvent, type JobModel, type RequestModel } from './elastic-oracle';
import { Observation, Run, STATUS_NAME, TERMINAL, fail, infoValue, stats } from './elastic-run';

// ---------------------------------------------------------------- checks

/** Free slots on ready nodes available to any of `sessions`. */
export function freeSlots(snap: Snapshot, sessions: string[]): number {
  let n = 0;
  for (const node of snap.nodes) if (node.daemon === 'ready' && sessions.includes(node.availableTo)) n += Math.max(0, node.slots - node.slotsInUse);
  return n;
}

export const procKey = (ps: { rank: number; node: string }[]) =>
  ps
    .map((p) => `${p.rank}@${p.node}`)
    .sort()
    .join(',');

/** The ids an event carries for the requester to match; anything else in its info is the implementation's (a failure's cause goes under a key of its choosing). */
export const ID_KEYS: readonly string[] = [Key.PMIX_ALLOC_ID, Key.PMIX_ALLOC_REQ_ID];

export function eventText(e: { code: number; to: string; allocId?: string; reqId?: string; extra?: Info[] }, run: Run): string {
  const extra = (e.extra ?? []).map((i) => `${i.key}=${typeof i.value === 'number' && i.value < 0 ? describeStatus(i.value) : JSON.stringify(i.value)}`);
  return `${STATUS_NAME[e.code] ?? describeStatus(e.code)} to ${run.label(e.to)} (PMIX_ALLOC_ID ${JSON.stringify(e.allocId ?? null)}${e.reqId !== undefined ? `, PMIX_ALLOC_REQ_ID "${e.reqId}"` : ''}${extra.length > 0 ? `, ${extra.join(', ')}` : ''})`;
}

/** What an expected event may carry, for messages. */
export function expectedText(x: ExpectedEvent, run: Run): string {
  const ids = x.reqIds.map((id) => (id === undefined ? 'no PMIX_ALLOC_REQ_ID' : `PMIX_ALLOC_REQ_ID "${id}"`));
  const cause = x.code === Status.PMIX_ERR_DVM_MOD && x.cause !== undefined ? `, cause ${describeStatus(x.cause)} under any key` : '';
  return `${STATUS_NAME[x.code] ?? describeStatus(x.code)} to ${run.label(x.to)} (PMIX_ALLOC_ID ${JSON.stringify(x.allocId)}, ${ids.length > 1 ? `one of ${ids.join(' or ')}` : ids[0]}${cause})`;
}

export function viewOf(e: EventView) {
  return {
    code: e.code,
    to: e.to.nspace,
    rank: e.to.rank,
    allocId: infoValue(e.info, Key.PMIX_ALLOC_ID) as string | undefined,
    reqId: infoValue(e.info, Key.PMIX_ALLOC_REQ_ID) as string | undefined,
    extra: e.info.filter((i) => !ID_KEYS.includes(i.key)),
  };
}

/**
 * Does the event carry the cause the expected PMIX_ERR_DVM_MOD names? The
 * elastic spec: the cause is "conveyed in the event's info array"; no key is
 * named, so any entry besides the two ids will do (as the Gherkin steps
 * check it). An expected cause left undefined: any, or none.
 */
export const carriesCause = (x: ExpectedEvent, e: ReturnType<typeof viewOf>) => x.code !== Status.PMIX_ERR_DVM_MOD || x.cause === undefined || e.extra.some((i) => i.value === x.cause);

/** (4) The step's completion events are exactly the predicted ones. */
export function checkEvents(run: Run, fresh: EventView[], expected: ExpectedEvent[]): void {
  const left = [...expected];
  const matched: ExpectedEvent[] = [];
  const took = (err: string | undefined) => {
    if (err !== undefined) fail(`(4) ${err}`);
  };
  for (const raw of fresh) {
    if (!TERMINAL.includes(raw.code)) continue;
    const e = viewOf(raw);
    stats.events += 1;
    if (e.allocId === undefined) fail(`(4) ${eventText(e, run)} carries no PMIX_ALLOC_ID`);
    const i = left.findIndex((x) => x.code === e.code && x.to === e.to && x.allocId === e.allocId && x.reqIds.includes(e.reqId) && carriesCause(x, e));
    if (i < 0) {
      const near = expected.find((x) => x.to === e.to && x.reqIds.includes(e.reqId) && x.allocId === e.allocId);
      const owed = run.model.requests.find((r) => r.reqId !== undefined && r.reqId === e.reqId);
      let why = 'nothing in this step ends a size change with a requester to tell';
      if (e.to === run.model.scheduler && run.profile.reading('reclaim-requester') === 'none') why += ` (a reclaim's shrink has no requester: ${run.profile.heldBecause('reclaim-requester')})`;
      const twice = matched.find((x) => x.code === e.code && x.to === e.to && x.allocId === e.allocId && x.reqIds.includes(e.reqId));
      const sameButIds = expected.find((x) => x.code === e.code && x.to === e.to && x.allocId === e.allocId);
      const open = run.model.requests.find((r) => r.accepted && r.requester === e.to && r.allocId === e.allocId && r.campaign && !r.outcome && (e.reqId === undefined || r.reqId === e.reqId));
      if (twice) why = `it repeats the event that already answered ${twice.request.label}: exactly one terminal event per request`;
      else if (near) why = `the step ends ${near.request.label} with ${expectedText(near, run)}`;
      else if (sameButIds) {
        const held = sameButIds.ids.driving !== sameButIds.ids.creation ? run.profile.heldBecause('completion-request-id') : undefined;
        why = `the step ends ${sameButIds.request.label}, whose event must be ${expectedText(sameButIds, run)} (${held ?? 'PMIX_ALLOC_REQ_ID whenever the request supplied one'})`;
      }
      else if (open) why = `${open.label}'s campaign is still in progress (${campaignText(open)})`;
      else if (owed && !owed.accepted) why = `${owed.label} was rejected: a rejected request gets no event`;
      else if (owed && !owed.campaign) why = `${owed.label} added or removed no daemon: no campaign, no event`;
      else if (owed && owed.outcome && owed.outcome.step < run.model.step) why = `${owed.label} already ended at step ${owed.outcome.step}: exactly one terminal event per request`;
      else if (owed && !owed.outcome) why = `${owed.label}'s campaign is still in progress (${campaignText(owed)})`;
      fail(`(4) unexpected ${eventText(e, run)}: ${why}`);
    }
    if (e.rank !== 0) fail(`(4) ${eventText(e, run)} went to rank ${e.rank}, not to the requesting process`);
    const x = left.splice(i, 1)[0];
    matched.push(x);
    x.request.delivered += 1;
    if (x.request.delivered > 1) fail(`(4) ${x.request.label} received ${x.request.delivered} terminal events`);
    // What the event showed of the readings the implementation left open (./profile.ts).
    if (x.ids.driving !== x.ids.creation) {
      const value = e.reqId === x.ids.driving ? 'driving' : 'creation';
      took(run.profile.took('completion-request-id', value, `${eventText(e, run)} answered ${x.request.label} with the id of the request that ${value === 'driving' ? 'drove the change' : 'created the allocation'}`));
    }
    if (x.request.maybe) took(run.profile.took('reclaim-requester', 'scheduler', `the scheduler received ${eventText(e, run)} for ${x.request.what}`));
  }
  for (const x of left) {
    if (x.request.maybe) took(run.profile.took('reclaim-requester', 'none', `no process was told when ${x.request.what} completed`));
    else if (!x.optional) fail(`(4) missing ${expectedText(x, run)}: ${x.request.label} (${x.request.what}) ended in this step`);
  }
}

export function campaignText(r: RequestModel): string {
  const c = r.campaign!;
  return `${c.label}: ${c.kind === 'grow' ? 'not yet reported' : 'not yet departed'} ${[...c.pending].join(',') || '(none; waits for the wireup)'}`;
}

/** (1) Nodes and daemons. */
export function checkNodes(run: Run, o: Observation): void {
  const m = run.model;
  const seen = new Map(o.snap.nodes.map((n) => [n.name, n]));
  if (seen.size !== o.snap.nodes.length) fail('(1) a node appears twice in the DVM');
  for (const n of m.nodes.values()) {
    const v = seen.get(n.name);
    if (n.inDvm && !v) {
      if (n.daemon === 'leaving') fail(`(1) node ${n.name} left the DVM, but its daemon has not departed (it is a target of ${m.campaigns.get(n.campaign!)!.label}; only its own exit or crash counts)`);
      if (n.daemon === 'joining') fail(`(1) node ${n.name} left the DVM while its grow ${m.campaigns.get(n.campaign!)!.label} is in progress and nothing failed it`);
      fail(`(1) node ${n.name} left the DVM, but nothing removed it`);
    }
    if (!n.inDvm && v) fail(`(1) node ${n.name} is in the DVM (${v.daemon}), but it should have left it (or never joined)`);
    if (!v || !n.inDvm) continue;
    if (v.daemon !== n.daemon) {
      const c = n.campaign !== undefined ? m.campaigns.get(n.campaign) : undefined;
      const why =
        n.daemon === 'joining'
          ? `its grow ${c!.label} is in progress (${c!.pending.size > 0 ? `not yet reported: ${[...c!.pending].join(',')}` : 'all reported, no wireup since'})`
          : n.daemon === 'leaving'
            ? `it is a target of ${c!.label} and has not departed`
            : 'it is wired and belongs to no campaign';
      fail(`(1) node ${n.name}: daemon is '${v.daemon}', expected '${n.daemon}' because ${why}`);
    }
    if (n.daemon !== 'leaving' && v.availableTo !== n.session) fail(`(1) node ${n.name} is available to '${v.availableTo}', expected '${n.session}'`);
  }
}

/** (2) Job states, and where the implementation placed what it placed in this step. */
export function checkJobs(run: Run, before: Observation, after: Observation): void {
  const m = run.model;
  const seen = new Map(after.snap.jobs.map((j) => [j.nspace, j]));
  // Jobs placed one after another in one step: a remap that fails gives back
  // the slots its old mapping held, possibly after an earlier job of the step
  // failed for want of them, so those slots do not count against the others.
  const failing = [...m.jobs.values()]
    .filter((j) => j.placement?.mayFail && seen.get(j.nspace)?.state === 'FAILED_TO_MAP')
    .map((j) => ({ j, held: j.placement!.kind === 'launch' ? j.procs.filter((p) => m.isReady(p.node)).length : 0 }));
  for (const j of m.jobs.values()) {
    const v = seen.get(j.nspace);
    if (!v) fail(`(2) job ${j.label} (${j.nspace}) is not visible`);
    if (v!.state === 'FAILED_TO_MAP' && j.placement?.mayFail) {
      const givenBack = failing.filter((x) => x.j !== j).reduce((n, x) => n + x.held, 0);
      const free = freeSlots(after.snap, j.sessions) - givenBack;
      if (free >= j.np) fail(`(2) job ${j.label} failed to map, yet its session(s) ${JSON.stringify(j.sessions)} have ${free} free slots on ready nodes for its ${j.np} processes`);
      m.failedToMap(j);
      continue;
    }
    if (v!.state !== j.state) {
      // Aborted by a grow whose failure, under the reading held, does not take it down (IP-READING-GROW-FAILURE-ABORTS).
      const held = v!.state === 'NEVER_LAUNCHED' && j.stage === 'parked-map' ? run.profile.heldBecause('grow-failure-aborts') : undefined;
      fail(`(2) job ${j.label} is ${v!.state}, expected ${j.state} (${jobWhy(run, j)}${held ? `; a failed grow aborts only the jobs that parked while it was in progress: ${held}` : ''})`);
    }
  }
  for (const j of m.jobs.values()) {
    if (!j.placement) continue;
    const v = seen.get(j.nspace)!;
    const pl = j.placement;
    if (v.procs.length !== j.np) fail(`(2) job ${j.label} has ${v.procs.length} processes, asked for ${j.np}`);
    if (pl.kind === 'launch' && pl.remap && procKey(v.procs) === procKey(j.procs)) {
      const stale = j.procs.filter((p) => !m.isReady(p.node)).map((p) => `rank ${p.rank} on ${p.node}`);
      fail(
        `(3) job ${j.label} was launched on its old mapping (${procKey(v.procs)}), but ${stale.join(', ')} sat on a node that has left the DVM: ` +
          'a job mapped onto a departing node must be remapped onto surviving ready nodes before it launches (ED.admit.hazard-departing, ED.conformance.3)',
      );
    }
    if (pl.kind === 'launch' && !pl.remap && procKey(v.procs) !== procKey(j.procs))
      fail(`(2) job ${j.label} was launched on ${procKey(v.procs)}, but its mapping ${procKey(j.procs)} had every node still ready: it must launch on its existing mapping`);
    for (const p of v.procs) {
      const node = after.snap.nodes.find((n) => n.name === p.node);
      if (!node || node.daemon !== 'ready')
        fail(`(3) job ${j.label} was ${pl.kind === 'map' ? 'mapped' : pl.remap ? 'remapped' : 'launched'} with rank ${p.rank} on ${p.node}, which is ${node ? node.daemon : 'not in the DVM'}: mapping never uses a node that is not ready`);
      if (pl.kind === 'map' || pl.remap) {
        if (!j.sessions.includes(node!.availableTo)) fail(`(2) job ${j.label} was mapped with rank ${p.rank} on ${p.node} (session '${node!.availableTo}'), outside its sessions ${JSON.stringify(j.sessions)}`);
      }
      if (j.state === 'RUNNING' && !p.running) fail(`(2) job ${j.label} is RUNNING but rank ${p.rank} was not started`);
    }
    m.placed(j, v.procs);
  }
  // Processes: the model knows where each running job runs, and which processes stopped.
  for (const j of m.jobs.values()) {
    const v = seen.get(j.nspace)!;
    const want = procKey(j.procs.filter((p) => p.running));
    const got = procKey(v.procs.filter((p) => p.running));
    if (want !== got) fail(`(2) job ${j.label} has running processes ${got || '(none)'}, expected ${want || '(none)'}${j.ended ? ` (${j.ended})` : ''}`);
  }
  checkHazards(run, before, after);
}

export function jobWhy(run: Run, j: JobModel): string {
  const m = run.model;
  const camps = [...m.campaigns.values()].map((c) => `${c.label} ${c.kind}`).join(', ') || 'none';
  switch (j.stage) {
    case 'parked-map':
      return `it reached the map-eligible boundary while a campaign was in progress; campaigns now: ${camps}`;
    case 'parked-launch':
      return `it reached the launch boundary while a shrink was in progress; campaigns now: ${camps}`;
    case 'held-map':
      return 'it is held before the map-eligible boundary';
    case 'held-launch':
      return 'it is mapped and held before the launch boundary';
    case 'running':
      return j.launchedAt === m.step ? `it was admitted in this step; campaigns now: ${camps}` : 'it runs';
    case 'done':
      return j.ended ?? 'it ended';
  }
}

/** (3) Hazards, from the observation alone (and the step each node started leaving). */
export function checkHazards(run: Run, before: Observation, after: Observation): void {
  const m = run.model;
  const was = new Map<string, JobView>(before.snap.jobs.map((j) => [j.nspace, j]));
  const nodes = new Map(after.snap.nodes.map((n) => [n.name, n]));
  for (const j of after.snap.jobs) {
    const admitted = j.state === 'RUNNING' && was.get(j.nspace)?.state !== 'RUNNING';
    const label = run.label(j.nspace);
    for (const p of j.procs) {
      if (!p.running) continue;
      const node = nodes.get(p.node);
      if (!node) fail(`(3) job ${label} has rank ${p.rank} running on ${p.node}, which is not in the DVM`);
      if (admitted && node!.daemon !== 'ready') fail(`(3) job ${label} was admitted to RUNNING in this step with rank ${p.rank} on ${p.node}, whose daemon is ${node!.daemon}`);
      if (node!.daemon === 'joining') fail(`(3) job ${label} has rank ${p.rank} running on ${p.node}, whose daemon is still joining (not wired)`);
      if (node!.daemon === 'leaving') {
        const since = m.node(p.node).leavingSince ?? m.step;
        const launched = m.jobs.get(j.nspace)?.launchedAt;
        if (launched === undefined || launched >= since) fail(`(3) job ${label} has rank ${p.rank} running on ${p.node}, which was already leaving (since step ${since}) when the job was launched (step ${launched})`);
      }
    }
  }
}

/** (5) Introspection, when offered. */
export function checkIntrospection(run: Run, o: Observation): void {
  const m = run.model;
  if (o.intro && run.profile.has('introspection')) {
    // Allocations: a failed grow's allocation lives on without the rolled-back nodes (IP-ELASTIC-ROLLBACK); a released node leaves its allocation at once.
    const shown = new Map(o.intro.allocations.map((a) => [a.allocId, a]));
    for (const a of m.liveAllocs()) {
      const v = shown.get(a.id);
      if (!v) fail(`(5) allocation ${a.label} (${a.id}) must still be live, but the implementation no longer lists it`);
      if ([...v!.nodes].sort().join(',') !== [...a.nodes].sort().join(','))
        fail(`(5) allocation ${a.label} holds ${JSON.stringify([...v!.nodes].sort())}, expected ${JSON.stringify([...a.nodes].sort())}`);
    }
    for (const id of shown.keys()) {
      const a = m.allocs.get(id);
      if (!a) fail(`(5) the implementation lists an allocation ${id} that no request created`);
      if (!a!.live) fail(`(5) allocation ${a!.label} has ended, but the implementation still lists it`);
    }
  }
  const ev = run.profile.has('elastic-internals') ? o.intro?.elastic : undefined;
  if (!ev) return;
  const sum = ev.campaigns.reduce((n, c) => n + (c.kind === 'grow' ? c.targets.length : c.pending.length), 0);
  if (ev.fence !== sum) fail(`(5) the fence is ${ev.fence}, but the grow targets plus the not-yet-departed shrink targets are ${sum} (${JSON.stringify(ev.campaigns)})`);
  if (ev.fence !== m.fence()) fail(`(5) the fence is ${ev.fence}, expected ${m.fence()}`);
  const key = (kind: string, targets: Iterable<string>) => `${kind}:${[...targets].sort().join(',')}`;
  const want = new Map([...m.campaigns.values()].map((c) => [key(c.kind, c.targets), c]));
  const got = new Map(ev.campaigns.map((c) => [key(c.kind, c.targets), c]));
  for (const [k, c] of want) {
    const v = got.get(k);
    if (!v) fail(`(5) campaign ${c.label} (${k}) is in progress, but the implementation lists ${JSON.stringify([...got.keys()])}`);
    if (run.autonomous && c.kind === 'grow') {
      // Daemons acting on their own report in unseen: a grow's pending daemons are some of those the model has not seen ready.
      if (v!.pending.some((t) => !c.pending.has(t))) fail(`(5) ${c.label}: pending ${JSON.stringify(v!.pending)}, but only ${JSON.stringify([...c.pending])} may still be`);
    } else if ([...v!.pending].sort().join(',') !== [...c.pending].sort().join(',')) fail(`(5) ${c.label}: pending ${JSON.stringify(v!.pending)}, expected ${JSON.stringify([...c.pending])}`);
    // A reclaim's requester, while reading reclaim-requester is open, may be the scheduler or no one.
    const requesters = c.request?.maybe ? [null, c.request.requester] : [c.request?.requester ?? null];
    if (!requesters.includes(v!.requester?.nspace ?? null)) fail(`(5) ${c.label}: requester ${v!.requester?.nspace}, expected ${c.request && !c.request.maybe ? run.label(c.request.requester) : c.request ? 'the scheduler or none' : 'none'}`);
    if (c.request && v!.requester) {
      // Bookkeeping (elastic-internals): the campaign records the request id of the request that drove it, or
      // of the one that created the allocation, whichever its event is to carry (reading completion-request-id).
      const creation = c.request.allocId !== undefined ? m.allocs.get(c.request.allocId)?.creationReqId : undefined;
      const ids = [c.request.reqId, creation];
      if (!ids.includes(v!.reqId ?? undefined)) fail(`(5) ${c.label}: PMIX_ALLOC_REQ_ID ${v!.reqId}, expected ${ids.map((x) => x ?? 'none').join(' or ')}`);
      if ((v!.allocId ?? '') !== (c.request.allocId ?? '')) fail(`(5) ${c.label}: PMIX_ALLOC_ID ${v!.allocId}, expected ${c.request.allocId}`);
    }
  }
  for (const k of got.keys()) if (!want.has(k)) fail(`(5) the implementation still has campaign ${k} in progress; the model has ${JSON.stringify([...want.keys()])}`);
  const labels = (xs: string[]) => xs.map((x) => run.label(x)).sort();
  if (!isDeepStrictEqual(labels(ev.parkedAtMap), labels(m.parkedAtMap))) fail(`(5) parked at the map-eligible boundary: ${labels(ev.parkedAtMap)}, expected ${labels(m.parkedAtMap)}`);
  if (!isDeepStrictEqual(labels(ev.parkedAtLaunch), labels(m.parkedAtLaunch))) fail(`(5) parked at the launch boundary: ${labels(ev.parkedAtLaunch)}, expected ${labels(m.parkedAtLaunch)}`);
  if (ev.parkedAtLaunch.length > 0 && !ev.campaigns.some((c) => c.kind === 'shrink')) fail(`(5) ${labels(ev.parkedAtLaunch)} parked at the launch boundary with no shrink in progress`);
  if (ev.parkedAtMap.length > 0 && ev.campaigns.length === 0) fail(`(5) ${labels(ev.parkedAtMap)} parked at the map-eligible boundary with no campaign in progress`);
}

/**
 * A grow target failed: which of the jobs parked at the map-eligible
 * boundary that did not park while that grow was in progress its failure
 * aborts is a reading (IP-READING-GROW-FAILURE-ABORTS). Declared, or shown
 * earlier in the run: that value. Open: read from the observation just
 * after the failure (every one of them NEVER_LAUNCHED, or none), and the
 * run holds the implementation to it from then on.
 */
export function growFailureAborts(run: Run, grow: CampaignModel, o: Observation): 'parked-during-grow' | 'all-parked-at-map' {
  const others = run.model.parkedNotFor(grow);
  const held = run.profile.reading('grow-failure-aborts');
  if (held !== undefined || others.length === 0) return held ?? 'parked-during-grow';
  const states = new Map(o.snap.jobs.map((j) => [j.nspace, j.state]));
  const aborted = others.filter((j) => states.get(j.nspace) === 'NEVER_LAUNCHED');
  const names = (js: JobModel[]) => js.map((j) => j.label).join(', ');
  if (aborted.length > 0 && aborted.length < others.length)
    fail(
      `(2) the failed grow ${grow.label} aborted ${names(aborted)} but not ${names(others.filter((j) => !aborted.includes(j)))}, all parked at the map-eligible boundary while it was not in progress: ` +
        'it aborts either none of them (grow-failure-aborts=parked-during-grow) or every one (all-parked-at-map) (IP-READING-GROW-FAILURE-ABORTS)',
    );
  const value = aborted.length > 0 ? 'all-parked-at-map' : 'parked-during-grow';
  const err = run.profile.took('grow-failure-aborts', value, `the failed grow ${grow.label} ${value === 'all-parked-at-map' ? 'aborted' : 'left parked'} ${names(others)}, which parked while it was not in progress`);
  if (err !== undefined) fail(`(2) ${err}`);
  return value;
}

/**
 * Over the whole run, from the final event log: every terminal event answers
 * an accepted request whose campaign ended (it went to that requester, with
 * its PMIX_ALLOC_ID and a PMIX_ALLOC_REQ_ID its readings allow); the log
 * holds exactly the events the steps delivered (none appeared, vanished or
 * changed afterwards); and every accepted request that opened a campaign got
 * exactly one (at most one if its requester was gone when the campaign
 * ended, or it is a reclaim whose requester is a reading left open), none
 * for a rejected request, one that changed nothing, or a change with no
 * requester.
 */
export function checkTally(run: Run, snap: Snapshot): void {
  const m = run.model;
  const log = snap.events.filter((raw) => TERMINAL.includes(raw.code)).map(viewOf);
  for (const e of log) {
    const answers = m.requests.some(
      (r) => r.accepted && r.outcome !== undefined && r.outcome.code === e.code && r.requester === e.to && (r.allocId ?? '') === e.allocId && r.outcome.reqIds.includes(e.reqId),
    );
    if (!answers) {
      const unknown = e.reqId !== undefined && !m.requests.some((r) => r.reqId === e.reqId);
      fail(`(tally) ${eventText(e, run)} answers no accepted size change of ${run.label(e.to)}${unknown ? ` (no size-change request supplied PMIX_ALLOC_REQ_ID "${e.reqId}")` : ''}`);
    }
  }
  const delivered = m.requests.reduce((n, r) => n + r.delivered, 0);
  if (log.length !== delivered) fail(`(tally) the event log holds ${log.length} terminal event(s), but the steps saw ${delivered} delivered: one appeared, vanished or changed afterwards`);
  const need = (r: RequestModel): [number, number, string] => {
    if (!r.accepted) return [0, 0, 'it was rejected'];
    if (!r.campaign) return [0, 0, 'it added or removed no daemon'];
    if (!r.outcome) return [1, 1, 'its campaign never ended'];
    if (r.maybe) return [0, 1, 'it is a reclaim, whose requester is a reading left undeclared'];
    return r.outcome.optional ? [0, 1, 'its requester was gone when its campaign ended'] : [1, 1, `its campaign ended at step ${r.outcome.step}`];
  };
  for (const r of m.requests) {
    const [lo, hi, why] = need(r);
    if (r.delivered < lo || r.delivered > hi) fail(`(tally) ${r.label} (${r.what}) received ${r.delivered} terminal event(s), expected ${lo === hi ? lo : `${lo}..${hi}`}: ${why}`);
  }
}
