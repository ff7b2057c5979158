/** tools/profiles.ts: the PRRTE bridge's profile is what harnesses/prrte/capabilities.py declares, read from it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCapabilityName } from '../../seam/capabilities';
import { prrteBridgeCapabilities, prrteProfiles, runs } from '../../tools/profiles';

test('the PRRTE bridge profile is read from capabilities.py: daemon faults, no daemon stepping, only registered names', () => {
  const caps = prrteBridgeCapabilities();
  assert.ok(Array.isArray(caps), caps instanceof Error ? caps.message : '');
  for (const c of caps) assert.ok(isCapabilityName(c), `${c} is not a capability of seam/capabilities.ts`);
  assert.ok(caps.includes('elastic') && caps.includes('daemon-faults'));
  assert.ok(!caps.includes('daemon-control'));
  const [own, ...more] = prrteProfiles(caps);
  assert.deepEqual(own.capabilities, caps);
  assert.ok(more.some((p) => p.capabilities.includes('daemon-control')));
});

test('a python that cannot run is a reason, not a crash', () => {
  const r = prrteBridgeCapabilities('/nonexistent/python3');
  assert.ok(r instanceof Error);
  assert.match(r.message, /could not be run/);
});

test('a scenario runs when every capability it needs is declared', () => {
  assert.equal(runs(['@needs:elastic', '@needs:daemon-faults'], ['elastic', 'daemon-faults']), true);
  assert.equal(runs(['@needs:daemon-control'], ['elastic', 'daemon-faults']), false);
});
