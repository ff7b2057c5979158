/**
 * Tag-driven hooks: every scenario gets a fresh implementation; @needs and
 * @without tags decide whether it can run against this implementation, and
 * say why when it cannot.
 */
import { After, Before, BeforeAll, Status, setDefaultTimeout, setWorldConstructor } from '@cucumber/cucumber';
import * as path from 'node:path';
import { OPTIONAL_KEYS, type OptionalKeyName } from '../../seam/pmix';
import { readingTag } from '../../seam/readings';
import { SCHEDULER_POLICIES } from './policies';
import type { AdapterModule } from '../../seam/implementation';
import { ImplementationFault } from './failures';
import { judgeFinalClaimsAgain } from './claims';
import { checkFrame } from './frame-check';
import { COMPARES_WITH_BEFORE, ConformanceWorld } from './world';

setWorldConstructor(ConformanceWorld);

setDefaultTimeout(60_000);

// Machine-readable attachments for tools/report.ts (the media types are repeated in tools/lib/run.ts,
// which must not import this file: it registers hooks).
const SKIP_MEDIA_TYPE = 'application/vnd.pmix-conformance.skip+json';
const IMPLEMENTATION_MEDIA_TYPE = 'application/vnd.pmix-conformance.implementation+json';
let announced = false;

/** Skip the scenario, saying why for people (a log line, shown in the HTML report) and for the report (JSON: every capability it lacks). */
function skip(world: ConformanceWorld, reason: string, capability: string, capabilities: string[] = [capability]): 'skipped' {
  world.log(`skipped: ${reason}`);
  world.attach(JSON.stringify({ reason, capability, capabilities }), SKIP_MEDIA_TYPE);
  return 'skipped';
}

/**
 * Before any scenario: the implementation can be loaded and describes
 * itself. If not (a wrong module path, a command that does not start, a
 * broken handshake), the run stops here with one diagnosis instead of the
 * same failure once per scenario.
 */
BeforeAll({ timeout: 120_000 }, async function () {
  announced = false; // once per run, and a process may make several (tools/lib/suite-worker.ts)
  const adapter = ConformanceWorld.adapterPath(this.parameters ?? {});
  let mod: AdapterModule;
  try {
    mod = require(adapter) as AdapterModule;
  } catch (e) {
    throw new Error(`the adapter module ${adapter} cannot be loaded (PMIX_CONFORMANCE_ADAPTER or the adapter world parameter): ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof mod.createImplementation !== 'function') throw new Error(`the adapter module ${adapter} exports no createImplementation()`);
  const impl = mod.createImplementation();
  try {
    await impl.describe();
  } catch (e) {
    throw new Error(`the implementation cannot start, so no scenario was run: ${(e as Error).message}\n(diagnose a harness with: pmix-conformance smoke --command "<harness>")`);
  } finally {
    await impl.stop().catch(() => undefined);
  }
});

Before(async function (this: ConformanceWorld, { pickle }) {
  const tags = pickle.tags.map((t) => t.name);
  this.clauses = tags.filter((t) => t.startsWith('@clause:')).map((t) => t.slice('@clause:'.length));
  this.needs = new Set(tags.filter((t) => t.startsWith('@needs:')).map((t) => t.slice('@needs:'.length)));
  this.recordsBefore = pickle.steps.some((s) => COMPARES_WITH_BEFORE.has(s.text));
  await this.open();
  if (!announced) {
    // Once per run (per worker): who is under test, for the report's header.
    announced = true;
    const adapter = path.relative(process.cwd(), ConformanceWorld.adapterPath(this.parameters));
    this.attach(JSON.stringify({ ...this.description, adapter }), IMPLEMENTATION_MEDIA_TYPE);
    this.log(`implementation under test: ${this.description.name} ${this.description.version} (adapter ${adapter}); declares ${this.description.capabilities.join(', ') || 'no capabilities'}`);
  }
  // Every capability the scenario needs and the implementation lacks, named at once.
  const missing = [...this.needs].filter((c) => !this.has(c));
  if (missing.length > 0) {
    const list = missing.map((c) => `"${c}"`).join(', ');
    return skip(this, `${this.description.name} does not declare ${missing.length === 1 ? 'capability' : 'capabilities'} ${list}`, missing[0], missing);
  }
  for (const tag of tags) {
    const reading = readingTag(tag);
    if (reading) {
      // A scenario that holds under one reading of the documents only (seam/readings.ts); what holds
      // under every value is checked beside it, untagged, so skipping this hides no violation.
      const declared = (this.description.readings as Record<string, string> | undefined)?.[reading.name];
      if (declared !== reading.value) {
        const says = declared === undefined ? 'declares no value for' : `declares "${declared}" for`;
        return skip(this, `${this.description.name} ${says} reading "${reading.name}"; this scenario holds under "${reading.value}" only (what holds under every value ran beside it)`, `reading:${reading.name}=${reading.value}`);
      }
    }
    if (tag.startsWith('@scheduler:')) {
      // The host scheduler's policy, where the allocation RFC leaves it open; set before any step starts the DVM.
      if (!this.has('scheduler-policy')) {
        return skip(this, `${this.description.name} cannot choose its scheduler's policy (capability "scheduler-policy")`, 'scheduler-policy');
      }
      const policy = SCHEDULER_POLICIES[tag.slice('@scheduler:'.length)];
      if (!policy) throw new Error(`${tag}: unknown scheduler policy (known: ${Object.keys(SCHEDULER_POLICIES).join(', ')})`);
      this.setup.scheduler = { ...this.setup.scheduler, ...policy };
    }
    if (tag.startsWith('@without:')) {
      const key = tag.slice('@without:'.length) as OptionalKeyName;
      if (!OPTIONAL_KEYS.includes(key)) throw new Error(`@without names ${key}, which is not an optional key`);
      if (!this.has(key)) continue; // the implementation genuinely lacks it
      if (!this.has('emulate-missing-keys')) {
        return skip(this, `${this.description.name} has ${key} and cannot be started without it (capability "emulate-missing-keys")`, 'emulate-missing-keys');
      }
      this.withoutKey(key);
    }
  }
  return undefined;
});

// For the report: how many implementation processes the run has started so far (restarts after faults).
const PROCESS_MEDIA_TYPE = 'application/vnd.pmix-conformance.processes+json';

After(async function (this: ConformanceWorld, { result }) {
  if (!this.impl) return;
  try {
    // Against a runtime whose effects trail its answers, what the scenario
    // last claimed must still hold once the runtime has finished reacting.
    if (this.trails && result?.status === Status.PASSED) await judgeFinalClaimsAgain(this);
    // And nothing happened that nothing the scenario did can explain (frame.ts).
    if (result?.status === Status.PASSED) await checkFrame(this);
  } finally {
    await stopImplementation(this);
  }
});

async function stopImplementation(world: ConformanceWorld): Promise<void> {
  const started = (): void => {
    const n = world.impl.processesStarted?.();
    if (n !== undefined) world.attach(JSON.stringify({ processesStarted: n }), PROCESS_MEDIA_TYPE);
  };
  try {
    // A fault while stopping is reported (this scenario errors), never swallowed.
    await world.impl.stop();
  } catch (e) {
    throw new ImplementationFault('stop', e instanceof Error ? e.message : String(e));
  } finally {
    started();
  }
}
