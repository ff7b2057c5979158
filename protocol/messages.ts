/**
 * The wire protocol's message table: one request/response pair per method of
 * the Implementation interface, keyed by the command name that travels in
 * `cmd`. The argument and result types are the seam's own (../seam/messages),
 * so a change to the seam is a compile error here or in adapters/subprocess;
 * test/protocol/schemas-match-types.test.ts checks the schemas against them.
 */
import type { CapabilityName } from '../seam/capabilities';
import type { Readings } from '../seam/readings';
import type { Implementation } from '../seam/implementation';
import type {
  Ack,
  AdvanceJobRequest,
  AllocateRequest,
  AllocateResult,
  ClusterSetup,
  ConnectToolRequest,
  ConnectToolResult,
  DaemonEvent,
  DisconnectToolRequest,
  Introspection,
  ObserveRequest,
  QueryAllocationRequest,
  QueryAllocationResult,
  SchedulerAction,
  Snapshot,
  SpawnRequest,
  SpawnResult,
  StartResult,
  TerminateJobRequest,
} from '../seam/messages';

/** The one version this suite speaks; an implementation answering another is refused. */
export const PROTOCOL_VERSION = 'pmix-dynres-wire/1';

/** The handshake, which folds Implementation.describe() into the protocol version check. */
export interface StartProtocolArgs {
  protocolVersion: string;
}
export interface StartProtocolResult {
  protocolVersion: string;
  implementation: { name: string; version: string };
  capabilities: CapabilityName[];
  readings?: Readings;
  effectsTrailAnswers?: boolean;
  quietMs?: number;
}

/** A message with no arguments (or no result) beyond its envelope. */
export type Empty = Record<string, never>;

export interface Wire {
  'start-protocol': { request: StartProtocolArgs; response: StartProtocolResult };
  start: { request: ClusterSetup; response: StartResult };
  'connect-tool': { request: ConnectToolRequest; response: ConnectToolResult };
  'disconnect-tool': { request: DisconnectToolRequest; response: Ack };
  allocate: { request: AllocateRequest; response: AllocateResult };
  spawn: { request: SpawnRequest; response: SpawnResult };
  'terminate-job': { request: TerminateJobRequest; response: Ack };
  scheduler: { request: SchedulerAction; response: Ack };
  daemon: { request: DaemonEvent; response: Ack };
  'advance-job': { request: AdvanceJobRequest; response: Ack };
  'query-allocation': { request: QueryAllocationRequest; response: QueryAllocationResult };
  observe: { request: ObserveRequest; response: Snapshot };
  inspect: { request: Empty; response: Introspection };
  stop: { request: Empty; response: Empty };
}
export type Command = keyof Wire;
export type Args<C extends Command> = Wire[C]['request'];
export type Result<C extends Command> = Wire[C]['response'];

/** The Implementation method each command stands for (also each request schema's "x-method"). */
export const METHOD_OF = {
  'start-protocol': 'describe',
  start: 'start',
  'connect-tool': 'connectTool',
  'disconnect-tool': 'disconnectTool',
  allocate: 'allocate',
  spawn: 'spawn',
  'terminate-job': 'terminateJob',
  scheduler: 'scheduler',
  daemon: 'daemon',
  'advance-job': 'advanceJob',
  'query-allocation': 'queryAllocation',
  observe: 'observe',
  inspect: 'inspect',
  stop: 'stop',
} as const satisfies { [C in Command]: keyof Implementation };

export const COMMANDS = Object.keys(METHOD_OF) as Command[];
export const isCommand = (s: unknown): s is Command => typeof s === 'string' && Object.prototype.hasOwnProperty.call(METHOD_OF, s);

/** What an error response carries (schemas/error-response.json). */
export interface WireError {
  message: string;
  kind?: 'protocol-version' | 'bad-request' | 'not-supported' | 'not-started' | 'internal';
  detail?: string;
  supportedVersions?: string[];
}

/** Every Implementation method has a command, and no command is left over. */
type Covered = (typeof METHOD_OF)[Command];
// processesStarted is the runner's own bookkeeping, not a message.
type Missing = Exclude<keyof Implementation, Covered | 'processesStarted'>;
const _everyMethodHasACommand: [Missing] extends [never] ? true : Missing = true;
void _everyMethodHasACommand;
