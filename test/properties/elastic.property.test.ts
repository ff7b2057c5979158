/**
 * Properties of the elastic DVM, checked through the seam after every step
 * of random interleavings of grow and shrink campaigns (NEW / EXTEND of 1–2
 * scheduler nodes by tools and applications, with and without
 * PMIX_ALLOC_REQ_ID; releases by allocation and by node list; scheduler
 * reclaims and pushes), daemon happenings (reports, wireups, clean exits,
 * crashes, failed starts, repeated and late reports, losses that belong to
 * no campaign), and jobs (held before either boundary and moved on, plain
 * spawns, terminations). An independent model (./elastic-oracle) predicts,
 * and the test asserts after every step:
 *  1. which nodes are in the DVM and whether each daemon is ready, joining
 *     or leaving (a grow's nodes join until all reported and were wired; a
 *     shrink's nodes leave only on their own departure, counted once; a
 *     failed grow is rolled back);
 *  2. every job's state: parked (WAITING_FOR_DAEMONS) at the map-eligible boundary
 *     exactly while some campaign is in progress, at the launch boundary
 *     exactly while a shrink is; admitted once that is over (remapped if a
 *     process sat on a node that left); aborted (NEVER_LAUNCHED) only by the
 *     failure of a grow that was in progress when it parked at the
 *     map-eligible boundary; killed only when its last process's node left;
 *  3. hazards, from the observation alone: a job that becomes RUNNING has
 *     every process on a ready node; no running process ever sits on a
 *     joining node or a node outside the DVM, nor on a leaving node unless
 *     it was running there before the node started to leave;
 *  4. the step's completion events, exactly: PMIX_DVM_IS_READY /
 *     PMIX_ERR_DVM_MOD (with the cause in its info, under any key) to the
 *     requester only, with its PMIX_ALLOC_ID and the PMIX_ALLOC_REQ_ID its
 *     reading of completion-request-id calls for (the driving request's or
 *     the creating request's, whenever that one supplied it); at most one
 *     per request; none for a rejected request, a request that adds or
 *     removes no daemon, or a size change with no requester (a push, a NONE
 *     disposition, a reclaim unless it declares reclaim-requester=scheduler);
 *  5. with introspection: the fence equals the grow targets plus the
 *     not-yet-departed shrink targets, the campaigns in progress and the
 *     parked lists are the predicted ones, and a launch-parked job exists
 *     only while a shrink does;
 *  6. a rejected request changes nothing (refused with the status the
 *     documents name, or any error status where they name none).
 *
 * The oracle judges what the implementation declares (./profile.ts): the
 * readings it takes (an undeclared one: every value is allowed until its
 * behaviour shows which it takes, then that one), and the harness hooks it
 * offers. Without daemon-control its daemons act on their own: the run
 * only watches them (a report, exit or wireup op becomes a look), kills one
 * with daemon-faults (its cause the runtime's), and the model takes the
 * progress each look shows. Every known-good runs through the same
 * interleavings (30 runs each).
 * At the end of each sequence it drains (reports and wires every joining
 * node, lets every leaving daemon depart, moves every held job on), checking
 * every drain step the same way, and asserts that no job is left parked or
 * pending and that every accepted size change got exactly one terminal event
 * (counted over the whole run, by PMIX_ALLOC_REQ_ID).
 *
 * Failures print fast-check's seed, path and the shrunk op list, with the
 * resolved run as Gherkin steps (features/AUTHORING.md phrasing where the
 * suite has a step; the elastic ones are phrased the same way), each step
 * followed by what the model expects and the campaigns / parked jobs after
 * it; replay with PMIX_PROPERTY_SEED=<seed> PMIX_PROPERTY_PATH=<path>.
 *
 * Environment: PMIX_PROPERTY_RUNS (default 300) and PMIX_PROPERTY_MAX_OPS
 * (default 30) size the run; scripts/properties-large.sh runs a large
 * exploration. PMIX_PROPERTY_COVERAGE=1 prints how often each interesting
 * situation arose. The test prints one summary line (runs, ops per run,
 * checked steps, elapsed ms) whether it passes or fails.
 *
 * It has teeth: each test/properties/broken/elastic-*.ts wraps the
 * reference engine and breaks one rule, and the property must fail on each:
 *
 *   for v in test/properties/broken/elastic-*.ts; do
 *     PMIX_CONFORMANCE_ADAPTER=${v%.ts} \
 *       node --require ./tools/register.js --test test/properties/elastic.property.test.ts \
 *       >/dev/null && echo "NOT CAUGHT: $v"; done
 *
 * (with PMIX_BROKEN_NO_INSPECT=1 too: then only what a client observes).
 * Among them, elastic-declares-driving-ids and
 * elastic-declares-no-reclaim-requester take a known-good's behaviour but
 * declare the other value of its reading, and elastic-mixed-req-ids declares
 * none and takes neither value consistently: the oracle holds an
 * implementation to what it declares, and an undeclared reading to one
 * value per run.
 */
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Implementation } from '../../seam/implementation';
import type { Info } from '../../seam/messages';
import { Directive, Inheritance, Key, Status, describeStatus } from '../../seam/pmix';
import { loadImplementation, propertySettings } from '../support/adapter';
import { ElasticModel } from './elastic-oracle';
import { sequenceArb, type Op } from './elastic-ops';
import { Profile, accepted, sameObservation } from './profile';
import { checkEvents, checkIntrospection, checkJobs, checkNodes, checkTally, eventText, freeSlots, growFailureAborts, viewOf } from './elastic-checks';
import { Action, MAX_OPS, RUNS, Run, SCHEDULER, STARTUP, TERMINAL, TOOLS, cover, fail, infoValue, proc, stats } from './elastic-run';
import { gherkin, stateLine } from './elastic-story';

// ---------------------------------------------------------------- one step

async function step(run: Run, act: Action): Promise<void> {
  const m = run.model;
  m.step += 1;
  stats.steps += 1;
  // With daemons acting on their own, the last step's final look is this one's first: another look here
  // would let them move on before the step acts, and a step would rarely find a size change in progress.
  const before = run.autonomous && run.last ? run.last : await run.observe();
  run.showModel(before);
  /**
   * Set when the model expects a refusal (the reason) — the request must
   * change nothing. `status`: the one the documents name (NR.error.*);
   * undefined where they name none, so any error status refuses
   * (IP-RELEASE-ERRORS, IP-SLOT-CAPACITY).
   */
  let refusal: { status?: number; why: string } | undefined;
  let got: number | undefined;
  let newLabel: string | undefined;
  let outcome = '';

  try {
    switch (act.a) {
      case 'grow': {
        const info: Info[] = [];
        if (act.alloc) info.push({ key: Key.PMIX_ALLOC_ID, value: act.alloc.id });
        if (act.list) info.push({ key: Key.PMIX_ALLOC_NODE_LIST, value: act.list.join(',') });
        else info.push({ key: Key.PMIX_ALLOC_NUM_NODES, value: act.count! });
        if (act.reqId) info.push({ key: Key.PMIX_ALLOC_REQ_ID, value: act.reqId });
        if (act.share) info.push({ key: Key.PMIX_ALLOC_SHARE, value: true });
        if (act.none) info.push({ key: Key.PMIX_ALLOC_INHERITANCE, value: Inheritance.PMIX_ALLOC_INHERIT_NONE });
        const what = `${act.directive} by ${run.label(act.by)}`;
        if (act.directive === 'EXTEND') {
          const a = act.alloc!;
          if (!a.live) refusal = { status: Status.PMIX_ERR_NOT_FOUND, why: `${a.label} has ended` };
          else if (act.by !== m.scheduler && !a.owners.has(act.by)) refusal = { status: Status.PMIX_ERR_NO_PERMISSIONS, why: `${run.label(act.by)} does not own ${a.label}` };
        }
        const free = m.freeSchedulerNodes();
        const r = await run.impl.allocate({ requester: proc(act.by), directive: act.directive === 'NEW' ? Directive.PMIX_ALLOC_NEW : Directive.PMIX_ALLOC_EXTEND, info });
        got = r.status;
        if (refusal) {
          m.rejected({ kind: 'grow', requester: act.by, reqId: act.reqId, what });
          newLabel = undefined;
          break;
        }
        if (!accepted(r.status)) fail(`${what}: refused with ${describeStatus(r.status)}, but the request is valid`);
        let alloc = act.alloc;
        if (!alloc) {
          const id = infoValue(r.info, Key.PMIX_ALLOC_ID);
          if (typeof id !== 'string' || id === '') fail(`${what}: the response carries no PMIX_ALLOC_ID`);
          newLabel = run.allocLabel();
          alloc = m.addAllocation({
            id: id as string,
            label: newLabel,
            owner: act.by,
            disposition: act.none ? Inheritance.PMIX_ALLOC_INHERIT_NONE : Inheritance.PMIX_ALLOC_INHERIT_DEFAULT,
            shared: act.share === true,
            creationReqId: act.reqId,
          });
          run.made.push(alloc);
        }
        const seen0 = await run.observe();
        const after0 = seen0.snap;
        const had = new Set(before.snap.nodes.map((n) => n.name));
        const joined = after0.nodes.filter((n) => !had.has(n.name));
        const want = act.list ?? free.slice(0, Math.min(act.count!, free.length));
        if (joined.length !== want.length || joined.some((n) => !free.includes(n.name)) || (act.list && joined.some((n) => !act.list!.includes(n.name))))
          fail(`${what}: expected ${act.list ? `exactly ${act.list.join(',')}` : `${want.length} free scheduler node(s)`} to join the DVM, got ${JSON.stringify(joined.map((n) => n.name))}`);
        // Daemons acting on their own may have reported in and been wired already (all of the grow's together: the model judges that).
        for (const n of joined) if (n.daemon !== 'joining' && !(run.autonomous && n.daemon === 'ready')) fail(`(1) ${what}: the granted node ${n.name} is '${n.daemon}' at once; a grow's daemons join until they reported and were wired`);
        const request = m.request({ kind: 'grow', requester: act.by, reqId: act.reqId, allocId: alloc.id, what: `${what} of ${joined.map((n) => n.name).join(',') || 'no node'}` });
        const c = m.grant(
          joined.map((n) => n.name),
          { request, alloc },
        );
        if (c) stats.campaigns += 1;
        run.showModel(seen0);
        outcome = `accepted: ${joined.length > 0 ? `${joined.map((n) => n.name).join(',')} joining (${c!.label})` : 'no node joins'}`;
        break;
      }
      case 'release': {
        const a = act.alloc;
        const info: Info[] = [];
        if (act.withId) info.push({ key: Key.PMIX_ALLOC_ID, value: a.id });
        if (act.nodes) info.push({ key: Key.PMIX_ALLOC_NODE_LIST, value: act.nodes.join(',') });
        if (act.reqId) info.push({ key: Key.PMIX_ALLOC_REQ_ID, value: act.reqId });
        const what = `RELEASE of ${act.nodes ? act.nodes.join(',') : a.label} by ${run.label(act.by)}`;
        // Refused with any error status and no effect (IP-RELEASE-ERRORS: the documents name none).
        if (!a.live) refusal = { why: `${a.label} has ended` };
        else if (act.by !== m.scheduler && !a.owners.has(act.by)) refusal = { why: `${run.label(act.by)} does not own ${a.label}` };
        let answered = true;
        try {
          got = (await run.impl.allocate({ requester: proc(act.by), directive: Directive.PMIX_ALLOC_RELEASE, info })).status;
        } catch (e) {
          // IP-RELEASER-ENDED-BY-RELEASE: a job whose release takes its own node away may end before the answer
          // reaches it; the missing answer is excused only when the job is then seen to have ended, and the
          // release's effect is judged either way.
          const job = m.jobs.get(act.by);
          const o = await run.observe();
          if (!job || o.snap.jobs.some((j) => j.nspace === act.by && j.state === 'RUNNING')) throw e;
          answered = false;
          outcome = `no answer: ${run.label(act.by)} ended before it; `;
        }
        if (refusal) {
          if (!answered) fail(`${what}: the call got no answer and ${run.label(act.by)} ended, but the release must be refused (${refusal.why}) and change nothing`);
          m.rejected({ kind: 'shrink', requester: act.by, reqId: act.reqId, what });
          break;
        }
        if (answered && !accepted(got!)) fail(`${what}: refused with ${describeStatus(got!)}, but ${run.label(act.by)} may release ${a.label}`);
        const request = m.request({ kind: 'shrink', requester: act.by, reqId: act.reqId, allocId: a.id, what });
        if (act.nodes) m.releaseNodes(act.nodes, request);
        else m.endAllocation(a, request, `released by ${run.label(act.by)}`);
        if (request.campaign) stats.campaigns += 1;
        outcome += `accepted${request.campaign ? `: ${request.campaign.targets.join(',')} leaving (${request.campaign.label})` : ': no daemon to remove'}`;
        break;
      }
      case 'reclaim': {
        const r = await run.impl.scheduler({ action: 'reclaim', allocId: act.alloc.id });
        got = r.status;
        if (!act.alloc.live) {
          // A reclaim of an ended allocation changes nothing; no document says what the scheduler is told.
          refusal = { why: `${act.alloc.label} has ended` };
          got = undefined;
          break;
        }
        if (r.status !== Status.PMIX_SUCCESS) fail(`reclaiming ${act.alloc.label}: ${describeStatus(r.status)}`);
        // Who asked for a reclaim's shrink is a reading (IP-READING-RECLAIM-REQUESTER): no one (no event), or
        // the scheduler (its one event). Undeclared: the scheduler may get one, no one else any.
        const who = run.profile.reading('reclaim-requester');
        const request =
          who === 'none' ? undefined : m.request({ kind: 'shrink', requester: m.scheduler, allocId: act.alloc.id, what: `the reclaim of ${act.alloc.label} (reading reclaim-requester=${who ?? 'undeclared'})` });
        if (request && who === undefined) request.maybe = true;
        m.endAllocation(act.alloc, request, 'reclaimed by the scheduler');
        if (request?.campaign) stats.campaigns += 1;
        break;
      }
      case 'push': {
        const r = await run.impl.scheduler({ action: 'add-nodes', nodes: act.nodes });
        if (r.status !== Status.PMIX_SUCCESS) fail(`pushing ${act.nodes.join(',')}: ${describeStatus(r.status)}`);
        const seen0 = await run.observe();
        const pushed = seen0.snap.nodes.filter((n) => act.nodes.includes(n.name));
        // Daemons acting on their own may have been wired already (all together: the model judges that).
        if (pushed.length !== act.nodes.length || pushed.some((n) => n.daemon !== 'joining' && !(run.autonomous && n.daemon === 'ready')))
          fail(`(1) the pushed nodes ${act.nodes.join(',')} must join the DVM as 'joining', got ${JSON.stringify(pushed.map((n) => [n.name, n.daemon]))}`);
        if (m.grant(act.nodes, {})) stats.campaigns += 1;
        run.showModel(seen0);
        break;
      }
      case 'daemon': {
        const n = m.node(act.node);
        const grow = n.inDvm && n.daemon === 'joining' ? m.campaigns.get(n.campaign!) : undefined;
        const r = await run.impl.daemon({ event: act.event, node: act.node, ...(act.cause !== undefined ? { cause: act.cause } : {}) });
        if (r.status !== Status.PMIX_SUCCESS) fail(`the daemon on ${act.node} ${act.event}: ${describeStatus(r.status)}`);
        if (act.event === 'report') m.report(act.node);
        else {
          const seen0 = await run.observe();
          const stays = seen0.snap.nodes.some((x) => x.name === act.node);
          const aborts = grow ? growFailureAborts(run, grow, seen0) : undefined;
          // With daemons acting on their own the harness only kills one, and the runtime chooses the cause (daemon-faults).
          m.daemonGone(act.node, run.autonomous ? undefined : act.cause, { left: !stays, aborts });
          run.showModel(seen0);
        }
        break;
      }
      case 'wireup': {
        const r = await run.impl.daemon({ event: 'wireup' });
        if (r.status !== Status.PMIX_SUCCESS) fail(`wireup: ${describeStatus(r.status)}`);
        m.wireup();
        break;
      }
      case 'spawn': {
        const sessions = act.into ? [act.into.id] : [''];
        const immediate = act.hold === undefined && m.campaigns.size === 0;
        const r = await run.impl.spawn({
          requester: proc(act.by),
          apps: [{ cmd: 'app', np: act.np }],
          info: act.into ? [{ key: Key.PMIX_SPAWN_TARGET, value: act.into.id }] : [],
          ...(act.hold ? { hold: act.hold } : {}),
        });
        got = r.status;
        newLabel = run.jobLabel();
        if (immediate && !accepted(r.status)) {
          // Refused for want of room: any error status (IP-SLOT-CAPACITY; no document names one), only when there is none.
          const free = freeSlots(before.snap, sessions);
          if (free >= act.np) fail(`spawn of ${act.np} by ${run.label(act.by)}: refused with ${describeStatus(r.status)}, yet ${JSON.stringify(sessions)} has ${free} free slots on ready nodes`);
          refusal = { why: 'no room' };
          break;
        }
        if (!accepted(r.status) || !r.nspace)
          fail(`spawn of ${act.np} by ${run.label(act.by)}${act.hold ? ` held before ${act.hold}` : ''}: ${describeStatus(r.status)}; a job submitted ${immediate ? 'with nothing in progress and room for it' : 'during a size change'} is accepted`);
        run.labels.set(r.nspace!, newLabel);
        m.spawn({ nspace: r.nspace!, label: newLabel, np: act.np, sessions, owners: act.into ? [act.into] : [] }, act.hold, immediate);
        break;
      }
      case 'advance': {
        const r = await run.impl.advanceJob({ nspace: act.job.nspace, to: act.to, ...(act.holdBeforeLaunch ? { holdBeforeLaunch: true } : {}) });
        if (r.status !== Status.PMIX_SUCCESS) fail(`moving ${act.job.label} on to ${act.to}: ${describeStatus(r.status)}`);
        m.advance(act.job, act.to, act.holdBeforeLaunch);
        break;
      }
      case 'terminate': {
        const r = await run.impl.terminateJob({ nspace: act.job.nspace });
        if (r.status !== Status.PMIX_SUCCESS) fail(`terminating ${act.job.label}: ${describeStatus(r.status)}`);
        m.terminate(act.job);
        break;
      }
      case 'watch':
        break;
    }
  } finally {
    run.say(...gherkin(run, act, newLabel));
  }
  if (refusal && got !== undefined) {
    const must = refusal.status !== undefined ? `with ${describeStatus(refusal.status)}` : '(any error status: no document names one)';
    if (accepted(got)) fail(`the request was accepted (${describeStatus(got)}), but it must be refused ${must}: ${refusal.why}`);
    if (refusal.status !== undefined && got !== refusal.status) fail(`the request was refused with ${describeStatus(got)}, expected ${describeStatus(refusal.status)}: ${refusal.why}`);
  }
  m.settle();
  const after = await run.observe();
  run.showModel(after);
  run.last = after;
  const { expected, notes } = m.takeStep();
  run.say(`      # -> ${refusal ? `refused${got !== undefined ? ` with ${describeStatus(got)}` : ''} (${refusal.why})` : [outcome, ...notes].filter((x) => x !== '').join('; ') || 'ok'}`);
  // Events are ordered by seq alone: the step's are those after the ones already judged.
  const fresh = after.snap.events.slice(run.seen);
  run.seen = after.snap.events.length;
  for (const e of fresh) if (TERMINAL.includes(e.code)) run.say(`      # event: ${eventText(viewOf(e) as never, run)}`);
  run.say(stateLine(run));

  // With daemons acting on their own the DVM moves on between the two looks: the model's checks below judge the refusal's effect then.
  if (refusal && !run.autonomous) {
    const same = sameObservation(after, before);
    if (!same.snap) fail(`(6) the refused request changed what a client can observe${fresh.length > 0 ? ` (and produced ${fresh.map((e) => describeStatus(e.code)).join(', ')})` : ''}`);
    if (!same.intro) fail('(6) the refused request changed the implementation\'s bookkeeping');
  }
  checkNodes(run, after);
  checkEvents(run, fresh, expected);
  checkJobs(run, before, after);
  checkIntrospection(run, after);
}

// ---------------------------------------------------------------- drain and the end of a run

async function drain(run: Run): Promise<void> {
  const m = run.model;
  run.say(
    run.autonomous
      ? '    # drain: the daemons act on their own until every campaign is over; every held job moves on'
      : '    # drain: every joining daemon reports and is wired, every leaving daemon departs, every held job moves on',
  );
  for (let round = 0; round < 50; round++) {
    let did = false;
    const act = async (a: Action) => {
      did = true;
      stats.drainSteps += 1;
      await step(run, a);
    };
    if (run.autonomous) {
      if (m.campaigns.size > 0) await act({ a: 'watch' });
    } else {
      for (const n of m.nodesIn('joining')) if (m.node(n).inDvm && m.node(n).daemon === 'joining' && !m.node(n).reported) await act({ a: 'daemon', event: 'report', node: n });
      if (m.nodesIn('joining').length > 0) await act({ a: 'wireup' });
      for (const n of m.nodesIn('leaving')) if (m.node(n).daemon === 'leaving') await act({ a: 'daemon', event: 'exit', node: n });
    }
    for (const j of m.heldJobs()) await act({ a: 'advance', job: j, to: 'launch', holdBeforeLaunch: false });
    if (!did) break;
  }
  const o = await run.observe();
  for (const j of o.snap.jobs) {
    if (j.state === 'WAITING_FOR_DAEMONS' || j.state === 'PENDING')
      fail(`(drain) job ${run.label(j.nspace)} is still ${j.state} after every campaign completed and every held job was moved on: parked forever`);
  }
  if (m.campaigns.size > 0) fail(`(drain) campaigns still in progress after the drain: ${[...m.campaigns.values()].map((c) => c.label).join(', ')}`);
  const ev = o.intro?.elastic;
  if (ev && (ev.fence !== 0 || ev.campaigns.length > 0 || ev.parkedAtMap.length + ev.parkedAtLaunch.length > 0))
    fail(`(drain) the implementation still has fence ${ev.fence}, campaigns ${JSON.stringify(ev.campaigns)}, parked ${JSON.stringify([...ev.parkedAtMap, ...ev.parkedAtLaunch])}`);
  checkTally(run, o.snap);
}

async function runSequence(ops: Op[], make: () => Implementation = loadImplementation): Promise<void> {
  const impl = make();
  const run = new Run(impl);
  stats.runs += 1;
  stats.ops += ops.length;
  stats.longest = Math.max(stats.longest, ops.length);
  try {
    run.profile = await Profile.of(impl);
    run.autonomous = !run.profile.has('daemon-control');
    const { scheduler } = await impl.start({ startupNodes: STARTUP, schedulerNodes: SCHEDULER, withoutKeys: [], elastic: true });
    run.model = new ElasticModel(scheduler.nspace, STARTUP, SCHEDULER, run.profile);
    run.say(`    # implementation: ${run.profile.describe()}`);
    run.say(
      `    Given a DVM whose startup nodes are "${STARTUP.map((n) => n.name).join(',')}" with 2 slots each`,
      `    And the scheduler can grant nodes "${SCHEDULER.map((n) => n.name).join(',')}" with 2 slots each`,
      '    And the DVM runs in elastic mode',
    );
    for (const label of TOOLS) {
      const { proc: p } = await impl.connectTool({ label });
      run.model.addTool(p.nspace);
      run.toolNs.push(p.nspace);
      run.labels.set(p.nspace, label);
      run.say(`    And tool "${label}" is connected`);
    }
    for (const op of ops) {
      const acts = run.resolve(op);
      if (acts.length === 0) run.say(`    # (skipped ${JSON.stringify(op)}: it names nothing in this state)`);
      for (const act of acts) await step(run, act);
    }
    await drain(run);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new Error(`${msg}\n--- the run, as resolved (step ${run.model?.step ?? 0} failed) ---\n${run.log.join('\n')}`);
  } finally {
    for (const [k, n] of run.model?.cover ?? []) cover.set(k, (cover.get(k) ?? 0) + n);
    await impl.stop();
  }
}

test('elastic DVM: campaigns, parking, admission and completion events over random interleavings', async () => {
  const settings = propertySettings(RUNS);
  const t0 = performance.now();
  try {
    await fc.assert(
      fc.asyncProperty(sequenceArb(MAX_OPS), async (ops) => {
        await runSequence(ops);
      }),
      settings,
    );
  } finally {
    const ms = performance.now() - t0;
    console.log(
      `elastic property: ${settings.numRuns} runs requested, ${stats.runs} interleavings executed (incl. any shrinking), ` +
        `ops per run max ${MAX_OPS} (longest ${stats.longest}, total ${stats.ops}), ${stats.steps} checked steps (${stats.drainSteps} drain), ` +
        `${stats.campaigns} campaigns, ${stats.events} completion events, seed ${settings.seed ?? 'random'}, elapsed ${ms.toFixed(0)} ms`,
    );
    if (process.env.PMIX_PROPERTY_COVERAGE === '1') console.log(`coverage: ${[...cover].sort().map(([k, n]) => `${k} ${n}`).join('; ')}`);
  }
});

// Every known-good: each takes a freedom the documents allow and declares its readings and capabilities;
// the oracle allows what it declares (./profile.ts).
const ELASTIC_KNOWN_GOOD = fs
  .readdirSync(path.resolve(__dirname, '..', '..', 'known-good'))
  .filter((f) => f.endsWith('.ts') && f !== 'good.ts')
  .map((f) => f.replace(/\.ts$/, ''));
// What holds under every value of a reading must hold for an implementation that declares none: the
// known-goods whose behaviour this property tells apart by reading, and the reference engine, with their
// readings left undeclared (the oracle then allows each value until the behaviour shows which it takes).
const UNDECLARED = ['completion-carries-creation-req-id', 'grow-failure-aborts-all-parked', 'reclaim-requested-by-scheduler', 'reference'];
for (const name of UNDECLARED) {
  test(`elastic DVM: the same interleavings against ${name === 'reference' ? 'the reference engine' : `the known-good ${name}`}, declaring no reading`, async () => {
    const { createImplementation } = require(name === 'reference' ? '../../reference/adapter' : `../../known-good/${name}`) as { createImplementation: () => Implementation };
    const undeclared = (): Implementation => {
      const impl = createImplementation();
      return { ...impl, describe: async () => ({ ...(await impl.describe()), readings: {} }) };
    };
    await fc.assert(
      fc.asyncProperty(sequenceArb(MAX_OPS), async (ops) => {
        await runSequence(ops, undeclared);
      }),
      propertySettings(30),
    );
  });
}

for (const name of ELASTIC_KNOWN_GOOD) {
  test(`elastic DVM: the same interleavings against the known-good ${name}`, async () => {
    const { createImplementation } = require(`../../known-good/${name}`) as { createImplementation: () => Implementation };
    await fc.assert(
      fc.asyncProperty(sequenceArb(MAX_OPS), async (ops) => {
        await runSequence(ops, createImplementation);
      }),
      propertySettings(30),
    );
  });
}
