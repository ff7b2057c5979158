#!/usr/bin/env python3
"""Unit tests of observation.py: DVM membership from PRRTE's record of its daemons.
Run with the others: python3 harnesses/prrte/test_bridge.py"""
import os
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import observation  # noqa: E402


class Membership(unittest.TestCase):
    """A node is in the DVM while PRRTE records a live daemon serving it, not while it is in the pool."""
    POOL = [{"name": "n1", "slots": 4}, {"name": "n3", "slots": 4}, {"name": "s1", "slots": 2}]

    def names(self, daemons, live=None, owner=None):
        return [(n["name"], n["daemon"], n["availableTo"])
                for n in observation.membership(self.POOL, owner or {}, daemons, live if live is not None else {k: "ready" for k in daemons}, {})]

    def test_a_pool_node_whose_daemon_prrte_lost_is_not_in_the_dvm(self):
        # after a release by id: n3 and s1 stay in the pool, their daemons COMM_FAILED (56)
        self.assertEqual(self.names({"n1": 5, "n3": 56, "s1": 56}, live={"n1": "ready"}), [("n1", "ready", "")])

    def test_a_terminated_daemon_or_none_at_all_means_not_a_member(self):
        self.assertEqual(self.names({"n1": 5, "n3": 20}), [("n1", "ready", "")])

    def test_a_launched_daemon_whose_process_has_not_started_is_joining(self):
        self.assertEqual(self.names({"n1": 5, "s1": 5}, live={"n1": "ready"}, owner={"s1": "R"}),
                         [("n1", "ready", ""), ("s1", "joining", "R")])

    def test_a_daemon_marked_for_termination_is_leaving(self):
        self.assertEqual(self.names({"n1": 5, "s1": 4}), [("n1", "ready", ""), ("s1", "leaving", "")])


class PrtedPids(unittest.TestCase):
    def test_only_this_dvms_prteds_by_their_hostname(self):
        with tempfile.TemporaryDirectory() as proc:
            for pid, cmd in (("10", b"/x/bin/prted\0--prtemca\0ess_base_nspace\0prte-h-123@0"),
                             ("11", b"/x/bin/prted\0prte-h-999@0"), ("12", b"/bin/sh\0prte-h-123@0"), ("self", b"")):
                os.makedirs(os.path.join(proc, pid))
                with open(os.path.join(proc, pid, "cmdline"), "wb") as f:
                    f.write(cmd)
            with mock.patch.object(observation.subprocess, "run", return_value=mock.Mock(stdout="s1\n")) as run:
                self.assertEqual(observation.prted_pids("prte-h-123", proc), {"s1": 10})
            self.assertEqual(run.call_args[0][0], ["nsenter", "-t", "10", "-u", "hostname"])
        self.assertEqual(observation.prted_pids(""), {})

    def test_live_daemons_are_the_head_while_prte_runs_and_every_live_prted(self):
        view = observation.Observation.__new__(observation.Observation)
        view.head, view.hnp_nspace = "n1", "prte-h-123"
        view.prte = mock.Mock()
        with mock.patch.object(observation, "prted_pids", return_value={"s1": 10, "s2": 11}) as pids:
            view.prte.poll.return_value = None
            self.assertEqual(view.live_daemons(), {"n1": "ready", "s1": "ready", "s2": "ready"})
            view.prte.poll.return_value = 1
            self.assertEqual(view.live_daemons(), {"s1": "ready", "s2": "ready"}, "prte has exited: the head serves no more")
        pids.assert_called_with("prte-h-123")


class ExitedProcesses(unittest.TestCase):
    """A process whose agent's connection closed is not running, whatever PRRTE's process table says."""

    def test_a_closed_agent_means_exited(self):
        class Proc:
            def __init__(self, gone):
                self.gone = gone
        view = observation.Observation.__new__(observation.Observation)
        view.procs = {("job", 0): Proc(True), ("job", 1): Proc(False)}
        self.assertTrue(view.exited("job", 0))
        self.assertFalse(view.exited("job", 1))
        self.assertFalse(view.exited("job", 2), "a process that never connected is judged by the table alone")


if __name__ == "__main__":
    unittest.main()
