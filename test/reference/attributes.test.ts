/**
 * Attribute values the engine's emulated PMIx must refuse, called directly
 * (the known-good implementations reach the engine without the wire schemas
 * in front of it): a recognised key whose value is not of its PMIx type is
 * PMIX_ERR_BAD_PARAM and the refused request leaves no trace
 * (NR.reject.alloc-no-effect, NR.reject.spawn-no-effect); a disposition value
 * the host cannot honour is refused, not ignored (NR.error.inherit-unsupported);
 * a key the emulated PMIx does not define is not recognised at all.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import type { EngineConfig } from '../../reference/state';
import type { Info, InfoValue } from '../../seam/messages';
import { Directive, Key, Status } from '../../seam/pmix';
import { cluster, idOf } from './support/engines';

const config = cluster();

const UINT32 = 4294967295;

function withAllocation(c: EngineConfig = config) {
  const e = new Engine(c);
  const tool = e.connectTool();
  const r = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  assert.equal(r.status, Status.PMIX_SUCCESS);
  return { e, tool, allocId: idOf(r.info) };
}

test('an allocation attribute whose value is not of its PMIx type is PMIX_ERR_BAD_PARAM, with no effect', () => {
  const { e, tool, allocId } = withAllocation();
  const cases: [string, InfoValue][] = [
    [Key.PMIX_ALLOC_NUM_NODES, -1],
    [Key.PMIX_ALLOC_NUM_NODES, 1.5],
    [Key.PMIX_ALLOC_NUM_NODES, '1'],
    [Key.PMIX_ALLOC_NUM_NODES, Number.MAX_SAFE_INTEGER + 2],
    [Key.PMIX_ALLOC_WARN_TIMEOUT, UINT32 + 1],
    [Key.PMIX_ALLOC_WARN_TIMEOUT, -1],
    [Key.PMIX_ALLOC_WARN_TIMEOUT, true],
    [Key.PMIX_ALLOC_INHERITANCE, 256],
    [Key.PMIX_ALLOC_INHERITANCE, -1],
    [Key.PMIX_ALLOC_INHERITANCE, 1.5],
    [Key.PMIX_ALLOC_INHERITANCE, 'NONE'],
    [Key.PMIX_ALLOC_SHARE, 1],
    [Key.PMIX_ALLOC_SHARE, 'true'],
    [Key.PMIX_ALLOC_TARGET, 7],
    [Key.PMIX_ALLOC_REQ_ID, 7],
    [Key.PMIX_ALLOC_NODE_LIST, ['s2']],
  ];
  const before = { snap: e.observe(), intro: e.inspect() };
  for (const [key, value] of cases) {
    for (const directive of [Directive.PMIX_ALLOC_NEW, Directive.PMIX_ALLOC_EXTEND]) {
      const info: Info[] = [{ key, value }, ...(directive === Directive.PMIX_ALLOC_EXTEND ? [{ key: Key.PMIX_ALLOC_ID, value: allocId }] : [{ key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }])];
      const r = e.allocate({ requester: tool, directive, info });
      assert.equal(r.status, Status.PMIX_ERR_BAD_PARAM, `${directive === Directive.PMIX_ALLOC_NEW ? 'NEW' : 'EXTEND'} with ${key}=${JSON.stringify(value)}`);
      assert.deepEqual(r.info, []);
    }
  }
  for (const value of [7, UINT32 + 1]) {
    assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value }] }).status, Status.PMIX_ERR_BAD_PARAM, `EXTEND naming PMIX_ALLOC_ID=${value}`);
    assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value }] }).status, Status.PMIX_ERR_BAD_PARAM, `RELEASE naming PMIX_ALLOC_ID=${value}`);
  }
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_RELEASE, info: [{ key: Key.PMIX_ALLOC_ID, value: allocId }, { key: Key.PMIX_ALLOC_TIME, value: UINT32 + 1 }] }).status, Status.PMIX_ERR_BAD_PARAM, 'a lending period past uint32');
  assert.deepEqual({ snap: e.observe(), intro: e.inspect() }, before, 'a refused request changed something');
  // The bounds themselves are values of the type.
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_WARN_TIMEOUT, value: UINT32 }] }).status, Status.PMIX_SUCCESS);
  assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_WARN_TIMEOUT, value: 0 }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 0 }] }).status, Status.PMIX_SUCCESS);
});

test('a disposition value that is a uint8 but no disposition is refused as not supported (NR.error.inherit-unsupported)', () => {
  const { e, tool } = withAllocation();
  for (const v of [0, 5, 255]) {
    assert.equal(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_INHERITANCE, value: v }] }).status, Status.PMIX_ERR_NOT_SUPPORTED, String(v));
  }
});

test('a spawn target or session id that is not of its PMIx type is PMIX_ERR_BAD_PARAM, and no job is made', () => {
  const { e, tool, allocId } = withAllocation();
  const before = e.observe();
  const cases: [string, InfoValue][] = [
    [Key.PMIX_SPAWN_TARGET, []],
    [Key.PMIX_SPAWN_TARGET, [allocId, 7] as unknown as InfoValue],
    [Key.PMIX_SPAWN_TARGET, 7],
    [Key.PMIX_SESSION_ID, -1],
    [Key.PMIX_SESSION_ID, UINT32 + 1],
    [Key.PMIX_SESSION_ID, '1'],
    [Key.PMIX_ALLOC_ID, 7],
    [Key.PMIX_ALLOC_REQ_ID, 7],
  ];
  for (const [key, value] of cases) {
    const r = e.spawn({ requester: tool, apps: [{ cmd: 'a', np: 1 }], info: [{ key, value }] });
    assert.equal(r.status, Status.PMIX_ERR_BAD_PARAM, `${key}=${JSON.stringify(value)}`);
    assert.deepEqual(r.info, [], 'a refused spawn carries no info');
    assert.equal(r.nspace, undefined, 'a refused spawn names no job');
  }
  for (const apps of [[], [{ cmd: 'a', np: 0 }], [{ cmd: 'a', np: 1.5 }], [{ cmd: 'a', np: 1 }, { cmd: 'b', np: -1 }], [{ cmd: 'a', np: 1_000_000_000 }]]) {
    assert.equal(e.spawn({ requester: tool, apps, info: [] }).status, Status.PMIX_ERR_BAD_PARAM, JSON.stringify(apps));
  }
  assert.deepEqual(e.observe(), before);
});

test('a key the emulated PMIx does not define is not recognised: dropped, whatever its value, and never forwarded', () => {
  const { e, tool } = withAllocation({ ...config, withoutKeys: ['PMIX_ALLOC_WARN_TIMEOUT'] });
  const r = e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_WARN_TIMEOUT, value: 'not a number' }, { key: Key.PMIX_ALLOC_NUM_NODES, value: 1 }] });
  assert.equal(r.status, Status.PMIX_SUCCESS);
  const id = idOf(r.info);
  assert.deepEqual(e.inspect().allocations.find((a) => a.allocId === id)!.forwardedToScheduler, []);
  // With the key, a valid value is forwarded to the scheduler unchanged.
  const { e: e2, tool: t2 } = withAllocation();
  const r2 = e2.allocate({ requester: t2, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_WARN_TIMEOUT, value: 30 }] });
  const id2 = idOf(r2.info);
  assert.deepEqual(e2.inspect().allocations.find((a) => a.allocId === id2)!.forwardedToScheduler, [{ key: Key.PMIX_ALLOC_WARN_TIMEOUT, value: 30 }]);
  // An EXTEND that names a new warning time forwards it; one that names none keeps the last.
  assert.equal(e2.allocate({ requester: t2, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: id2 }, { key: Key.PMIX_ALLOC_WARN_TIMEOUT, value: 60 }] }).status, Status.PMIX_SUCCESS);
  assert.equal(e2.allocate({ requester: t2, directive: Directive.PMIX_ALLOC_EXTEND, info: [{ key: Key.PMIX_ALLOC_ID, value: id2 }] }).status, Status.PMIX_SUCCESS);
  assert.deepEqual(e2.inspect().allocations.find((a) => a.allocId === id2)!.forwardedToScheduler, [{ key: Key.PMIX_ALLOC_WARN_TIMEOUT, value: 60 }]);
});
