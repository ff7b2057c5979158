/**
 * A smoke test of a wire-protocol harness, before a full run: does the
 * command start, answer the handshake, bring up a DVM, report what it sees
 * and stop, and can the same process serve a second scenario? Each step
 * says what went wrong and what to check, so a harness author gets a
 * diagnosis in seconds instead of 400 errored scenarios.
 *
 * The first round also sends one valid, minimal request of every kind the
 * harness's declared capabilities allow (connect-tool, allocate,
 * query-allocation, spawn, terminate-job, disconnect-tool, and with the
 * capabilities that unlock them inspect, scheduler, daemon, advance-job): a
 * harness that never answers one kind fails here, in seconds, instead of
 * costing the request timeout in every scenario of a run. Any answer will
 * do, an error response included: smoke checks that the harness answers,
 * the suite checks what it answers.
 */
import { Connection, WireFault, type FaultKind } from '../../protocol/connection';
import { PROTOCOL_VERSION } from '../../protocol/messages';
import { shellWords } from '../../protocol/shell-words';
import type { ClusterSetup } from '../../seam/messages';
import { undeclaredReadingLine, undeclaredReadings } from '../../seam/readings';

export interface SmokeOptions {
  command: string;
  cwd?: string;
  timeoutMs?: number;
  /** The handshake, process start-up included. */
  startTimeoutMs?: number;
}

export interface SmokeStep {
  step: string;
  ok: boolean;
  detail: string;
  /** What to check, when the step failed. */
  hint?: string;
}

export interface SmokeResult {
  ok: boolean;
  steps: SmokeStep[];
}

const HINTS: Record<FaultKind, string> = {
  spawn: 'the command could not be started: check the program path and that it is executable. The command line is split into words like a shell would, without expansion; wrap it in sh -c \'…\' for variables or pipes.',
  exit: 'the process ended: it must keep running, answering one JSON line per request, until its stdin closes. Its last stderr lines are quoted above.',
  timeout: 'no answer in time: does it write each response to stdout as one line ending in \\n, and flush (Python: print(..., flush=True))? Raise PMIX_CONFORMANCE_TIMEOUT_MS if it is merely slow.',
  protocol: 'every stdout line must be one JSON response with the request\'s seq, matching the response schema named above (schemas/<command>-response.json); logs and banners go to stderr.',
  version: `the suite speaks protocol ${PROTOCOL_VERSION}: answer start-protocol with that protocolVersion (schemas/README.md, "Handshake and versions").`,
  'error-response': 'the harness answered with an error response: the message above is its own. Every harness must at least answer start-protocol, start, observe and stop.',
  closed: 'the connection was closed by the suite.',
};

/** The smallest cluster the suite ever starts: one startup node, one node the scheduler can grant. */
export const SMOKE_SETUP: ClusterSetup = { startupNodes: [{ name: 'n1', slots: 4 }], schedulerNodes: [{ name: 's1', slots: 4 }], withoutKeys: [], elastic: false };

const HANDSHAKE = 'start the process and shake hands (start-protocol)';

export async function smoke(o: SmokeOptions): Promise<SmokeResult> {
  const steps: SmokeStep[] = [];
  const failed = (step: string, e: unknown): SmokeResult => {
    let hint = e instanceof WireFault ? HINTS[e.kind] : undefined;
    if (e instanceof WireFault && e.kind === 'timeout' && step === HANDSHAKE) hint = `${hint} A slow start-up: raise PMIX_CONFORMANCE_START_TIMEOUT_MS.`;
    steps.push({ step, ok: false, detail: e instanceof Error ? e.message : String(e), ...(hint ? { hint } : {}) });
    return { ok: false, steps };
  };

  let argv: string[];
  try {
    argv = shellWords(o.command);
    if (argv.length === 0) throw new Error('the command is empty');
  } catch (e) {
    return failed('read the command line', e);
  }
  const timeoutMs = o.timeoutMs ?? 10000;
  let c: Connection;
  try {
    c = await Connection.open({ argv, cwd: o.cwd, timeoutMs, startTimeoutMs: o.startTimeoutMs ?? Math.max(timeoutMs, 20000) });
  } catch (e) {
    return failed(HANDSHAKE, e);
  }
  const d = c.description;
  steps.push({
    step: HANDSHAKE,
    ok: true,
    detail: [
      `"${d.name}" version ${d.version} speaks ${PROTOCOL_VERSION}; declares ${d.capabilities.length ? d.capabilities.join(', ') : 'no capabilities (scenarios needing one will be skipped)'}`,
      // Not a fault (features/INTERPRETATIONS.md, Readings): said so the author can decide.
      ...undeclaredReadings(d.readings).map(undeclaredReadingLine),
    ].join('\n'),
  });

  const scenario = async (round: string): Promise<SmokeResult | undefined> => {
    let started: { scheduler: { nspace: string; rank: number } };
    try {
      started = await c.request('start', SMOKE_SETUP);
      steps.push({ step: `${round}: start a DVM (startup node n1, schedulable node s1)`, ok: true, detail: `the scheduler is ${started.scheduler.nspace}:${started.scheduler.rank}` });
    } catch (e) {
      return failed(`${round}: start a DVM (startup node n1, schedulable node s1)`, e);
    }
    try {
      const seen = await c.request('observe', {});
      const names = seen.nodes.map((n) => n.name);
      const note = names.includes('n1') ? '' : ' (note: startup node n1 is not among them; the suite will fail most scenarios)';
      steps.push({ step: `${round}: observe`, ok: true, detail: `${seen.nodes.length} node(s) [${names.join(', ')}], ${seen.jobs.length} job(s), ${seen.events.length} event(s)${note}` });
    } catch (e) {
      return failed(`${round}: observe`, e);
    }
    if (round === 'scenario 1') {
      const kinds = await everyKind(c, d.capabilities as string[], started.scheduler, steps);
      if (kinds) return failed(kinds.step, kinds.error);
    }
    try {
      await c.request('stop', {});
      steps.push({ step: `${round}: stop`, ok: true, detail: 'the DVM is released; the process waits for the next scenario' });
    } catch (e) {
      return failed(`${round}: stop`, e);
    }
    return undefined;
  };

  try {
    // The runner reuses a process for the next scenario, so a second round must work too.
    const first = (await scenario('scenario 1')) ?? (await scenario('scenario 2 (same process)'));
    return first ?? { ok: true, steps };
  } finally {
    c.close();
  }
}

const ALLOC_NEW = 1;

/**
 * One request of each kind the capabilities allow, in an order that gives the
 * later ones something to name (a tool, an allocation id, a job). Returns the
 * first kind that got no usable answer (a timeout, a crash, garbage); an
 * error response counts as an answer.
 */
async function everyKind(c: Connection, capabilities: string[], scheduler: { nspace: string; rank: number }, steps: SmokeStep[]): Promise<{ step: string; error: unknown } | undefined> {
  const has = (cap: string) => capabilities.includes(cap);
  let tool = scheduler;
  let allocId = 'smoke';
  let job: string | undefined;
  const kinds: [string, () => Promise<string>][] = [
    ['connect-tool', async () => {
      const r = await c.request('connect-tool', { label: 'smoke' });
      tool = r.proc;
      return `tool ${r.proc.nspace}:${r.proc.rank}`;
    }],
    ['allocate', async () => {
      const r = await c.request('allocate', { requester: tool, directive: ALLOC_NEW, info: [{ key: 'pmix.alloc.nnodes', value: 1 }] });
      const id = r.info.find((i: { key: string; value: unknown }) => i.key === 'pmix.alloc.id')?.value;
      if (typeof id === 'string') allocId = id;
      return `PMIX_ALLOC_NEW for one node: status ${r.status}${typeof id === 'string' ? `, allocation ${id}` : ''}`;
    }],
    ['query-allocation', async () => {
      const r = await c.request('query-allocation', { requester: tool, qualifiers: [{ key: 'pmix.alloc.id', value: allocId }] });
      return `status ${r.status}`;
    }],
    ['spawn', async () => {
      const r = await c.request('spawn', { requester: tool, apps: [{ cmd: 'smoke', np: 1 }], info: [], ...(has('job-staging') ? { hold: 'map' as const } : {}) });
      if (r.nspace) job = r.nspace;
      return `one process${has('job-staging') ? ', held before mapping' : ''}: status ${r.status}${r.nspace ? `, job ${r.nspace}` : ''}`;
    }],
    ...(has('job-staging') ? [['advance-job', async () => (job ? `status ${(await c.request('advance-job', { nspace: job, to: 'launch' })).status}` : 'not sent: the spawn named no job')] as [string, () => Promise<string>]] : []),
    ['terminate-job', async () => (job ? `status ${(await c.request('terminate-job', { nspace: job })).status}` : 'not sent: the spawn named no job')],
    ...(has('introspection') || has('elastic-internals') ? [['inspect', async () => { await c.request('inspect', {}); return 'answered'; }] as [string, () => Promise<string>]] : []),
    ...(has('scheduler-policy') ? [['scheduler', async () => `grant-queued: status ${(await c.request('scheduler', { action: 'grant-queued' })).status}`] as [string, () => Promise<string>]] : []),
    ...(has('daemon-control') ? [['daemon', async () => `s1 reports: status ${(await c.request('daemon', { event: 'report', node: 's1' })).status}`] as [string, () => Promise<string>]] : []),
    // daemon-faults alone: keep a node no scenario names from starting (harmless: nothing launches it).
    ...(!has('daemon-control') && has('daemon-faults')
      ? [['daemon', async () => `smoke-unused fails to start: status ${(await c.request('daemon', { event: 'fail-to-start', node: 'smoke-unused' })).status}`] as [string, () => Promise<string>]]
      : []),
    ['disconnect-tool', async () => (tool === scheduler ? 'not sent: no tool connected' : `status ${(await c.request('disconnect-tool', { proc: tool })).status}`)],
  ];
  for (const [kind, send] of kinds) {
    const step = `scenario 1: ${kind} (one valid request; any answer will do)`;
    try {
      steps.push({ step, ok: true, detail: await send() });
    } catch (e) {
      if (e instanceof WireFault && e.kind === 'error-response') {
        steps.push({ step, ok: true, detail: `answered with an error response (the suite will judge it): ${e.message.split('\n')[0]}` });
        continue;
      }
      return { step, error: e };
    }
  }
  return undefined;
}

export function renderSmoke(command: string, r: SmokeResult): string {
  const out = [`smoke test of \`${command}\` (wire protocol ${PROTOCOL_VERSION})`];
  for (const s of r.steps) {
    out.push(`  ${s.ok ? 'ok  ' : 'FAIL'} ${s.step}`);
    out.push(...s.detail.split('\n').map((l) => `         ${l}`));
    if (s.hint) out.push(`       what to check: ${s.hint}`);
  }
  out.push(
    r.ok
      ? `PASSED: the harness speaks the protocol. Run the suite: pmix-conformance run --command ${JSON.stringify(command)}`
      : `FAILED at "${r.steps[r.steps.length - 1].step}". The protocol is described in schemas/README.md (a skeleton harness is at its end).`,
  );
  return out.join('\n');
}
