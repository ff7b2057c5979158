#!/usr/bin/env python3
"""Unit tests of faults.py: the daemon faults the bridge causes from outside
(kill a node's prted, keep a node's daemon from starting) and what it refuses.
Run with the others: python3 harnesses/prrte/test_bridge.py"""
import os
import signal
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bridge  # noqa: E402,F401  (wire.py first: it redirects sys.stdout)
import faults  # noqa: E402
from wire import WireError  # noqa: E402


class FakeClock:
    def __init__(self):
        self.t = 0.0

    def now(self):
        return self.t

    def sleep(self, s):
        self.t += s


class KeepFromStarting(unittest.TestCase):
    def test_a_daemon_not_yet_launched_is_refused_by_the_launch_agent(self):
        with tempfile.TemporaryDirectory() as ctl:
            faults.keep_from_starting(ctl, "s1", lambda: {})
            self.assertTrue(os.path.exists(os.path.join(ctl, "s1.fail")))  # launch-agent.sh exits 1 on it

    def test_a_launched_daemon_can_no_longer_be_kept_from_starting(self):
        with tempfile.TemporaryDirectory() as ctl:
            open(os.path.join(ctl, "s1.log"), "w").close()  # launch-agent.sh was run for s1
            with self.assertRaises(WireError) as e:
                faults.keep_from_starting(ctl, "s1", lambda: {})
            self.assertEqual(e.exception.kind, "not-supported")
            self.assertFalse(os.path.exists(os.path.join(ctl, "s1.fail")))
            with self.assertRaises(WireError):
                faults.keep_from_starting(ctl, "s2", lambda: {"s2": 42})  # running


class Crash(unittest.TestCase):
    def test_the_nodes_prted_is_killed_and_waited_for(self):
        alive = {"s1": 4242, "s2": 4343}
        killed = []

        def kill(pid, sig):
            killed.append((pid, sig))
            alive.pop("s1")
        clock = FakeClock()
        self.assertEqual(faults.crash("s1", "n1", lambda: dict(alive), kill, clock.sleep, clock.now), 4242)
        self.assertEqual(killed, [(4242, signal.SIGKILL)])
        self.assertEqual(alive, {"s2": 4343})

    def test_a_launched_daemon_is_waited_for_before_it_is_killed(self):
        clock = FakeClock()
        seen = []

        def running():
            return {"s1": 7} if clock.t >= 1.0 and not seen else {}
        pid = faults.crash("s1", "n1", running, lambda p, s: seen.append(p), clock.sleep, clock.now)
        self.assertEqual((pid, seen), (7, [7]))

    def test_no_daemon_no_crash(self):
        clock = FakeClock()
        with self.assertRaises(WireError) as e:
            faults.crash("s9", "n1", lambda: {}, lambda p, s: None, clock.sleep, clock.now)
        self.assertIn("no daemon of this DVM runs on s9", str(e.exception))
        self.assertGreaterEqual(clock.t, faults.APPEAR_S)

    def test_the_head_is_prte_itself(self):
        with self.assertRaises(WireError) as e:
            faults.crash("n1", "n1", lambda: {}, lambda p, s: None)
        self.assertEqual(e.exception.kind, "not-supported")

    def test_a_prted_that_survives_sigkill_is_an_error(self):
        clock = FakeClock()
        with self.assertRaises(WireError):
            faults.crash("s1", "n1", lambda: {"s1": 5}, lambda p, s: None, clock.sleep, clock.now)


class Request(unittest.TestCase):
    def test_stepping_a_daemon_is_not_offered(self):
        for event in ("report", "wireup", "exit"):
            with self.assertRaises(WireError) as e:
                faults.daemon_fault(mock.Mock(), {"cmd": "daemon", "event": event, "node": "s1"})
            self.assertEqual(e.exception.kind, "not-supported", event)

    def test_fail_to_start_writes_the_control_file_and_ignores_the_cause(self):
        with tempfile.TemporaryDirectory() as ctl:
            dvm = mock.Mock(dir=ctl, hnp_nspace="", head="n1")
            out = faults.daemon_fault(dvm, {"cmd": "daemon", "event": "fail-to-start", "node": "s2", "cause": -46})
            self.assertEqual(out, {"status": 0})
            self.assertTrue(os.path.exists(os.path.join(ctl, "s2.fail")))

    def test_the_bridge_takes_daemon_requests_only_with_daemon_faults(self):
        b = bridge.Bridge("/nonexistent", "/nonexistent")
        with self.assertRaises(WireError) as e:  # declared, but there is no DVM yet
            b.handle({"cmd": "daemon", "event": "crash", "node": "s1"})
        self.assertEqual(e.exception.kind, "not-started")
        b.capabilities = [c for c in b.capabilities if c != "daemon-faults"]
        with self.assertRaises(WireError) as e:
            b.handle({"cmd": "daemon", "event": "crash", "node": "s1"})
        self.assertEqual(e.exception.kind, "not-supported")


if __name__ == "__main__":
    unittest.main()
