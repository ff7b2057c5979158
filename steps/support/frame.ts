/**
 * Frame checks: what must NOT happen, judged at the end of every scenario.
 *
 * A scenario looks at what its rule is about; the specification also says,
 * everywhere, what the runtime does not do on its own. An event of the
 * contract sent where no rule sends one, or a process ended that nothing
 * ended, would pass every scenario that happens not to look at it. So once a
 * scenario has passed (and, against an implementation whose effects trail
 * its answers, once it has settled), its whole last observation is checked
 * against what the scenario did (journal.ts), and anything that nothing the
 * scenario did can explain fails it, charged to the clause that forbids it:
 *
 * - NR.warn.relay-only: a PMIX_ALLOC_TIMEOUT_WARNING is only ever the relay of
 *   one the scheduler issued, for the allocation it names, once per recipient;
 * - ED.gate.elastic-mode-only: no completion event (PMIX_DVM_IS_READY,
 *   PMIX_ERR_DVM_MOD) outside elastic mode;
 * - ED.deliver.no-event-on-reject / EP.event.directed: a completion event
 *   goes only to a process whose allocation request was accepted;
 * - ED.deliver.exactly-one: never more completion events than accepted
 *   requests could have caused (overall, and for each allocation);
 * - NR.mapped.teardown-never-kills: a process stops running only because its
 *   job was ended by the scenario, its node left the DVM, or the DVM was torn
 *   down;
 * - NR.reject.spawn-no-effect / NR.reject.alloc-no-effect (or
 *   NR.conformance.2 when nothing was refused): no job that no accepted
 *   spawn launched, no node reserved to an allocation that no accepted
 *   request made.
 *
 * Each bound counts what the scenario's accepted requests *could* have
 * caused, never what they must cause (that is the scenarios' business): a
 * request whose answer never came counts as accepted, and an accepted
 * request the answer of which names no allocation may account for any. So a
 * conforming implementation cannot fail a frame check, whatever mapping,
 * ids or accepted status it chooses, and events the specification leaves
 * free (PMIX_EVENT_JOB_END, say) are outside them.
 */
import type { EventView, Info, JobState, ProcId, Snapshot } from '../../seam/messages';
import { ACCEPTED_STATUSES, describeStatus, Key, Status } from '../../seam/pmix';
import type { JournalEntry } from './journal';

export interface FrameInput {
  journal: readonly JournalEntry[];
  /** The scenario's last whole observation (settled, against a trailing implementation). */
  final: Snapshot;
  /** Nodes seen to leave the DVM (absent or leaving) at some observation of the scenario. */
  departed: ReadonlySet<string>;
  /** Whether the DVM was started in elastic mode. */
  elastic: boolean;
  /** The scheduler's process: under one reading a reclaim's completion event goes to it. */
  scheduler?: ProcId;
  /** Names for messages: a namespace or an allocation id as the scenario calls it. */
  nameOf?: (id: string) => string;
}

export interface FrameViolation {
  clause: string;
  expected: string;
  observed: string;
}

const WARNING = Status.PMIX_ALLOC_TIMEOUT_WARNING;
const COMPLETION: ReadonlySet<number> = new Set([Status.PMIX_DVM_IS_READY, Status.PMIX_ERR_DVM_MOD]);
/** Job states in which its processes never ran: nothing ended them. */
const NEVER_RAN: ReadonlySet<JobState> = new Set(['PENDING', 'WAITING_FOR_DAEMONS', 'NEVER_LAUNCHED', 'FAILED_TO_MAP']);

const procKey = (p: ProcId) => `${p.nspace}#${p.rank}`;
const allocIdIn = (info: readonly Info[] | undefined): string | undefined => {
  const v = info?.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value;
  return typeof v === 'string' ? v : undefined;
};
/** A request whose answer never came may have been accepted. */
const mayHaveBeenAccepted = (answer: { status: number } | undefined) => answer === undefined || ACCEPTED_STATUSES.includes(answer.status);

export function frameViolations(input: FrameInput): FrameViolation[] {
  return [...warningFrame(input), ...completionFrame(input), ...processFrame(input), ...jobFrame(input), ...reservationFrame(input)];
}

function describe(input: FrameInput, events: readonly EventView[]): string {
  const name = input.nameOf ?? ((s: string) => JSON.stringify(s));
  return events
    .map((e) => {
      const id = allocIdIn(e.info);
      return `${describeStatus(e.code)} (seq ${e.seq}) to ${name(e.to.nspace)} rank ${e.to.rank}${id === undefined ? ', no PMIX_ALLOC_ID' : ` for ${name(id)}`}`;
    })
    .join('; ');
}

/** Count by key. */
function tally<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of items) m.set(key(t), [...(m.get(key(t)) ?? []), t]);
  return m;
}

// ------------------------------------------------------------- warnings --

function warningFrame(input: FrameInput): FrameViolation[] {
  const warned = input.journal.flatMap((e) => (e.op === 'scheduler' && e.req.action === 'timeout-warning' ? [e.req.allocId] : []));
  const warnings = input.final.events.filter((e) => e.code === WARNING);
  const out: FrameViolation[] = [];
  // Per recipient and allocation: no more relays than the scheduler issued warnings for it.
  for (const [, group] of tally(warnings, (e) => `${procKey(e.to)}|${allocIdIn(e.info) ?? ''}`)) {
    const id = allocIdIn(group[0].info);
    const issued = id === undefined ? warned.length : warned.filter((w) => w === id).length;
    if (group.length > issued) {
      out.push({
        clause: 'NR.warn.relay-only',
        expected: `a PMIX_ALLOC_TIMEOUT_WARNING only as the relay of one the scheduler issued${id === undefined ? '' : ` for that allocation`}, once to each recipient: the scheduler issued ${issued}${id === undefined ? ' in all' : ''}`,
        observed: `${group.length} delivered to the same process: ${describe(input, group)}`,
      });
    }
  }
  return out;
}

// ----------------------------------------------------- completion events --

function completionFrame(input: FrameInput): FrameViolation[] {
  const events = input.final.events.filter((e) => COMPLETION.has(e.code));
  if (events.length === 0) return [];
  if (!input.elastic) {
    return [{ clause: 'ED.gate.elastic-mode-only', expected: 'no completion event from a DVM not in elastic mode', observed: describe(input, events) }];
  }
  const allocations = input.journal.flatMap((e) => (e.op === 'allocate' ? [e] : []));
  const accepted = allocations.filter((e) => mayHaveBeenAccepted(e.answer));
  const reclaims = input.journal.flatMap((e) => (e.op === 'scheduler' && e.req.action === 'reclaim' ? [e.req.allocId] : []));
  const requesters = new Set(accepted.map((e) => procKey(e.req.requester)));
  if (reclaims.length > 0 && input.scheduler) requesters.add(procKey(input.scheduler));
  const refused = new Set(allocations.filter((e) => !mayHaveBeenAccepted(e.answer)).map((e) => procKey(e.req.requester)));
  const out: FrameViolation[] = [];

  // Recipients: a process whose request was accepted (the scheduler too, after a reclaim, under one reading).
  const strangers = events.filter((e) => !requesters.has(procKey(e.to)));
  const toRefused = strangers.filter((e) => refused.has(procKey(e.to)));
  const toNobody = strangers.filter((e) => !refused.has(procKey(e.to)));
  if (toRefused.length > 0) {
    out.push({ clause: 'ED.deliver.no-event-on-reject', expected: 'no completion event for a refused allocation request (its requester made no accepted one)', observed: describe(input, toRefused) });
  }
  if (toNobody.length > 0) {
    out.push({ clause: 'EP.event.directed', expected: 'a completion event only to a process that made an accepted allocation request', observed: describe(input, toNobody) });
  }

  // How many (of those delivered to a requester): one per accepted request at most, overall and for each allocation.
  const counted = events.filter((e) => requesters.has(procKey(e.to)));
  const budget = accepted.length + reclaims.length;
  if (counted.length > budget) {
    out.push({
      clause: 'ED.deliver.exactly-one',
      expected: `at most one completion event per accepted allocation request: ${accepted.length} accepted${reclaims.length > 0 ? ` and ${reclaims.length} reclaimed by the scheduler` : ''}`,
      observed: `${counted.length}: ${describe(input, counted)}`,
    });
    return out;
  }
  // A request accounts for the allocation its answer or its attributes name; one that names none (queued) may account for any.
  const named = (e: (typeof accepted)[number]) => allocIdIn(e.answer?.info) ?? allocIdIn(e.req.info);
  const unattributed = accepted.filter((e) => named(e) === undefined).length;
  for (const [id, group] of tally(counted, (e) => allocIdIn(e.info) ?? '')) {
    if (id === '') continue;
    const own = accepted.filter((e) => named(e) === id).length + reclaims.filter((r) => r === id).length;
    if (group.length > own + unattributed) {
      out.push({
        clause: 'ED.deliver.exactly-one',
        expected: `at most one completion event per accepted request for ${(input.nameOf ?? JSON.stringify)(id)}: ${own} such request(s)${unattributed > 0 ? `, and ${unattributed} that named no allocation` : ''}`,
        observed: `${group.length}: ${describe(input, group)}`,
      });
    }
  }
  return out;
}

// -------------------------------------------------------------- processes --

function processFrame(input: FrameInput): FrameViolation[] {
  const j = input.journal;
  if (j.some((e) => e.op === 'scheduler' && e.req.action === 'teardown')) return [];
  const ended = new Set(j.flatMap((e) => (e.op === 'terminateJob' ? [e.req.nspace] : [])));
  const left = new Set([...input.departed, ...j.flatMap((e) => (e.op === 'daemon' && e.req.node !== undefined && e.req.event !== 'report' && e.req.event !== 'wireup' ? [e.req.node] : []))]);
  const members = new Set(input.final.nodes.map((n) => n.name));
  const out: FrameViolation[] = [];
  for (const job of input.final.jobs) {
    if (ended.has(job.nspace) || NEVER_RAN.has(job.state)) continue;
    const stopped = job.procs.filter((p) => !p.running && p.node !== '' && members.has(p.node) && !left.has(p.node));
    if (stopped.length === 0) continue;
    out.push({
      clause: 'NR.mapped.teardown-never-kills',
      expected: `the processes of ${(input.nameOf ?? JSON.stringify)(job.nspace)} to keep running: the scenario did not end that job, and their nodes never left the DVM (processes die only because their nodes leave)`,
      observed: `job ${job.state}; stopped: ${stopped.map((p) => `rank ${p.rank} on ${p.node}`).join(', ')}`,
    });
  }
  return out;
}

// ------------------------------------------------------------------- jobs --

function jobFrame(input: FrameInput): FrameViolation[] {
  const spawns = input.journal.flatMap((e) => (e.op === 'spawn' ? [e] : []));
  const launched = new Set(spawns.flatMap((e) => (e.answer?.nspace !== undefined ? [e.answer.nspace] : [])));
  const unanswered = spawns.filter((e) => e.answer === undefined).length;
  const unknown = input.final.jobs.filter((job) => !launched.has(job.nspace));
  if (unknown.length <= unanswered) return [];
  const refused = spawns.filter((e) => e.answer !== undefined && !ACCEPTED_STATUSES.includes(e.answer.status));
  return [
    {
      clause: refused.length > 0 ? 'NR.reject.spawn-no-effect' : 'NR.conformance.2',
      expected: `only jobs that an accepted spawn launched${refused.length > 0 ? ` (${refused.length} spawn(s) were refused: a refused spawn launches nothing)` : ''}`,
      observed: `job(s) no accepted spawn returned: ${unknown.map((job) => `${JSON.stringify(job.nspace)} ${job.state}`).join(', ')}`,
    },
  ];
}

// ----------------------------------------------------------- reservations --

function reservationFrame(input: FrameInput): FrameViolation[] {
  const allocations = input.journal.flatMap((e) => (e.op === 'allocate' ? [e] : []));
  const accepted = allocations.filter((e) => mayHaveBeenAccepted(e.answer));
  const known = new Set<string>();
  for (const e of accepted) for (const id of [allocIdIn(e.answer?.info), allocIdIn(e.req.info)]) if (id !== undefined) known.add(id);
  for (const e of input.journal) if (e.op === 'queryAllocation' && e.answer?.allocId !== undefined) known.add(e.answer.allocId);
  // A request accepted without naming an allocation (queued at the scheduler) may be granted later under an id never seen.
  const unnamed = accepted.filter((e) => e.answer === undefined || allocIdIn(e.answer.info) === undefined).length;
  const strange = tally(
    input.final.nodes.filter((n) => n.availableTo !== '' && !known.has(n.availableTo)),
    (n) => n.availableTo,
  );
  if (strange.size <= unnamed) return [];
  const refused = allocations.length - accepted.length;
  return [
    {
      clause: refused > 0 ? 'NR.reject.alloc-no-effect' : 'NR.conformance.2',
      expected: `nodes reserved only to allocations an accepted request made${refused > 0 ? ` (${refused} allocation request(s) were refused: a refused request reserves nothing)` : ''}`,
      observed: [...strange].map(([id, nodes]) => `${nodes.map((n) => n.name).join(', ')} reserved to ${JSON.stringify(id)}, which no accepted request returned`).join('; '),
    },
  ];
}
