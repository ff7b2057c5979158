/**
 * A runtime whose daemons act on their own, as a live DVM's do: it offers no
 * daemon control, and every observation finds a size change in progress one
 * step further along (one joining daemon reports in; once all have, the head
 * node distributes the wireup; one leaving daemon departs). Against it the
 * live elastic tier (size-changes-on-their-own.feature) takes the path a
 * live runtime takes: "the size change runs its course" waits, polling,
 * instead of driving the daemons.
 *
 * It offers what a harness can do to a live runtime's daemons from outside
 * (daemon-faults): kill one (a crash, whose cause the runtime, not the
 * harness, chooses) and keep one that has not started from starting. So the
 * scenarios tagged @needs:daemon-faults run against it, as against the
 * PRRTE bridge, and must pass whatever point its daemons have reached.
 */
import type { Implementation } from '../seam/implementation';
import type { NodeView } from '../seam/messages';
import { createImplementation as reference } from '../reference/adapter';
import type { KnownGood } from './good';

export const knownGood: KnownGood = {
  freedom: 'its daemons start, report in, are wired and depart by themselves, some time after the request that launched or removed them, with no harness driving them',
  permittedBy:
    'elastic_dvm_spec.rst, Asynchronous size-change completion: the response confirms only that "the DVM operation has begun", and the event follows "when the DVM operation finishes"; how long that takes is the runtime\'s.',
};

export function createImplementation(): Implementation {
  const inner = reference({}, 'reference engine, known-good variant "daemons-act-on-their-own"');
  const reported = new Set<string>();

  /** One step of whatever the daemons are doing. */
  async function daemonsMoveOn(nodes: NodeView[]): Promise<void> {
    const joining = nodes.filter((n) => n.daemon === 'joining').map((n) => n.name);
    const next = joining.find((n) => !reported.has(n));
    if (next !== undefined) {
      reported.add(next);
      await inner.daemon({ event: 'report', node: next });
      return;
    }
    if (joining.length > 0) {
      await inner.daemon({ event: 'wireup' });
      for (const n of joining) reported.delete(n);
      return;
    }
    const leaving = nodes.find((n) => n.daemon === 'leaving');
    if (leaving) await inner.daemon({ event: 'exit', node: leaving.name });
  }

  return {
    ...inner,
    describe: async () => {
      const d = await inner.describe();
      return { ...d, capabilities: d.capabilities.filter((c) => c !== 'daemon-control') };
    },
    daemon: async (req) => {
      if (req.event === 'crash') return inner.daemon({ event: 'crash', ...(req.node !== undefined ? { node: req.node } : {}) });
      if (req.event === 'fail-to-start') {
        // Only a daemon not yet started can be kept from starting: one not launched yet, or launched and not reported in.
        const node = (await inner.observe({})).nodes.find((n) => n.name === req.node);
        if (node !== undefined && (node.daemon !== 'joining' || reported.has(node.name))) {
          throw new Error(`the daemon on ${req.node} can no longer be kept from starting: it has started`);
        }
        return inner.daemon({ event: 'fail-to-start', ...(req.node !== undefined ? { node: req.node } : {}) });
      }
      throw new Error(`this runtime offers no daemon control (${req.event}): its daemons act on their own`);
    },
    observe: async (req) => {
      await daemonsMoveOn((await inner.observe({})).nodes);
      return inner.observe(req);
    },
  };
}
