import type { Readings } from '../seam/readings';

/**
 * Variation points of the reference engine: the freedoms the specification
 * leaves an implementation. The default engine (no variant) is one conforming
 * implementation; each field below selects another, equally conforming, way
 * of doing one thing. The known-good implementations (known-good/*.ts) each
 * turn on one of them, and the self-test requires the whole suite to pass
 * against every one: a scenario that fails a variant asserts more than the
 * specification says.
 *
 * Every field is optional and absent means the default engine's behaviour.
 * Each comment names the freedom and, in brackets, the default.
 */
export interface EngineVariant {
  // ------------------------------------------------------------ mapping
  /**
   * How processes are laid onto a job's candidate nodes. The specification
   * governs *which* nodes a job may use, never the layout [by-slot: fill each
   * candidate node in order before the next].
   *  by-node:     one process per candidate node in turn, round the list;
   *  reversed:    by-slot over the candidate nodes in reverse order;
   *  round-robin: like by-node, but each job starts one node further on than the last job did.
   */
  mapping?: 'by-slot' | 'by-node' | 'reversed' | 'round-robin';
  /** Place processes past a node's slot count once every candidate node is full, instead of refusing the spawn [false]. */
  oversubscribe?: boolean;
  /** Processes of a tool app (AppSpec.tool) take a slot like any other [false: they take none]. */
  toolProcsTakeSlots?: boolean;

  // ------------------------------------------------------------ identifiers
  /** The form of minted PMIX_ALLOC_IDs [owner-session: "<owner nspace>.<session id>"]; opaque: no visible structure, e.g. "a7f3-0001". */
  allocIdFormat?: 'owner-session' | 'opaque';
  /** The form of minted namespaces [prte: "prte-job@N", "prte-tool@N"]; opaque: no visible structure. */
  nspaceFormat?: 'prte' | 'opaque';
  /** Session ids (PMIX_SESSION_ID) advance by this much, so they are sparse [1]. */
  sessionIdStride?: number;
  /** Event sequence numbers advance by this much, leaving gaps (EventView.seq is only an order) [1]. */
  eventSeqStride?: number;

  // ------------------------------------------------------------ statuses
  /**
   * The status of an *accepted* allocation request that starts a grow or a
   * shrink campaign in elastic mode: the spec says only that the response
   * confirms acceptance [PMIX_SUCCESS]. Value: a status number from
   * seam/pmix ACCEPTED_STATUSES.
   */
  sizeChangeAcceptStatus?: number;
  /** The status for a request the scheduler cannot satisfy, and for a spawn that cannot be mapped; the spec names none [PMIX_ERR_OUT_OF_RESOURCE]. */
  refusalStatus?: number;
  /** Allocation responses carry PMIX_SESSION_ID [true]. */
  sessionIdInResponse?: boolean;

  // ------------------------------------------------------------ readings the documents leave open
  /** Which PMIX_ALLOC_REQ_ID a PMIX_ALLOC_TIMEOUT_WARNING carries [creation: the id of the request that created the allocation]; latest: of the latest successful NEW/EXTEND. */
  warningRequestId?: 'creation' | 'latest';
  /** Which PMIX_ALLOC_REQ_ID a completion event carries [driving: the id on the request that drove this size change]; creation: the id of the request that created the allocation. */
  completionRequestId?: 'driving' | 'creation';
  /** PMIX_ALLOC_INHERITANCE on an EXTEND [replace: it replaces the recorded disposition]; keep: the disposition selected at creation stays. */
  extendInheritance?: 'replace' | 'keep';
  /** Which jobs a failed grow aborts [parked-during-grow: jobs that parked at the map-eligible boundary while it was in progress]; all-parked-at-map: every job parked at the map-eligible boundary when it fails. */
  growFailureAborts?: 'parked-during-grow' | 'all-parked-at-map';
  /** A release that arrives while a grow is pending [immediate: processed at once, its own shrink]; deferred: accepted at once, carried out when no grow is pending (as PRRTE does). */
  releaseDuringGrow?: 'immediate' | 'deferred';
  /** The terminal event a shrink still pending at DVM teardown gets [is-ready]; dvm-mod: PMIX_ERR_DVM_MOD. */
  teardownPendingShrink?: 'is-ready' | 'dvm-mod';
  /** The info key under which PMIX_ERR_DVM_MOD carries its cause; the spec says only "in the event's info array" [pmix.job.term.status]. */
  failureCauseKey?: string;
  /** Who requested a scheduler reclaim's shrink [none: no requester, no event]; scheduler: the scheduler's process, which then gets the completion event. */
  reclaimRequester?: 'none' | 'scheduler';
  /** Which target of a PMIX_SPAWN_TARGET list becomes the job's primary session [first: the first valid entry]; last: the last valid entry. */
  primaryTarget?: 'first' | 'last';
  /** A job mapped (held before launch) onto a node lost outside any campaign [remap: remapped at the launch boundary]; fail: it fails to launch (FAILED_TO_MAP). */
  staleMappingOutsideCampaign?: 'remap' | 'fail';
}

/** The readings (seam/readings.ts) an engine with this variant takes: what it declares. */
export function readingsOf(v: EngineVariant): Readings {
  return {
    'completion-request-id': v.completionRequestId ?? 'driving',
    'warning-request-id': v.warningRequestId ?? 'creation',
    'grow-failure-aborts': v.growFailureAborts ?? 'parked-during-grow',
    'teardown-pending-shrink': v.teardownPendingShrink ?? 'is-ready',
    'reclaim-requester': v.reclaimRequester ?? 'none',
    'session-id-in-response': v.sessionIdInResponse === false ? 'omitted' : 'returned',
    'tool-process-slots': v.toolProcsTakeSlots ? 'counted' : 'none',
  };
}
