/** The docs restate the registries only through generated sections, and those are current. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { CAPABILITIES } from '../../seam/capabilities';
import { COMMANDS } from '../../protocol/messages';
import { HARNESS_DOC, regenerate } from '../../tools/docs';

const text = fs.readFileSync(HARNESS_DOC, 'utf8');

test('docs/writing-a-harness.md: the generated capability table and message list equal the registries (else: tools/docs.ts --write)', () => {
  assert.equal(text, regenerate(text));
});

test('docs/writing-a-harness.md names every capability and every message', () => {
  for (const c of Object.keys(CAPABILITIES)) assert.ok(text.includes(`| \`${c}\` |`), `capability ${c} is not in the table`);
  for (const c of COMMANDS) assert.ok(text.includes(`| \`${c}\` |`), `message ${c} is not in the list`);
});

test('docs/writing-a-harness.md no longer says what stopped being true', () => {
  assert.doesNotMatch(text, /PRRTE ships a test\s+scheduler/);
  assert.doesNotMatch(text, /else they are reported errored/);
});
