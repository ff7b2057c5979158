/**
 * Steps for spawn targeting and session assignment: outcome-agnostic
 * isolation checks (where either a refusal or a placement elsewhere
 * conforms), "some process in the default session", and the numeric
 * PMIX_SESSION_ID an allocation response carries, so a spawn can name a
 * session by it.
 */
import { When, type DataTable } from '@cucumber/cucumber';
import { Then } from './support/claims';
import type { Info } from '../seam/messages';
import { Key } from '../seam/pmix';
import { spawn } from './support/actions';
import type { Actor } from './support/parameters';
import { ABSENT, keyString, parseValue, splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';

const UINT32_MAX = 4294967295;

/** Session ids the scenario has learnt from allocation responses, by the name it gave them. */
const sessionIds = new WeakMap<ConformanceWorld, Map<string, number>>();

function sessionsOf(world: ConformanceWorld): Map<string, number> {
  let m = sessionIds.get(world);
  if (!m) sessionIds.set(world, (m = new Map()));
  return m;
}

Then('no process of any job is on node(s) {string}', async function (this: ConformanceWorld, names: string) {
  await this.ready();
  const banned = new Set(splitNames(names));
  const snap = await this.snapshot({});
  const inside = snap.jobs.flatMap((j) => j.procs.filter((p) => banned.has(p.node)).map((p) => `${this.nameOf(j.nspace)} rank ${p.rank} on ${p.node}`));
  if (inside.length > 0) this.fail(`no process of any job on ${[...banned].join(', ')}`, inside.join('; '));
});

/** For a spawn the specification lets fail or succeed: if it succeeded, it must have kept off these nodes. */
Then('if job {string} was started, none of its processes is on node(s) {string}', async function (this: ConformanceWorld, alias: string, names: string) {
  if (!this.jobs.has(alias)) return;
  const banned = new Set(splitNames(names));
  const job = await this.observedJob(alias);
  const inside = job.procs.filter((p) => banned.has(p.node));
  if (inside.length > 0) this.fail(`no process of job ${alias} on ${[...banned].join(', ')}`, inside.map((p) => `rank ${p.rank} on ${p.node}`).join('; '));
});

Then('job {string} has processes in the default session', async function (this: ConformanceWorld, alias: string) {
  const snap = await this.snapshot({});
  const job = await this.observedJob(alias, snap);
  const defaultNodes = new Set(snap.nodes.filter((n) => n.availableTo === '').map((n) => n.name));
  if (!job.procs.some((p) => defaultNodes.has(p.node))) {
    this.fail(`a process of job ${alias} on a node of the default session (${[...defaultNodes].join(', ')})`, job.procs.map((p) => `rank ${p.rank} on ${p.node || '(nowhere)'}`).join('; ') || 'no processes');
  }
});

/**
 * The scheduler gives every session a numeric id, returned as
 * PMIX_SESSION_ID in the allocation response (PRRTE 7.2.2, prte_session_t).
 */
Then('the response\'s PMIX_SESSION_ID is known as session {string}', function (this: ConformanceWorld, alias: string) {
  const last = this.last;
  if (!last) throw new Error('no request was made');
  const id = last.info.find((i) => i.key === Key.PMIX_SESSION_ID)?.value;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > UINT32_MAX) {
    this.fail('a numeric (uint32) PMIX_SESSION_ID in the allocation response', id === undefined ? `none in ${JSON.stringify(last.info)}` : JSON.stringify(id));
  }
  sessionsOf(this).set(alias, id);
});

/** The attribute table of a spawn, where a value may also be `session S`: the PMIX_SESSION_ID learnt for S. */
function sessionInfo(world: ConformanceWorld, table: DataTable): Info[] {
  const info: Info[] = [];
  for (const [name, text] of table.raw()) {
    const m = /^session (\S+)$/.exec(text.trim());
    let value;
    if (m) {
      value = sessionsOf(world).get(m[1]);
      if (value === undefined) throw new Error(`the scenario has no session "${m[1]}"`);
    } else {
      value = parseValue(text, world);
    }
    if (value === ABSENT) continue;
    info.push({ key: keyString(name), value });
  }
  return info;
}

/**
 * Ownership does not rest on a session id being secret: a requester that
 * does not know a reservation's number can guess it. Names every id in the
 * range in turn (job "<alias>-<id>", one process each); the scenario then
 * says where none of them may have landed. Each spawn may be refused (no
 * such session, or not the requester's) or accepted into a session the
 * requester may use; which, the scenario does not care. It needs no
 * PMIX_SESSION_ID from a response, so it runs whatever the implementation
 * declares for reading session-id-in-response.
 */
When('{actor} spawns job {string} with 1 process naming, in turn, each PMIX_SESSION_ID from {int} to {int}', async function (this: ConformanceWorld, actor: Actor, alias: string, from: number, to: number) {
  for (let id = from; id <= to; id++) await spawn(this, actor, `${alias}-${id}`, [{ cmd: alias, np: 1 }], [{ key: Key.PMIX_SESSION_ID, value: id }]);
});

When('{actor} spawns job {string} with {int} process(es), naming its session with:', async function (this: ConformanceWorld, actor: Actor, alias: string, np: number, table: DataTable) {
  await spawn(this, actor, alias, [{ cmd: alias, np }], sessionInfo(this, table));
});
