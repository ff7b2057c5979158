/**
 * One bug, one clause. A scenario usually cites several clauses (the rule it
 * judges and the rules its setup relies on); when a step fails, the failure
 * is charged to the clause that step checks, so a broken rule shows up once
 * in the report rather than under every clause its scenarios cite.
 *
 * A step names what it checks by a selector over the scenario's cited
 * clauses (a rejection step: the clause that names the status it expects; a
 * "nothing changed" step: the no-partial-effect clause of the operation).
 * When the selector picks exactly one cited clause, the failure is charged to
 * it; otherwise (no selector, none or several picked) to every cited clause,
 * as before, and the report says so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface ClauseFacts {
  status?: string;
}

let facts: Map<string, ClauseFacts> | undefined;

/** The registry's facts a selector may look at, read once from clauses/*.json (data, not code). */
function clauseFacts(): Map<string, ClauseFacts> {
  if (facts) return facts;
  facts = new Map();
  const dir = path.resolve(__dirname, '..', '..', 'clauses');
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const doc = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { clauses?: { id: string; status?: string }[] };
    for (const c of doc.clauses ?? []) facts.set(c.id, { status: c.status });
  }
  return facts;
}

export type ClauseSelector = (id: string, facts: ClauseFacts) => boolean;

/** The cited clauses a failing step is charged to. */
export function charged(cited: string[], select?: ClauseSelector): string[] {
  if (!select) return cited;
  const picked = cited.filter((id) => select(id, clauseFacts().get(id) ?? {}));
  return picked.length === 1 ? picked : cited;
}

/** The clause that names this status (the error table's row). */
export const namingStatus =
  (statusName: string): ClauseSelector =>
  (_id, f) =>
    f.status === statusName;

/** The no-partial-effect rule of the operation that was refused. */
export const noEffectOf =
  (operation: string | undefined): ClauseSelector =>
  (id) =>
    operation !== undefined && /PMIx_Spawn/.test(operation) ? id === 'NR.reject.spawn-no-effect' : id === 'NR.reject.alloc-no-effect';

/** One named clause, when the scenario cites it. */
export const clause =
  (wanted: string): ClauseSelector =>
  (id) =>
    id === wanted;

/** The clause of a completion event's payload key: ED.event.{ready,mod}-{alloc-id,req-id,cause}. */
export const payloadClause = (code: 'ready' | 'mod', key: 'alloc-id' | 'req-id' | 'cause'): ClauseSelector => clause(`ED.event.${code}-${key}`);

/** A refused request whose status the specification does not name: for a RELEASE, the rule of who may release. */
export const refusalOf =
  (operation: string | undefined): ClauseSelector =>
  (id) =>
    operation !== undefined && /PMIX_ALLOC_RELEASE/.test(operation) && id === 'NR.trigger.owner-release';
