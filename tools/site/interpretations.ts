/**
 * features/INTERPRETATIONS.md as a document: its introduction, its groups
 * (## headings) and its entries (### IP-… — title), each with its Markdown
 * body, for the interpretations page and for linking IP ids wherever they
 * are mentioned.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface InterpretationEntry {
  id: string;
  title: string;
  group: string;
  /** The entry's Markdown body (bullets and paragraphs). */
  text: string;
}

export interface InterpretationDoc {
  title: string;
  /** Markdown blocks in order: a group heading, prose, or an entry. */
  blocks: ({ kind: 'group'; title: string } | { kind: 'prose'; text: string } | { kind: 'entry'; entry: InterpretationEntry })[];
  entries: InterpretationEntry[];
  ids: Set<string>;
}

export function parseInterpretations(markdown: string): InterpretationDoc {
  const doc: InterpretationDoc = { title: 'Interpretation points', blocks: [], entries: [], ids: new Set() };
  let group = '';
  let current: InterpretationEntry | undefined;
  let prose: string[] = [];
  const flush = () => {
    if (current) {
      current.text = current.text.trim();
      doc.entries.push(current);
      doc.ids.add(current.id);
      doc.blocks.push({ kind: 'entry', entry: current });
      current = undefined;
    } else if (prose.join('').trim()) doc.blocks.push({ kind: 'prose', text: prose.join('\n').trim() });
    prose = [];
  };
  for (const line of markdown.split('\n')) {
    const h1 = /^#\s+(.*)$/.exec(line);
    const h2 = /^##\s+(.*)$/.exec(line);
    const h3 = /^###\s+(IP-[A-Z0-9-]+)\s+[—-]+\s+(.*)$/.exec(line);
    if (h1) {
      flush();
      doc.title = h1[1].trim();
    } else if (h2) {
      flush();
      group = h2[1].trim();
      doc.blocks.push({ kind: 'group', title: group });
    } else if (h3) {
      flush();
      current = { id: h3[1], title: h3[2].trim(), group, text: '' };
    } else if (current) current.text += `${line}\n`;
    else prose.push(line);
  }
  flush();
  return doc;
}

export function loadInterpretationDoc(root: string): InterpretationDoc {
  return parseInterpretations(fs.readFileSync(path.join(root, 'features', 'INTERPRETATIONS.md'), 'utf8'));
}
