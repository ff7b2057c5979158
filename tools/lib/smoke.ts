/**
 * A smoke test of a wire-protocol harness, before a full run: does the
 * command start, answer the handshake, bring up a DVM, report what it sees
 * and stop, and can the same process serve a second scenario? Each step
 * says what went wrong and what to check, so a harness author gets a
 * diagnosis in seconds instead of 400 errored scenarios.
 */
import { Connection, WireFault, type FaultKind } from '../../protocol/connection';
import { PROTOCOL_VERSION } from '../../protocol/messages';
import { shellWords } from '../../protocol/shell-words';
import type { ClusterSetup } from '../../seam/messages';

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
    detail: `"${d.name}" version ${d.version} speaks ${PROTOCOL_VERSION}; declares ${d.capabilities.length ? d.capabilities.join(', ') : 'no capabilities (scenarios needing one will be skipped)'}`,
  });

  const scenario = async (round: string): Promise<SmokeResult | undefined> => {
    try {
      const started = await c.request('start', SMOKE_SETUP);
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
