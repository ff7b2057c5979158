/** Loading the clause registry (clauses/*.json) and the interpretation points (features/INTERPRETATIONS.md). */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Clause {
  id: string;
  section: string;
  kind: string;
  text: string;
  status?: string;
  retired?: boolean;
  /** An interpretation point decided against this (lower-authority) clause. */
  overruledBy?: string;
  /** Why no runtime can be tested for this clause through the seam (a PMIx library fact, an API outside the seam). */
  notTestable?: string;
  /** Filled in on load: which document it came from. */
  document: string;
  prefix: string;
}

export interface Registry {
  clauses: Map<string, Clause>;
  documents: { prefix: string; document: string; title: string; authority: string; count: number }[];
  duplicates: string[];
}

export function loadRegistry(root: string): Registry {
  const dir = path.join(root, 'clauses');
  const clauses = new Map<string, Clause>();
  const documents: Registry['documents'] = [];
  const duplicates: string[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const prefix = path.basename(file, '.json');
    const data = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
      document: string;
      title: string;
      authority: string;
      clauses: Omit<Clause, 'document' | 'prefix'>[];
    };
    if (!Array.isArray(data.clauses)) continue; // not a clause file
    documents.push({ prefix, document: data.document, title: data.title, authority: data.authority, count: data.clauses.length });
    for (const c of data.clauses) {
      if (clauses.has(c.id)) duplicates.push(c.id);
      clauses.set(c.id, { ...c, document: data.document, prefix });
    }
  }
  return { clauses, documents, duplicates };
}

/** The ids of INTERPRETATIONS.md: every "### IP-… — title" heading. */
export function loadInterpretations(root: string): Map<string, string> {
  const text = fs.readFileSync(path.join(root, 'features', 'INTERPRETATIONS.md'), 'utf8');
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^###\s+(IP-[A-Z0-9-]+)\s+[—-]+\s+(.*)$/gm)) out.set(m[1], m[2].trim());
  return out;
}

/** Glob-ish id patterns: "NR.route.*" or an exact id. */
export function matches(id: string, pattern: string): boolean {
  if (pattern.endsWith('*')) return id.startsWith(pattern.slice(0, -1));
  return id === pattern;
}
