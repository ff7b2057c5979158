/** features/INTERPRETATIONS.md as a page: each interpretation point under its id (the anchor every IP-… link points at), with the scenarios and clauses that depend on it. */
import { a, esc, inlineMd, markdownBlock, paths, type Linker } from '../html';
import { tagged, type SiteData } from '../load';

export function interpretationsPage(site: SiteData, linker: Linker): { title: string; body: string } {
  const from = paths.interpretations();
  const doc = site.interpretations;
  const parts: string[] = [`<p class="muted">Rendered from <code>features/INTERPRETATIONS.md</code>.</p>`];
  const toc = doc.entries.map((e) => `<li>${a(from, paths.interpretations(e.id), esc(e.id))} — ${esc(e.title)}</li>`);
  parts.push(`<details><summary>All ${doc.entries.length} interpretation points</summary><ul class="compact">${toc.join('')}</ul></details>`);
  for (const b of doc.blocks) {
    if (b.kind === 'group') parts.push(`<h2>${inlineMd(b.title, from, linker)}</h2>`);
    else if (b.kind === 'prose') parts.push(markdownBlock(b.text, from, linker));
    else {
      const e = b.entry;
      const scenarios = site.scenarios.filter((s) => tagged(s.effectiveTags, 'interpretation').includes(e.id));
      const clauses = [...site.ipsOfClause].filter(([, ips]) => ips.includes(e.id)).map(([c]) => c).sort();
      const deps = [
        scenarios.length > 0 ? `Scenarios: ${scenarios.map((s) => a(from, paths.feature(s.uri, s.line), linker.prose(s.name, from))).join('; ')}` : '',
        clauses.length > 0 ? `Clauses: ${clauses.map((c) => a(from, paths.clause(c), esc(c), 'clause')).join(', ')}` : '',
      ].filter(Boolean);
      parts.push(`<section class="ip" id="${esc(e.id)}"><h3>${esc(e.id)} — ${inlineMd(e.title, from, linker)}</h3>${markdownBlock(e.text, from, linker)}${deps.length > 0 ? `<p class="muted">${deps.join('<br>')}</p>` : ''}</section>`);
    }
  }
  return { title: doc.title, body: parts.join('\n') };
}
