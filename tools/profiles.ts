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
 * Beside them, the PRRTE bridge's own profile: what
 * harnesses/prrte/capabilities.py declares (read from it with python3,
 * assuming a PMIx that defines every key it checks for, as the tested
 * install does), and the profiles of the test hooks it lacks.
 *
 *   node -r ./tools/register.js tools/profiles.ts
 */
import { spawnSync } from 'node:child_process';
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
  { name: 'public + test scheduler + daemon control (a bridge that steps the daemons it launches)', capabilities: [...pub, ...TEST_SCHEDULER, 'daemon-control'] },
  { name: 'everything (the reference engine)', capabilities: all },
];

export function runs(tags: string[], caps: readonly string[]): boolean {
  if (!tagValues(tags, 'needs').every((n) => caps.includes(n))) return false;
  // @without:KEY runs if the key is absent or its absence can be emulated.
  return tagValues(tags, 'without').every((k) => !caps.includes(k) || caps.includes('emulate-missing-keys'));
}

const PRRTE_CAPABILITIES_PY = path.resolve(__dirname, '..', 'harnesses', 'prrte', 'capabilities.py');

/**
 * What the PRRTE bridge declares in its handshake with a PMIx that defines
 * every key capabilities.py checks for: capabilities(list(KEY_CAPABILITIES)),
 * read from the bridge's own module, so the profile cannot drift from it.
 * An Error (the reason) when python3 cannot read it.
 */
export function prrteBridgeCapabilities(python = 'python3'): string[] | Error {
  const code = [
    'import json, sys',
    `sys.path.insert(0, ${JSON.stringify(path.dirname(PRRTE_CAPABILITIES_PY))})`,
    'import capabilities as c',
    'print(json.dumps(c.capabilities(list(c.KEY_CAPABILITIES))))',
  ].join('\n');
  const r = spawnSync(python, ['-c', code], { encoding: 'utf8' });
  if (r.error) return new Error(`${python} could not be run: ${r.error.message}`);
  if (r.status !== 0) return new Error(`${python} could not read ${path.relative(process.cwd(), PRRTE_CAPABILITIES_PY)}: ${r.stderr.trim().split('\n').pop()}`);
  try {
    const caps = JSON.parse(r.stdout) as unknown;
    if (Array.isArray(caps) && caps.every((c) => typeof c === 'string')) return caps as string[];
  } catch {
    // fall through
  }
  return new Error(`capabilities.py answered something that is not a list of names: ${r.stdout.trim()}`);
}

/** The PRRTE bridge's profiles: what it declares, and that plus each missing hook group. */
export function prrteProfiles(bridge: string[]): { name: string; capabilities: string[] }[] {
  const missing = (cs: CapabilityName[]) => cs.filter((c) => !bridge.includes(c));
  const out = [{ name: `the PRRTE bridge as it declares (harnesses/prrte/capabilities.py: ${bridge.join(', ')})`, capabilities: bridge }];
  const extra: [string, CapabilityName[]][] = [
    ['+ partial-release', ['partial-release']],
    ['+ a test scheduler', TEST_SCHEDULER],
    ['+ daemon-control', ['daemon-control']],
    ['+ job-staging', ['job-staging']],
    ['+ elastic-internals and introspection', ['elastic-internals', 'introspection']],
  ];
  for (const [label, cs] of extra) if (missing(cs).length > 0) out.push({ name: `the PRRTE bridge ${label}`, capabilities: [...bridge, ...missing(cs)] });
  return out;
}

if (require.main === module) {
  const scenarios = loadScenarios(path.resolve(__dirname, '..'));
  const elastic = scenarios.filter((s) => s.uri.startsWith('features/elastic/'));
  const line = (p: { name: string; capabilities: readonly string[] }) => {
    const n = scenarios.filter((s) => runs(s.tags, p.capabilities)).length;
    const e = elastic.filter((s) => runs(s.tags, p.capabilities)).length;
    return `  ${String(n).padStart(4)} (${((100 * n) / scenarios.length).toFixed(0)}%)  elastic ${String(e).padStart(3)}  ${p.name}`;
  };
  console.log(`capability profiles: how many of the ${scenarios.length} scenarios each runs (elastic: of ${elastic.length})`);
  for (const p of PROFILES) console.log(line(p));
  console.log(`public capabilities: ${pub.join(', ')}`);
  const bridge = prrteBridgeCapabilities();
  if (bridge instanceof Error) {
    console.log(`the PRRTE bridge's profile: not read (${bridge.message})`);
  } else {
    console.log(`the PRRTE bridge (every key defined; readings ignored, so an Examples row of a reading it does not declare is counted):`);
    for (const p of prrteProfiles(bridge)) console.log(line(p));
  }
}
