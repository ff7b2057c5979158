/**
 * PMIx names and numeric values, exactly as openpmix master
 * (include/pmix_common.h.in, 7.0.0a1) defines them, so that a message of
 * this suite maps one-to-one onto a PMIx call of a real implementation.
 */

export const Status = {
  PMIX_SUCCESS: 0,
  PMIX_ERR_NO_PERMISSIONS: -23,
  PMIX_ERR_TIMEOUT: -24,
  PMIX_ERR_UNREACH: -25,
  PMIX_ERR_BAD_PARAM: -27,
  PMIX_ERR_OUT_OF_RESOURCE: -29,
  PMIX_ERR_NOT_FOUND: -46,
  PMIX_ERR_NOT_SUPPORTED: -47,
  PMIX_EVENT_JOB_END: -145,
  PMIX_OPERATION_IN_PROGRESS: -156,
  PMIX_OPERATION_SUCCEEDED: -157,
  PMIX_ALLOC_TIMEOUT_WARNING: -194,
  PMIX_DVM_IS_READY: -195,
  PMIX_ERR_DVM_MOD: -196,
} as const;
export type StatusName = keyof typeof Status;

/** Acceptance statuses a client must treat as "the request was accepted". */
export const ACCEPTED_STATUSES: readonly number[] = [
  Status.PMIX_SUCCESS,
  Status.PMIX_OPERATION_SUCCEEDED,
  Status.PMIX_OPERATION_IN_PROGRESS,
];

export const Directive = {
  PMIX_ALLOC_NEW: 1,
  PMIX_ALLOC_EXTEND: 2,
  PMIX_ALLOC_RELEASE: 3,
  PMIX_ALLOC_REAQUIRE: 4, // sic: the header's spelling
  PMIX_ALLOC_REQ_CANCEL: 5,
  PMIX_ALLOC_EXTERNAL: 128,
} as const;
export type DirectiveName = keyof typeof Directive;

export const Inheritance = {
  PMIX_ALLOC_INHERIT_NONE: 1,
  PMIX_ALLOC_INHERIT_CHILD: 2,
  PMIX_ALLOC_INHERIT_DEFAULT: 3,
  PMIX_ALLOC_INHERIT_CHILD_DEFAULT: 4,
} as const;
export type InheritanceName = keyof typeof Inheritance;

/** Attribute key strings. */
export const Key = {
  PMIX_ALLOC_ID: 'pmix.alloc.id',
  PMIX_ALLOC_REQ_ID: 'pmix.alloc.reqid',
  PMIX_ALLOC_NUM_NODES: 'pmix.alloc.nnodes',
  PMIX_ALLOC_NODE_LIST: 'pmix.alloc.nlist',
  PMIX_ALLOC_TIME: 'pmix.alloc.time',
  PMIX_ALLOC_TARGET: 'pmix.alloc.tgt',
  PMIX_ALLOC_SHARE: 'pmix.alloc.share',
  PMIX_ALLOC_INHERITANCE: 'pmix.alloc.inhrt',
  PMIX_ALLOC_WARN_TIMEOUT: 'pmix.alloc.wtmo',
  PMIX_TIME_REMAINING: 'pmix.time.remaining',
  PMIX_SPAWN_TARGET: 'pmix.spwn.tgt',
  PMIX_SESSION_ID: 'pmix.session.id',
  PMIX_ALLOC_CHILD_SEP: 'pmix.alloc.sep',
  PMIX_SESSION_SEP: 'pmix.ssn.sep',
  PMIX_QUERY_ALLOC_STATUS: 'pmix.query.alloc',
  PMIX_JOB_TERM_STATUS: 'pmix.job.term.status',
} as const;
export type KeyName = keyof typeof Key;

/** The optional keys whose absence from an implementation's PMIx the spec gives a defined meaning. */
export const OPTIONAL_KEYS = [
  'PMIX_ALLOC_TARGET',
  'PMIX_ALLOC_SHARE',
  'PMIX_ALLOC_INHERITANCE',
  'PMIX_ALLOC_WARN_TIMEOUT',
  'PMIX_SPAWN_TARGET',
  // Not a key: the two status codes PMIX_DVM_IS_READY and PMIX_ERR_DVM_MOD,
  // whose absence the elastic specification also gives a meaning.
  'PMIX_DVM_MOD_EVENTS',
] as const;
export type OptionalKeyName = (typeof OPTIONAL_KEYS)[number];

export const PMIX_RANK_INVALID = 4294967292; // UINT32_MAX - 3
/** The invalid namespace; as a spawn-target entry it denotes the default session. */
export const PMIX_NSPACE_INVALID = '';

const byValue = <T extends Record<string, number>>(table: T) =>
  new Map<number, keyof T>(Object.entries(table).map(([k, v]) => [v, k as keyof T]));
const statusNames = byValue(Status);
const directiveNames = byValue(Directive);
const keyNames = new Map<string, KeyName>(Object.entries(Key).map(([k, v]) => [v, k as KeyName]));

/** "PMIX_ERR_NOT_FOUND (-46)" — for failure messages a human reads. */
export function describeStatus(code: number): string {
  const name = statusNames.get(code);
  return name ? `${String(name)} (${code})` : `status ${code}`;
}
/** "PMIX_ERR_NOT_FOUND", or "status -999" for a code with no name here. */
export const statusName = (code: number): string => String(statusNames.get(code) ?? `status ${code}`);
export const directiveName = (v: number) => String(directiveNames.get(v) ?? `directive ${v}`);
export const keyName = (keyString: string) => keyNames.get(keyString) ?? keyString;
