#!/usr/bin/env python3
"""Unit tests of scheduler_client.py: the scheduler as a requester (no DVM
needed; the companion's compile test runs only when PMIX_PREFIX names a PMIx
install). Run with the others: python3 harnesses/prrte/test_bridge.py"""
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
_stdout = sys.stdout
import scheduler_client  # noqa: E402
import bridge  # noqa: E402  (redirects sys.stdout to stderr on import)
sys.stdout = _stdout


class Identity(unittest.TestCase):
    def test_the_scheduler_is_the_test_schedulers_namespace_rank_0(self):
        self.assertEqual(scheduler_client.identity(), {"nspace": "prrte-test-scheduler", "rank": 0})
        self.assertTrue(scheduler_client.is_scheduler({"nspace": "prrte-test-scheduler", "rank": 0}))
        self.assertFalse(scheduler_client.is_scheduler({"nspace": "prrte-test-scheduler", "rank": 1}))
        self.assertFalse(scheduler_client.is_scheduler({"nspace": "prte-n1-1@2", "rank": 0}))
        self.assertFalse(scheduler_client.is_scheduler(None))

    def test_declared_unless_the_test_scheduler_is_prrtes_scheduler(self):
        self.assertIn("scheduler-requests", bridge.capabilities([]))
        self.assertNotIn("scheduler-requests", bridge.capabilities([], companion=False))


class CompanionArgv(unittest.TestCase):
    def test_it_runs_in_the_dvms_network_namespace_under_the_schedulers_name(self):
        argv = scheduler_client.companion_argv(42, "/ag", "prte-n1-1@0.0;tcp4://10.254.0.1:1")
        self.assertEqual(argv, ["env", "SCHED_CLIENT_NSPACE=prrte-test-scheduler", "SCHED_CLIENT_RANK=0",
                                "nsenter", "-t", "42", "-n", "/ag/sched_client", "prte-n1-1@0.0;tcp4://10.254.0.1:1"])

    def test_the_control_attaches_as_a_plain_tool(self):
        argv = scheduler_client.companion_argv(42, "/ag", "uri", nspace="plain", plain=True)
        self.assertIn("SCHED_CLIENT_PLAIN=1", argv)
        self.assertIn("SCHED_CLIENT_NSPACE=plain", argv)


class FakeAgent:
    def __init__(self, answer):
        self.answer, self.killed, self.me = answer, False, None

    def wait(self, what):
        return self.answer

    def kill(self):
        self.killed = True


class FakeDvm:
    def __init__(self):
        self.tools = {}
        self.events = object()
        self.uri = "uri"
        self.prte = mock.Mock(pid=7)
        self.alive_checks = []

    def check_alive(self, what):
        self.alive_checks.append(what)


class Attach(unittest.TestCase):
    def test_a_companion_that_attached_makes_the_schedulers_calls(self):
        dvm = FakeDvm()
        agent = FakeAgent({"t": "ready", "proc": {"nspace": "prrte-test-scheduler", "rank": 0}, "handler": 1})
        with mock.patch("agents.Agent", return_value=agent):
            got = scheduler_client.attach(dvm, "/ag")
        self.assertIs(got, agent)
        self.assertIs(dvm.tools["prrte-test-scheduler"], agent)
        self.assertEqual(agent.me, {"nspace": "prrte-test-scheduler", "rank": 0})

    def test_a_companion_that_failed_is_an_internal_error_and_is_ended(self):
        for answer in ({"t": "error", "message": "PMIx_tool_init: UNREACHABLE"},
                       {"t": "ready", "proc": {"nspace": "someone-else", "rank": 0}}):
            dvm = FakeDvm()
            agent = FakeAgent(answer)
            with mock.patch("agents.Agent", return_value=agent):
                with self.assertRaises(bridge.WireError) as e:
                    scheduler_client.attach(dvm, "/ag")
            self.assertEqual(e.exception.kind, "internal")
            self.assertTrue(agent.killed)
            self.assertEqual(dvm.tools, {})


class SchedulerBridge(unittest.TestCase):
    """The bridge (bridge.py) with the companion, as it runs unless PRRTE_BRIDGE_SCHEDULER=1."""

    def make(self, companion=True):
        b = bridge.Bridge("/nonexistent", "/ag")
        if not companion:
            b.companion = False
        return b

    def test_it_declares_scheduler_requests(self):
        self.assertIn("scheduler-requests", self.make().capabilities)

    def test_start_names_the_scheduler(self):
        b = self.make()
        with mock.patch.object(bridge, "Dvm", return_value=FakeDvm()):
            out = b.handle({"cmd": "start", "withoutKeys": [], "startupNodes": [{"name": "n1", "slots": 4}],
                            "schedulerNodes": [], "elastic": False})
        self.assertEqual(out["scheduler"], {"nspace": "prrte-test-scheduler", "rank": 0})

    def test_beside_the_attached_test_scheduler_no_companion(self):
        b = self.make(companion=False)
        b.dvm = FakeDvm()
        b.dvm.allocate = mock.Mock(return_value={"status": 0, "info": []})
        with mock.patch.object(scheduler_client, "attach") as attach:
            b.handle({"cmd": "allocate", "requester": scheduler_client.identity(), "directive": 1, "info": []})
        attach.assert_not_called()

    def test_the_companion_attaches_at_the_schedulers_first_request_only(self):
        b = self.make()
        b.dvm = FakeDvm()
        b.dvm.allocate = mock.Mock(return_value={"status": 0, "info": []})
        attached = []

        def fake_attach(dvm, agents):
            attached.append(agents)
            dvm.tools["prrte-test-scheduler"] = object()
        with mock.patch.object(scheduler_client, "attach", side_effect=fake_attach):
            b.handle({"cmd": "allocate", "requester": {"nspace": "T", "rank": 0}, "directive": 1, "info": []})
            self.assertEqual(attached, [])  # another requester: nothing attaches
            for _ in range(2):
                b.handle({"cmd": "allocate", "requester": scheduler_client.identity(), "directive": 1, "info": []})
        self.assertEqual(attached, ["/ag"])  # once
        self.assertEqual(b.dvm.allocate.call_count, 3)


@unittest.skipUnless(os.environ.get("PMIX_PREFIX"), "PMIX_PREFIX not set: sched_client.c not compiled")
class Compiles(unittest.TestCase):
    def test_sched_client_compiles_against_the_pmix_given(self):
        with tempfile.TemporaryDirectory() as out:
            r = subprocess.run(["make", "-s", "-C", os.path.join(HERE, "agents"), f"PMIX_PREFIX={os.environ['PMIX_PREFIX']}",
                                f"OUT={out}", f"{out}/sched_client"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            self.assertEqual(r.returncode, 0, r.stdout)
            exe = os.path.join(out, "sched_client")
            self.assertTrue(os.access(exe, os.X_OK))
            r = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.assertEqual(r.returncode, 2)  # usage: no server URI
            self.assertIn("usage", r.stderr)


if __name__ == "__main__":
    unittest.main()
