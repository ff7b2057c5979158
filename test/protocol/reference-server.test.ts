/**
 * The reference engine served over the wire (servers/reference-server.ts)
 * answers exactly what the in-process reference adapter answers, starts a
 * fresh engine at every `start`, and refuses what breaks the protocol with a
 * well-formed error response — and writes nothing but protocol lines.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createImplementation as overTheWire, REFERENCE_SERVER_COMMAND } from '../../adapters/subprocess';
import { checkResponse, parseLine } from '../../protocol/codec';
import { PROTOCOL_VERSION, type Command } from '../../protocol/messages';
import { shellWords } from '../../protocol/shell-words';
import { createImplementation as inProcess } from '../../reference/adapter';
import { CAPABILITIES } from '../../seam/capabilities';
import type { Implementation } from '../../seam/implementation';
import { Directive, Key } from '../../seam/pmix';

const ROOT = path.resolve(__dirname, '..', '..');

/** A small scenario touching every method; returns every answer. */
async function script(impl: Implementation): Promise<unknown[]> {
  const out: unknown[] = [await impl.describe()];
  const setup = { startupNodes: [{ name: 'n1', slots: 2 }], schedulerNodes: [{ name: 's1', slots: 2 }, { name: 's2', slots: 2 }], withoutKeys: [], elastic: false };
  out.push(await impl.start(setup));
  const { proc: tool } = await impl.connectTool({ label: 'T' });
  out.push(tool);
  const job = await impl.spawn({ requester: tool, apps: [{ cmd: 'a.out', np: 1 }], info: [] });
  out.push(job);
  const requester = { nspace: job.nspace!, rank: 0 };
  const alloc = await impl.allocate({ requester, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }, { key: Key.PMIX_ALLOC_REQ_ID, value: 'a-1' }] });
  out.push(alloc);
  out.push(await impl.queryAllocation({ requester, qualifiers: [{ key: Key.PMIX_ALLOC_REQ_ID, value: 'a-1' }] }));
  const allocId = alloc.info.find((i) => i.key === Key.PMIX_ALLOC_ID)?.value as string;
  out.push(await impl.spawn({ requester, apps: [{ cmd: 'b.out', np: 2 }], info: [{ key: Key.PMIX_SPAWN_TARGET, value: allocId }] }));
  out.push(await impl.scheduler({ action: 'timeout-warning', allocId, timeRemaining: 30 }));
  out.push(await impl.inspect!());
  out.push(await impl.terminateJob({ nspace: job.nspace! }));
  out.push(await impl.observe({}));
  out.push(await impl.observe({ nodes: ['s1'], jobs: [] }));
  out.push(await impl.disconnectTool({ proc: tool }));
  out.push(await impl.scheduler({ action: 'teardown' }));
  out.push(await impl.observe({}));
  await impl.stop();
  return out;
}

/** Run the server by hand, feed it lines, collect what it writes. */
function rawSession(lines: string[]): Promise<{ stdout: string; code: number | null }> {
  const [, ...args] = shellWords(REFERENCE_SERVER_COMMAND);
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stdin.end(lines.map((l) => `${l}\n`).join(''));
  return new Promise((resolve) => child.on('close', (code) => resolve({ stdout, code })));
}

describe('the reference server', { concurrency: true }, () => {
  test('answers over the wire exactly what the engine answers in process, with a fresh engine per start', async () => {
    const local = await script(inProcess());
    const first = await script(overTheWire({ process: 'reuse' }));
    const second = await script(overTheWire({ process: 'reuse' })); // the same process, a second scenario
    assert.deepEqual(first, local);
    assert.deepEqual(second, local);
    assert.deepEqual((local[0] as { capabilities: string[] }).capabilities, Object.keys(CAPABILITIES));
  });

  test('refuses what breaks the protocol with error responses, writes only protocol lines, and exits at EOF', async () => {
    const bad = [
      ['observe', '{"seq":1,"cmd":"observe"}', 'bad-request', /the first request must be "start-protocol"/],
      ['start-protocol', '{"seq":2,"cmd":"start-protocol","protocolVersion":"pmix-dynres-wire/0"}', 'protocol-version', /speaks protocol pmix-dynres-wire\/1, not pmix-dynres-wire\/0/],
      ['start-protocol', `{"seq":3,"cmd":"start-protocol","protocolVersion":"${PROTOCOL_VERSION}"}`, undefined, undefined],
      ['inspect', '{"seq":4,"cmd":"inspect"}', 'not-started', /send "start" first/],
      ['observe', 'this is not json', 'bad-request', /invalid request at \(root\): is not JSON/],
      ['observe', '{"seq":6,"cmd":"launch"}', 'bad-request', /names no command: "launch"/],
      ['start', '{"seq":7,"cmd":"start","startupNodes":[],"schedulerNodes":[],"withoutKeys":["PMIX_ALLOC_ID"],"elastic":false}', 'bad-request', /invalid start-request at \/withoutKeys\/0: must be one of/],
      ['start', '{"seq":8,"cmd":"start","startupNodes":[],"schedulerNodes":[],"withoutKeys":[],"elastic":false}', undefined, undefined],
      ['stop', '{"seq":9,"cmd":"stop"}', undefined, undefined],
    ] as const;
    const { stdout, code } = await rawSession(bad.map((b) => b[1]));
    assert.equal(code, 0);
    const lines = stdout.split('\n');
    assert.equal(lines.pop(), '', 'every line ends with a newline');
    assert.equal(lines.length, bad.length, 'one line per request, nothing else');
    lines.forEach((line, i) => {
      const [cmd, request, kind, message] = bad[i];
      const answer = checkResponse(cmd as Command, parseLine('response', line));
      const seq = request.startsWith('{') ? JSON.parse(request).seq : null;
      assert.equal(answer.seq, seq, line);
      if (kind === undefined) return assert.ok(answer.ok, line);
      assert.ok(!answer.ok, line);
      assert.equal(answer.error.kind, kind, line);
      assert.match(answer.error.message, message!, line);
      if (kind === 'protocol-version') assert.deepEqual(answer.error.supportedVersions, [PROTOCOL_VERSION]);
    });
  });
});

describe('the reference server refuses precisely', { concurrency: true }, () => {
  const hello = JSON.stringify({ seq: 1, cmd: 'start-protocol', protocolVersion: PROTOCOL_VERSION });
  const answers = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as { seq: number | null; error?: { message: string; kind: string } });

  test('a lone carriage return inside a request line is one request, answered once', async () => {
    const { stdout } = await rawSession([hello, '{"seq":2,"cmd":"observe",\r"nodes":[]}', '{"seq":3,"cmd":"observe",\r"nodes":']);
    const got = answers(stdout);
    assert.deepEqual(got.map((a) => a.seq), [1, 2, null], stdout);
  });

  test('a scheduler request without "action" is blamed on "action", not on a field some action needs', async () => {
    const { stdout } = await rawSession([hello, '{"seq":2,"cmd":"scheduler","allocId":"x"}']);
    const got = answers(stdout)[1];
    assert.match(got.error!.message, /'action'/);
  });

  test('a second handshake is refused', async () => {
    const { stdout } = await rawSession([hello, hello.replace('"seq":1', '"seq":2')]);
    const got = answers(stdout)[1];
    assert.equal(got.seq, 2);
    assert.equal(got.error?.kind, 'bad-request');
    assert.match(got.error!.message, /once/);
  });
});
