/** The benchmark's bounds: the profile share it reads, and the request count it makes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shareOf } from '../../bench/bounds';
import { createImplementation, requestsSoFar } from '../../bench/counting-adapter';

test('shareOf counts the samples whose innermost frame is in a matching file, idle time left out', () => {
  const profile = {
    nodes: [
      { id: 1, callFrame: { url: '', functionName: '(idle)' } },
      { id: 2, callFrame: { url: 'file:///x/reference/engine.ts', functionName: 'observe' } },
      { id: 3, callFrame: { url: 'file:///x/test/properties/elastic.property.test.ts', functionName: 'step' } },
    ],
    samples: [1, 2, 3, 3, 2, 1],
    timeDeltas: [5000, 1000, 1000, 1000, 1000, 9000],
  };
  assert.deepEqual(shareOf(profile, (f) => /\/reference\//.test(f.url)), { share: 0.5, profiledMs: 4 });
});

test('the counting adapter passes every call through to the reference engine and counts each one that is a wire request', async () => {
  const impl = createImplementation();
  await impl.describe(); // the handshake on the wire, not a request per scenario
  await impl.start({ startupNodes: [{ name: 'n1', slots: 2 }], schedulerNodes: [], withoutKeys: [], elastic: false });
  const snap = await impl.observe({});
  await impl.observe({ nodes: ['n1'] });
  assert.deepEqual(snap.nodes.map((n) => n.name), ['n1']);
  await impl.stop();
  assert.deepEqual(requestsSoFar(), { start: 1, observe: 2, stop: 1 });
});
