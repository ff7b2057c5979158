/**
 * How many scenarios a capability profile runs: a live runtime can declare
 * only the public capabilities (seam/capabilities.ts CAPABILITY_KIND); a
 * bridge with a test scheduler that only warns adds scheduler-warning, one
 * that acts in every way scheduler-control, scheduler-policy and
 * scheduler-requests (it is also a PMIx client making requests); the reference engine
 * declares everything. Readings are ignored (each scenario runs under one
 * declared value or under all). A scenario tagged @without:<KEY> runs when the
 * profile lacks the key or can emulate lacking it.
 *
 *   node -r ./tools/register.js tools/profiles.ts
 */
import * as path from 'node:path';
import { CAPABILITIES, CAPABILITY_KIND, type CapabilityName } from '../seam/capabilities';
import { loadScenarios, tagValues } from './lib/scenarios';

const all = Object.keys(CAPABILITIES) as CapabilityName[];
const pub = all.filter((c) => CAPABILITY_KIND[c] === 'public');
const TEST_SCHEDULER: CapabilityName[] = ['scheduler-warning', 'scheduler-control', 'scheduler-policy', 'scheduler-requests'];

export const PROFILES: { name: string; capabilities: CapabilityName[] }[] = [
  { name: 'public interfaces only (a live runtime, no hooks)', capabilities: pub },
  { name: 'public + a test scheduler that can only warn (scheduler-warning)', capabilities: [...pub, 'scheduler-warning'] },
  { name: 'public + a test scheduler (scheduler-warning, scheduler-control, scheduler-policy, scheduler-requests)', capabilities: [...pub, ...TEST_SCHEDULER] },
  { name: 'public + test scheduler + daemon control (a bridge that launches the daemons)', capabilities: [...pub, ...TEST_SCHEDULER, 'daemon-control'] },
  { name: 'everything (the reference engine)', capabilities: all },
];

export function runs(tags: string[], caps: readonly string[]): boolean {
  if (!tagValues(tags, 'needs').every((n) => caps.includes(n))) return false;
  // @without:KEY runs if the key is absent or its absence can be emulated.
  return tagValues(tags, 'without').every((k) => !caps.includes(k) || caps.includes('emulate-missing-keys'));
}

if (require.main === module) {
  const scenarios = loadScenarios(path.resolve(__dirname, '..'));
  const elastic = scenarios.filter((s) => s.uri.startsWith('features/elastic/'));
  console.log(`capability profiles: how many of the ${scenarios.length} scenarios each runs (elastic: of ${elastic.length})`);
  for (const p of PROFILES) {
    const n = scenarios.filter((s) => runs(s.tags, p.capabilities)).length;
    const e = elastic.filter((s) => runs(s.tags, p.capabilities)).length;
    console.log(`  ${String(n).padStart(4)} (${((100 * n) / scenarios.length).toFixed(0)}%)  elastic ${String(e).padStart(3)}  ${p.name}`);
  }
  console.log(`public capabilities: ${pub.join(', ')}`);
}
