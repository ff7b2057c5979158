/**
 * The registry of readings: places where the specification documents allow
 * more than one behaviour and the suite will not pick one silently. An
 * implementation declares the value it takes for each reading it
 * implements (Description.readings); a scenario that depends on one value is
 * tagged `@reading:<name>=<value>` and runs only against an implementation
 * that declares that value (otherwise it is skipped, saying why). Scenarios
 * that hold under every value carry no tag, and every tagged scenario has
 * such a part (an untagged Examples block or scenario beside it: what holds
 * whichever the value), so declaring nothing never hides a violation: it
 * costs only the value-specific checks, and the report and `smoke` name each
 * reading left undeclared. Each reading is explained, with
 * the sentences that leave it open, in features/INTERPRETATIONS.md under
 * its IP id. Tag names and values are linted against this table.
 */
export const READINGS = {
  'completion-request-id': {
    ip: 'IP-READING-COMPLETION-REQ-ID',
    question: 'which PMIX_ALLOC_REQ_ID a PMIX_DVM_IS_READY / PMIX_ERR_DVM_MOD carries when the allocation was created under one request id and resized under another',
    values: { driving: 'the id on the request that drove this size change', creation: 'the id of the request that created the allocation' },
  },
  'warning-request-id': {
    ip: 'IP-READING-WARNING-REQ-ID',
    question: 'which PMIX_ALLOC_REQ_ID a PMIX_ALLOC_TIMEOUT_WARNING carries after an EXTEND with its own request id',
    values: { creation: 'the id of the request that created the allocation', latest: 'the id of the latest successful NEW or EXTEND' },
  },
  'grow-failure-aborts': {
    ip: 'IP-READING-GROW-FAILURE-ABORTS',
    question: 'which jobs parked at the map-eligible boundary a failed grow aborts',
    values: { 'parked-during-grow': 'the jobs that parked while that grow was in progress', 'all-parked-at-map': 'every job parked at the map-eligible boundary when it fails' },
  },
  'teardown-pending-shrink': {
    ip: 'IP-READING-TEARDOWN-PENDING-SHRINK',
    question: 'the terminal event of a shrink still pending when the DVM is torn down',
    values: { 'is-ready': 'PMIX_DVM_IS_READY: its targets are gone with the DVM', 'dvm-mod': 'PMIX_ERR_DVM_MOD: the shrink was not carried out' },
  },
  'reclaim-requester': {
    ip: 'IP-READING-RECLAIM-REQUESTER',
    question: 'who requested the shrink a scheduler reclaim causes, and so who gets its completion event',
    values: { none: 'no PMIx process: no completion event', scheduler: 'the scheduler\'s process, which gets the completion event' },
  },
  'session-id-in-response': {
    ip: 'IP-READING-SESSION-ID-IN-RESPONSE',
    question: 'whether a successful allocation response carries the reservation\'s numeric PMIX_SESSION_ID',
    values: { returned: 'it does (PRRTE 7.2.2)', omitted: 'it carries PMIX_ALLOC_ID and the echoed PMIX_ALLOC_REQ_ID only' },
  },
  'tool-process-slots': {
    ip: 'IP-READING-TOOL-PROCESS-SLOTS',
    question: 'whether the processes of a tool app (PRRTE_APP_FLAG_TOOL) occupy slots',
    values: { none: 'they take no slot', counted: 'they take a slot like any other process' },
  },
} as const;

export type ReadingName = keyof typeof READINGS;
export type Readings = { [R in ReadingName]?: keyof (typeof READINGS)[R]['values'] & string };

export const isReadingName = (s: string): s is ReadingName => Object.prototype.hasOwnProperty.call(READINGS, s);

/** Parse `@reading:<name>=<value>`; undefined when the tag is not a reading tag. */
export function readingTag(tag: string): { name: string; value: string } | undefined {
  if (!tag.startsWith('@reading:')) return undefined;
  const [name, value = ''] = tag.slice('@reading:'.length).split('=');
  return { name, value };
}

/** Why a tag names no registered reading value, or undefined when it does. */
export function readingTagProblem(tag: string): string | undefined {
  const t = readingTag(tag);
  if (!t) return undefined;
  if (!isReadingName(t.name)) return `${tag}: no reading "${t.name}" (known: ${Object.keys(READINGS).join(', ')})`;
  const values = Object.keys(READINGS[t.name].values);
  if (!values.includes(t.value)) return `${tag}: reading ${t.name} has no value "${t.value}" (values: ${values.join(', ')})`;
  return undefined;
}

/** The readings an implementation left undeclared, in registry order: one line each in the report and in smoke. */
export function undeclaredReadings(declared: Readings | Record<string, string> | undefined): ReadingName[] {
  return (Object.keys(READINGS) as ReadingName[]).filter((name) => (declared as Record<string, string> | undefined)?.[name] === undefined);
}

/** What leaving a reading undeclared means, in one line. */
export function undeclaredReadingLine(name: ReadingName): string {
  const r = READINGS[name];
  return `reading "${name}" not declared (${r.question}; values: ${Object.keys(r.values).join(', ')}): the checks that hold under one value only are skipped; what holds under every value still runs`;
}
