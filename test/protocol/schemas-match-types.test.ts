/**
 * The schemas (schemas/) and the seam's types (seam/messages.ts, via
 * protocol/messages.ts) cannot drift apart:
 *  - every schema compiles under ajv's strict mode, documents every property,
 *    and every request names (x-response) an existing response and (x-method)
 *    the Implementation method it stands for;
 *  - the enums and PMIx name tables in the schemas equal seam/capabilities.ts
 *    and seam/pmix.ts;
 *  - a corpus of samples declared with the TypeScript types validates, and
 *    round-trips through the codec unchanged; broken samples are rejected at
 *    the named field by the named rule;
 *  - the TypeScript compiler's view of each message type matches its schema
 *    property by property (names, optionality, kinds, literal sets).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { check, decodeRequest, decodeResponse, encodeError, encodeRequest, encodeResponse, ProtocolError, schemaRegistry, SCHEMA_DIR } from '../../protocol/codec';
import { COMMANDS, METHOD_OF, PROTOCOL_VERSION, type Command } from '../../protocol/messages';
import { CAPABILITIES } from '../../seam/capabilities';
import { READINGS } from '../../seam/readings';
import { MAX_PROCS_PER_APP } from '../../seam/messages';
import { Directive, Inheritance, Key, OPTIONAL_KEYS, Status } from '../../seam/pmix';
import { negatives, requests, responses } from './support/samples';
import { loadWireTypes, ShapeComparer } from './support/type-shape';

type Json = Record<string, unknown>;
const files = fs.readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json')).sort();
const schemas = new Map<string, Json>(files.map((f) => [f, JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, f), 'utf8')) as Json]));
const defs = (schemas.get('defs.json')!.$defs ?? {}) as Record<string, Json>;
let loaded: ReturnType<typeof loadWireTypes> | undefined;
const wireTypes = () => (loaded ??= loadWireTypes(path.resolve(__dirname, '../../protocol/messages.ts')));

test('every schema file compiles (ajv strict mode, draft 2020-12) and its $id is its file name', () => {
  const ajv = schemaRegistry();
  for (const [file, schema] of schemas) {
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', file);
    assert.equal(schema.$id, file, `${file}: $id`);
    assert.ok(ajv.getSchema(file), `${file} compiles`);
  }
});

test('there is exactly one request and one response schema per command, plus defs and error-response', () => {
  const expected = ['defs.json', 'error-response.json', ...COMMANDS.flatMap((c) => [`${c}-request.json`, `${c}-response.json`])].sort();
  assert.deepEqual(files, expected);
});

test('every request names its response (x-response) and its Implementation method (x-method), and fixes its cmd', () => {
  for (const cmd of COMMANDS) {
    const schema = schemas.get(`${cmd}-request.json`)!;
    assert.equal(schema['x-response'], `${cmd}-response.json`, `${cmd}: x-response`);
    assert.ok(schemas.has(schema['x-response'] as string), `${cmd}: x-response names an existing file`);
    assert.equal(schema['x-method'], METHOD_OF[cmd], `${cmd}: x-method`);
    const props = schema.properties as Record<string, Json>;
    assert.equal(props.cmd.const, cmd, `${cmd}: cmd const`);
    assert.deepEqual((schema.required as string[]).slice(0, 2), ['seq', 'cmd'], `${cmd}: seq and cmd required`);
    const response = schemas.get(`${cmd}-response.json`)!;
    assert.equal(response['x-response'], undefined, `${cmd}-response declares no response`);
    assert.ok((response.required as string[]).includes('seq'), `${cmd}-response requires seq`);
  }
});

test('every property of every schema has a description', () => {
  const missing: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (typeof node !== 'object' || node === null) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'if' || k === 'then' || k === 'else' || k === 'x-pmix-names') continue; // conditions restate declared properties
      if (k === 'properties') {
        for (const [name, prop] of Object.entries(v as Json)) {
          if (typeof prop !== 'object' || typeof (prop as Json).description !== 'string' || !(prop as Json).description) missing.push(`${at}/properties/${name}`);
        }
      }
      walk(v, `${at}/${k}`);
    }
  };
  for (const [file, schema] of schemas) walk(schema, file);
  assert.deepEqual(missing, []);
});

test('the enums and PMIx name tables equal the seam (capabilities, optional keys, statuses, directives, inheritance, keys)', () => {
  assert.deepEqual(defs.capabilityName.enum, Object.keys(CAPABILITIES));
  assert.deepEqual(defs.optionalKeyName.enum, [...OPTIONAL_KEYS]);
  assert.deepEqual(defs.status['x-pmix-names'], Status);
  assert.deepEqual(defs.directive['x-pmix-names'], Directive);
  assert.deepEqual(defs.directive.enum, Object.values(Directive));
  assert.deepEqual(defs.inheritance['x-pmix-names'], Inheritance);
  assert.deepEqual(defs.inheritance.enum, Object.values(Inheritance));
  assert.deepEqual((defs.info.properties as Record<string, Json>).key['x-pmix-names'], Key);
  const spawnSchema = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, 'spawn-request.json'), 'utf8')) as { properties: { apps: { items: { properties: { np: { maximum: number } } } } } };
  assert.equal(spawnSchema.properties.apps.items.properties.np.maximum, MAX_PROCS_PER_APP);
  const readings = defs.readings.properties as Record<string, Json>;
  assert.deepEqual(Object.keys(readings), Object.keys(READINGS));
  for (const [name, r] of Object.entries(READINGS)) assert.deepEqual(readings[name].enum, Object.keys(r.values), `reading ${name}`);
});

test('the protocol version constant is well-formed and is the one the schemas show', () => {
  assert.match(PROTOCOL_VERSION, new RegExp(defs.protocolVersion.pattern as string));
  assert.deepEqual(defs.protocolVersion.examples, [PROTOCOL_VERSION]);
  const readme = fs.readFileSync(path.join(SCHEMA_DIR, 'README.md'), 'utf8');
  assert.ok(readme.includes(`"${PROTOCOL_VERSION}"`), 'schemas/README.md quotes the protocol version');
});

test('every typed sample is accepted and round-trips through the codec unchanged', () => {
  let seq = 0;
  for (const cmd of COMMANDS) {
    assert.ok(requests[cmd].length > 0 && responses[cmd].length > 0, `${cmd} has samples`);
    for (const args of requests[cmd]) {
      seq += 1;
      const decoded = decodeRequest(encodeRequest(cmd, seq, args as never));
      assert.deepEqual(decoded, { seq, cmd, args }, `${cmd} request ${JSON.stringify(args)}`);
    }
    for (const result of responses[cmd]) {
      seq += 1;
      const decoded = decodeResponse(cmd, encodeResponse(cmd, seq, result as never));
      assert.deepEqual(decoded, { seq, ok: true, result }, `${cmd} response ${JSON.stringify(result)}`);
    }
  }
  const error = { message: 'boom', kind: 'internal' as const, detail: 'Error: boom\n    at x' };
  assert.deepEqual(decodeResponse('allocate', encodeError(3, error)), { seq: 3, ok: false, error });
  check('error-response', { seq: null, error: { message: 'the request was not JSON', kind: 'bad-request' } });
  check('error-response', { seq: 1, error: { message: 'no', kind: 'protocol-version', supportedVersions: ['pmix-dynres-wire/7'] } });
});

test('every broken sample is rejected, at the named field, by the named rule', () => {
  for (const n of negatives) {
    assert.throws(
      () => check(n.type, n.value),
      (e: unknown) => {
        assert.ok(e instanceof ProtocolError, `${n.why}: ${String(e)}`);
        assert.equal(e.messageType, n.type, n.why);
        assert.equal(e.path, n.path, `${n.why}: path (${e.message})`);
        assert.equal(e.rule, n.rule, `${n.why}: rule (${e.message})`);
        assert.ok(e.message.includes(n.type) && e.message.includes(n.rule), `${n.why}: the message names type and rule: ${e.message}`);
        return true;
      },
      n.why,
    );
  }
});

test('the codec refuses to put a schema-violating message on the wire, and to take one off it', () => {
  assert.throws(() => encodeRequest('allocate', 1, { requester: { nspace: 'x', rank: 0 }, directive: 9, info: [] }), /invalid allocate-request at \/directive: must be one of .* \[rule: enum\]/);
  assert.throws(() => encodeResponse('spawn', 1, { status: 0, info: [], extra: 1 } as never), /invalid spawn-response at \(root\): has unknown property "extra" \[rule: additionalProperties\]/);
  assert.throws(() => decodeRequest('{"seq":1,"cmd":"launch"}'), /invalid request at \/cmd: names no command: "launch"/);
  assert.throws(() => decodeRequest('[1]'), /invalid request at \(root\): must be object/);
  assert.throws(() => decodeRequest('not json'), /invalid request at \(root\): is not JSON .*\[rule: json\]/);
  assert.throws(() => decodeResponse('observe', '{"seq":1,"nodes":[],"jobs":[]}'), /invalid observe-response at \(root\): must have required property 'events' \[rule: required\]/);
  assert.throws(() => decodeResponse('observe', '{"seq":1,"error":{}}'), /invalid error-response at \/error: must have required property 'message'/);
});

test('the TypeScript types and the schemas agree field by field', () => {
  const wire = wireTypes();
  assert.deepEqual(wire.commands, COMMANDS);
  const comparer = new ShapeComparer(wire.checker, schemas);
  for (const cmd of COMMANDS as Command[]) {
    comparer.compare(wire.request(cmd), schemas.get(`${cmd}-request.json`)!, `${cmd}-request.json`, `${cmd}-request`, ['seq', 'cmd']);
    comparer.compare(wire.response(cmd), schemas.get(`${cmd}-response.json`)!, `${cmd}-response.json`, `${cmd}-response`, ['seq']);
  }
  const errorSchema = (schemas.get('error-response.json')!.properties as Json).error as Json;
  comparer.compare(wire.exported('WireError'), errorSchema, 'error-response.json', 'error-response.error');
  assert.deepEqual(comparer.problems, []);
});

test('the field-by-field comparison is not vacuous: it catches each kind of drift', () => {
  const wire = wireTypes();
  const drifted = (file: string, mutate: (s: Json) => void, cmd: Command, side: 'request' | 'response') => {
    const copy = new Map([...schemas].map(([f, s]) => [f, structuredClone(s)]));
    mutate(copy.get(file)!);
    const comparer = new ShapeComparer(wire.checker, copy);
    const schema = copy.get(`${cmd}-${side}.json`)!;
    comparer.compare(side === 'request' ? wire.request(cmd) : wire.response(cmd), schema, `${cmd}-${side}.json`, cmd, side === 'request' ? ['seq', 'cmd'] : ['seq']);
    return comparer.problems;
  };
  const props = (s: Json, ...p: string[]) => p.reduce((node: Json, k) => node[k] as Json, s);
  // an optional field the schema forgot
  assert.match(drifted('spawn-response.json', (s) => delete props(s, 'properties').nspace, 'spawn', 'response').join('\n'), /TS has property "nspace"/);
  // optional in TS, required in the schema
  assert.match(drifted('query-allocation-response.json', (s) => (s.required as string[]).push('state'), 'query-allocation', 'response').join('\n'), /state: TS says optional, the schema required/);
  // a job state the schema lacks
  assert.match(drifted('observe-response.json', (s) => (props(s, '$defs', 'jobView', 'properties', 'state').enum as string[]).pop(), 'observe', 'response').join('\n'), /state: TS allows/);
  // a kind mismatch deep inside
  assert.match(drifted('observe-response.json', (s) => (props(s, '$defs', 'procView', 'properties', 'running').type = 'string'), 'observe', 'response').join('\n'), /running: TS type is boolean, the schema's is string/);
  // a field the TS type lacks, through a shared definition
  assert.match(drifted('defs.json', (s) => (props(s, '$defs', 'procId', 'properties').pid = { type: 'integer', description: 'x' }), 'disconnect-tool', 'request').join('\n'), /the schema has property "pid"/);
  // a scheduler action the schema lacks
  assert.match(drifted('scheduler-request.json', (s) => (props(s, 'properties', 'action').enum as string[]).shift(), 'scheduler', 'request').join('\n'), /action: TS allows/);
});
