/**
 * A failed start sent before a node's daemon is launched (DaemonEvent
 * 'fail-to-start' ahead of the grant, as a live harness can only arrange it):
 * the next daemon on that node never reports in, and its grow fails when it
 * would have, with the cause sent (or PMIX_ERR_UNREACH); the grow is rolled
 * back ("rolled back to exactly the pre-grow membership").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../reference/engine';
import { Directive, Key, Status } from '../../seam/pmix';
import { cluster, idOf } from './support/engines';

const config = cluster({ elastic: true });
test('a failed start sent before the node\'s daemon is launched fails its grow when the daemon would report, with that cause (or PMIX_ERR_UNREACH); a crash of its own keeps its own cause', () => {
  for (const cause of [Status.PMIX_ERR_NOT_FOUND, undefined]) {
    const e = new Engine(config);
    const tool = e.connectTool();
    const before = e.observe();
    assert.equal(e.daemon({ event: 'fail-to-start', node: 's1', ...(cause !== undefined ? { cause } : {}) }).status, Status.PMIX_SUCCESS);
    assert.deepEqual(e.observe(), before, 'sent ahead, it changes nothing yet');
    const id = idOf(e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] }).info);
    e.daemon({ event: 'report', node: 's1' });
    const failed = e.observe().events.filter((ev) => ev.code === Status.PMIX_ERR_DVM_MOD);
    assert.deepEqual(failed.map((ev) => ev.info.find((i) => i.key === Key.PMIX_JOB_TERM_STATUS)?.value), [cause ?? Status.PMIX_ERR_UNREACH]);
    assert.deepEqual(e.observe().nodes.map((n) => n.name), ['n1']);
    assert.deepEqual(e.inspect().allocations.find((a) => a.allocId === id)?.nodes, []);
  }
  const e = new Engine(config);
  const tool = e.connectTool();
  e.daemon({ event: 'fail-to-start', node: 's1', cause: Status.PMIX_ERR_NOT_FOUND });
  e.allocate({ requester: tool, directive: Directive.PMIX_ALLOC_NEW, info: [{ key: Key.PMIX_ALLOC_NODE_LIST, value: 's1' }] });
  e.daemon({ event: 'crash', node: 's1', cause: Status.PMIX_ERR_UNREACH });
  const failed = e.observe().events.filter((ev) => ev.code === Status.PMIX_ERR_DVM_MOD);
  assert.deepEqual(failed.map((ev) => ev.info.find((i) => i.key === Key.PMIX_JOB_TERM_STATUS)?.value), [Status.PMIX_ERR_UNREACH]);
});
