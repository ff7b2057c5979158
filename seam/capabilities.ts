/**
 * The registry of optional behaviour. An implementation declares what it
 * has; a scenario tagged `@needs:<name>` runs only against an implementation
 * that declares <name>, and a scenario tagged `@without:<KEY>` runs against
 * an implementation that lacks the key, or can emulate lacking it
 * (`emulate-missing-keys`). Tag names are linted against this table.
 */
export const CAPABILITIES = {
  PMIX_ALLOC_TARGET: 'the PMIx in use defines PMIX_ALLOC_TARGET ("pmix.alloc.tgt")',
  PMIX_ALLOC_SHARE: 'the PMIx in use defines PMIX_ALLOC_SHARE ("pmix.alloc.share")',
  PMIX_ALLOC_INHERITANCE: 'the PMIx in use defines PMIX_ALLOC_INHERITANCE ("pmix.alloc.inhrt") and pmix_alloc_inheritance_t',
  PMIX_ALLOC_WARN_TIMEOUT: 'the PMIx in use defines PMIX_ALLOC_WARN_TIMEOUT and the PMIX_ALLOC_TIMEOUT_WARNING event',
  PMIX_SPAWN_TARGET: 'the PMIx in use defines PMIX_SPAWN_TARGET ("pmix.spwn.tgt")',
  PMIX_DVM_MOD_EVENTS: 'the PMIx in use defines PMIX_DVM_IS_READY and PMIX_ERR_DVM_MOD',
  elastic: 'the DVM can run in elastic mode (prte_elastic_mode)',
  'job-staging': 'the harness can hold an accepted job before the map-eligible or the launch boundary and move it on at a chosen moment',
  'daemon-faults':
    'the harness can kill a chosen daemon (it crashes), keep a chosen daemon from starting (it fails to start), and let the steps wait for daemons that join or leave on their own; the runtime reports the failure\'s cause, which the harness need not choose',
  'daemon-control': 'the harness can step a chosen daemon on command (report in, be wired, exit, crash or fail to start, each when told and not before) and make the next shrink order fail',
  introspection: 'the harness can report an allocation\'s bookkeeping (owner sets, recorded dispositions, what was forwarded to the scheduler)',
  'elastic-internals':
    'the harness can report the elastic DVM\'s internal bookkeeping (the launch fence count, the campaigns in progress, the parked-job lists, the offers of completed shrinks): what the elastic spec calls implementation details, so no rule\'s verdict may depend on it alone',
  'emulate-missing-keys': 'the harness can start the implementation as if its PMIx lacked chosen optional keys',
  'scheduler-warning': 'the harness can make the scheduler issue PMIX_ALLOC_TIMEOUT_WARNING for an allocation at a chosen moment (a test scheduler that notifies the runtime through PMIx)',
  'scheduler-control': 'the harness can make the scheduler act on its own in the other ways: reclaim an allocation, push nodes, tear the DVM down, fail a shrink order',
  'scheduler-requests':
    'the harness has a scheduler process that itself makes PMIx requests (allocate, release, spawn) and receives their events, as the implicit owner of every session: a PMIx client in the scheduler\'s place',
  'alloc-lending': 'PMIX_ALLOC_RELEASE with PMIX_ALLOC_TIME lends nodes back, and PMIX_ALLOC_REAQUIRE takes them back',
  'query-alloc-status': 'PMIx_Query_info with PMIX_QUERY_ALLOC_STATUS answers how an allocation request stands',
  'partial-release': 'PMIX_ALLOC_RELEASE with PMIX_ALLOC_NODE_LIST or PMIX_ALLOC_NUM_NODES returns part of an allocation',
  'scheduler-policy': 'the harness can choose the host scheduler\'s policy where the allocation RFC leaves it open (queue or refuse a request it cannot grant now; how a reacquire is served) and make it work through its queue',
} as const;

export type CapabilityName = keyof typeof CAPABILITIES;

export const isCapabilityName = (s: string): s is CapabilityName =>
  Object.prototype.hasOwnProperty.call(CAPABILITIES, s);

/**
 * What a capability takes. `public`: a live runtime can offer it through its
 * public interfaces (PMIx keys and events, elastic mode, directives the host
 * implements) or from outside, as any harness can (kill a daemon, keep one
 * from starting: daemon-faults). `hook`: a test hook, which a real runtime offers only through
 * a harness that reaches inside it or fakes its surroundings (holding a job
 * at a boundary, driving daemons, reading bookkeeping, acting as the
 * scheduler). A profile of public capabilities is what a live runtime can
 * honestly declare.
 */
export const CAPABILITY_KIND: Record<CapabilityName, 'public' | 'hook'> = {
  PMIX_ALLOC_TARGET: 'public',
  PMIX_ALLOC_SHARE: 'public',
  PMIX_ALLOC_INHERITANCE: 'public',
  PMIX_ALLOC_WARN_TIMEOUT: 'public',
  PMIX_SPAWN_TARGET: 'public',
  PMIX_DVM_MOD_EVENTS: 'public',
  elastic: 'public',
  'alloc-lending': 'public',
  'query-alloc-status': 'public',
  'partial-release': 'public',
  'daemon-faults': 'public',
  'job-staging': 'hook',
  'daemon-control': 'hook',
  introspection: 'hook',
  'elastic-internals': 'hook',
  'emulate-missing-keys': 'hook',
  'scheduler-warning': 'hook',
  'scheduler-control': 'hook',
  'scheduler-requests': 'hook',
  'scheduler-policy': 'hook',
};
