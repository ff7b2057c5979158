/**
 * The parts of the docs that restate a registry are generated from it, so
 * they cannot drift: the capability table of docs/writing-a-harness.md
 * (from seam/capabilities.ts) and the list of wire messages (from schemas/).
 *
 *   node -r ./tools/register.js tools/docs.ts          # exit 1 if a doc is stale
 *   node -r ./tools/register.js tools/docs.ts --write  # regenerate
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CAPABILITIES, CAPABILITY_KIND, type CapabilityName } from '../seam/capabilities';
import { COMMANDS, METHOD_OF } from '../protocol/messages';

const ROOT = path.resolve(__dirname, '..');
export const HARNESS_DOC = path.join(ROOT, 'docs', 'writing-a-harness.md');

export function capabilityTable(): string {
  const rows = (Object.keys(CAPABILITIES) as CapabilityName[]).map((c) => `| \`${c}\` | ${CAPABILITY_KIND[c]} | ${CAPABILITIES[c]} |`);
  return ['| capability | kind | declare it if |', '|---|---|---|', ...rows].join('\n');
}

export function messageList(): string {
  const rows = COMMANDS.map((c) => {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', `${c}-request.json`), 'utf8')) as { description?: string };
    return `| \`${c}\` | \`${METHOD_OF[c]}\` | ${(schema.description ?? '').split('. ')[0].replace(/\|/g, '\\|')} |`;
  });
  return ['| message | seam method | what it asks |', '|---|---|---|', ...rows].join('\n');
}

const SECTIONS: Record<string, () => string> = { capabilities: capabilityTable, messages: messageList };

/** The document with every generated section replaced by its current text. */
export function regenerate(text: string): string {
  let out = text;
  for (const [name, render] of Object.entries(SECTIONS)) {
    const re = new RegExp(`(<!-- generated: ${name}[^>]*-->\\n)[\\s\\S]*?(<!-- end: ${name} -->)`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}${render()}\n${close}`);
  }
  return out;
}

if (require.main === module) {
  const text = fs.readFileSync(HARNESS_DOC, 'utf8');
  const fresh = regenerate(text);
  if (process.argv.includes('--write')) {
    fs.writeFileSync(HARNESS_DOC, fresh);
    console.log(`docs: ${path.relative(ROOT, HARNESS_DOC)} regenerated`);
  } else if (fresh !== text) {
    console.error(`docs: ${path.relative(ROOT, HARNESS_DOC)} is stale; run node -r ./tools/register.js tools/docs.ts --write`);
    process.exit(1);
  }
}
