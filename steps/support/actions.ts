/**
 * The requests steps make, in one place: resolving the scenario's names,
 * recording what each request returned and what the DVM looked like before
 * it (for "nothing changed"), and naming what the implementation minted.
 */
import type { DataTable } from '@cucumber/cucumber';
import type { AppSpec, Info, ProcId, SchedulerAction } from '../../seam/messages';
import { ACCEPTED_STATUSES, describeStatus, directiveName, Key, keyName, Status } from '../../seam/pmix';
import type { Actor } from './parameters';
import { ABSENT, keyString, parseValue } from './values';
import type { ConformanceWorld } from './world';

export function procOf(world: ConformanceWorld, actor: Actor): ProcId {
  switch (actor.kind) {
    case 'scheduler':
      return world.schedulerAsRequester();
    case 'tool':
      return world.tool(actor.alias);
    case 'job':
      return { nspace: world.jobNspace(actor.alias), rank: actor.rank };
  }
}

export function actorName(actor: Actor): string {
  if (actor.kind === 'scheduler') return 'the scheduler';
  return `${actor.kind} ${actor.alias}${actor.kind === 'job' && actor.rank !== 0 ? ` rank ${actor.rank}` : ''}`;
}

/** A two-column table | attribute | value | into a PMIx info array. */
export function infoFrom(world: ConformanceWorld, table: DataTable | undefined): Info[] {
  if (!table) return [];
  const info: Info[] = [];
  for (const [name, text] of table.raw()) {
    // "… (required)" sets PMIX_INFO_REQD on the attribute.
    const required = /\s\(required\)$/.test(text);
    const value = parseValue(required ? text.replace(/\s\(required\)$/, '') : text, world);
    if (value === ABSENT) continue;
    info.push({ key: keyString(name), value, ...(required ? { required: true } : {}) });
  }
  return info;
}

/** A request a Given step makes to set the scene: nothing is compared with what was before it. */
export interface RequestOptions {
  setup?: boolean;
}

export async function allocate(world: ConformanceWorld, actor: Actor, directive: number, info: Info[], alias?: string, options: RequestOptions = {}) {
  await world.ready();
  const requester = procOf(world, actor);
  const before = options.setup ? undefined : await world.observeBefore();
  const result = await world.call('allocate', () => world.impl.allocate({ requester, directive, info }));
  world.last = {
    operation: `${actorName(actor)}: PMIx_Allocation_request(${directiveName(directive)}, ${formatInfo(world, info)})`,
    status: result.status,
    info: result.info,
    before,
  };
  if (alias !== undefined && accepted(result.status)) {
    const id = result.info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value;
    // An accepted request that is still in progress may not have an allocation yet (queued by the scheduler).
    if (result.status === Status.PMIX_OPERATION_IN_PROGRESS && id === undefined) return result;
    if (typeof id !== 'string' || id === '') {
      world.clauses = [...world.clauses, 'NR.report.alloc-id'];
      world.fail(`the successful response to carry a PMIX_ALLOC_ID naming allocation ${alias}`, id === undefined ? 'no PMIX_ALLOC_ID in the response' : `PMIX_ALLOC_ID ${JSON.stringify(id)}`);
    }
    world.allocations.set(alias, id);
  }
  return result;
}

export async function spawn(world: ConformanceWorld, actor: Actor, alias: string, apps: AppSpec[], info: Info[], options: RequestOptions = {}) {
  await world.ready();
  const requester = procOf(world, actor);
  const before = options.setup ? undefined : await world.observeBefore();
  const result = await world.call('spawn', () => world.impl.spawn({ requester, apps, info }));
  world.last = {
    operation: `${actorName(actor)}: PMIx_Spawn(job ${alias}: ${apps.map((a) => `${a.np} x ${a.cmd}${a.hosts ? ` on ${a.hosts.join(',')}` : ''}`).join(' + ')}; ${formatInfo(world, info)})`,
    status: result.status,
    info: result.info,
    before,
    nspace: result.nspace,
  };
  if (accepted(result.status)) {
    if (typeof result.nspace !== 'string' || result.nspace === '') {
      world.fail('a successful spawn to return the new job\'s namespace', `status ${describeStatus(result.status)} with namespace ${JSON.stringify(result.nspace)}`);
    }
    world.jobs.set(alias, result.nspace);
  }
  return result;
}

/**
 * The statuses a client must treat as "the request was accepted": where the
 * specification says a request succeeds or is accepted without naming a
 * status, any of them will do (seam/pmix ACCEPTED_STATUSES).
 */
export const accepted = (status: number): boolean => ACCEPTED_STATUSES.includes(status);

/** How the expectation reads in a failure message. */
export const ACCEPTED = 'an accepted status (PMIX_SUCCESS, PMIX_OPERATION_SUCCEEDED or PMIX_OPERATION_IN_PROGRESS)';

export function formatInfo(world: ConformanceWorld, info: Info[]): string {
  if (info.length === 0) return 'no attributes';
  // "" reads as the tables write it, "the invalid namespace" (as a spawn target it denotes the default session), not as nameOf's "the default session".
  const empty = (key: string): string => (key === 'PMIX_SPAWN_TARGET' ? 'the invalid namespace (the default session)' : key === 'PMIX_ALLOC_TARGET' ? 'the invalid namespace' : '""');
  const show = (key: string, v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map((x) => show(key, x)).join(', ')}]`;
    if (v === '') return empty(key);
    return typeof v === 'string' ? world.nameOf(v) : String(v);
  };
  return info.map((i) => `${keyName(i.key)}=${show(keyName(i.key), i.value)}`).join(', ');
}

/** The last request was accepted (PMIX_SUCCESS, PMIX_OPERATION_SUCCEEDED or PMIX_OPERATION_IN_PROGRESS). */
export function requireAccepted(world: ConformanceWorld): void {
  const last = world.last;
  if (!last) throw new Error('no request was made');
  if (!accepted(last.status)) world.fail(ACCEPTED, describeStatus(last.status));
}

/**
 * Something the scheduler does on its own initiative (a reclaim, a teardown,
 * pushing daemons), recorded like a request so that failures name it.
 */
export async function schedulerActs(world: ConformanceWorld, operation: string, action: SchedulerAction): Promise<void> {
  await world.ready();
  const before = await world.observeBefore();
  const ack = await world.call('scheduler', () => world.impl.scheduler(action));
  world.last = { operation, status: ack.status, info: [], before };
  if (ack.status !== Status.PMIX_SUCCESS) world.fail(`${operation} to be carried out`, describeStatus(ack.status));
}
