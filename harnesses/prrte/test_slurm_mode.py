"""Unit tests of the bridge's Slurm mode (slurm_mode.py) and of
scripts/prrte-slurm-run.sh's refusals: no Slurm, no PRRTE and no DVM needed
(run by test_bridge.py, so by `bash .ci/run`)."""
import os
import queue
import subprocess
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
_stdout = sys.stdout
import bridge  # noqa: E402  (wire.py redirects sys.stdout on import)
import dvm  # noqa: E402
import slurm_mode  # noqa: E402
from wire import WireError  # noqa: E402
sys.stdout = _stdout

ALL_KEYS = ["PMIX_ALLOC_TARGET", "PMIX_ALLOC_SHARE", "PMIX_ALLOC_INHERITANCE", "PMIX_ALLOC_WARN_TIMEOUT",
            "PMIX_SPAWN_TARGET", "PMIX_DVM_MOD_EVENTS"]


class Declarations(unittest.TestCase):
    def test_the_keys_the_pmix_defines_and_elastic_and_no_hook(self):
        self.assertEqual(slurm_mode.capabilities(ALL_KEYS, "keys", False), ALL_KEYS + ["elastic"])
        self.assertEqual(slurm_mode.capabilities([], "keys", False), ["elastic"])  # a PMIx without the keys
        self.assertEqual(slurm_mode.capabilities(ALL_KEYS, "narrow", False), ["PMIX_DVM_MOD_EVENTS", "elastic"])
        self.assertEqual(slurm_mode.capabilities(ALL_KEYS, "keys", True)[-1], "daemon-faults")
        for hook in ("scheduler-warning", "scheduler-requests"):
            self.assertNotIn(hook, slurm_mode.capabilities(ALL_KEYS, "keys", True))

    def test_the_readings_are_the_ordinary_bridges(self):
        self.assertEqual(slurm_mode.READINGS, {"session-id-in-response": "omitted"})

    def test_the_bridge_declares_them_only_in_the_slurm_mode(self):
        with mock.patch.object(slurm_mode, "ACTIVE", True):
            b = bridge.Bridge("/nonexistent", "/nonexistent")
            out = b.handle({"cmd": "start-protocol", "protocolVersion": bridge.PROTOCOL_VERSION})
            self.assertIn("elastic", out["capabilities"])  # no pmix_common.h at /nonexistent: no key
            self.assertNotIn("scheduler-requests", out["capabilities"])
            self.assertFalse(b.companion)
            self.assertTrue(b.slurm)
        b = bridge.Bridge("/nonexistent", "/nonexistent")
        self.assertFalse(b.slurm)
        self.assertIn("scheduler-requests", b.capabilities)

    def test_a_start_without_slurm_says_so(self):
        with mock.patch.object(slurm_mode, "ACTIVE", True), \
                mock.patch.object(slurm_mode, "SLURM_PREFIX", "/nonexistent/slurm"), \
                mock.patch.object(slurm_mode, "PRRTE_SLURM_PREFIX", "/nonexistent/prrte"):
            b = bridge.Bridge("/nonexistent", "/nonexistent")
            with self.assertRaises(WireError) as e:
                b.handle({"cmd": "start", "startupNodes": [{"name": "n1", "slots": 4}], "schedulerNodes": [],
                          "elastic": True, "withoutKeys": []})
        self.assertEqual(e.exception.kind, "internal")
        self.assertIn("no Slurm at /nonexistent/slurm", str(e.exception))
        self.assertIn("no Slurm-enabled PRRTE at /nonexistent/prrte", str(e.exception))


class Shapes(unittest.TestCase):
    def test_a_scenario_keeps_the_default_names_and_sets_its_slots(self):
        s = slurm_mode.cluster_shape([{"name": "n1", "slots": 4}, {"name": "n2", "slots": 4}],
                                     [{"name": "s1", "slots": 2}, {"name": "s2", "slots": 2}])
        self.assertEqual(s["SLURM_STARTUP"], "n1,n2,n3")
        self.assertEqual(s["SLURM_POOL"], "s1,s2,s3,s4,s5,s6")
        self.assertEqual(s["SLURM_CPUS"], "s1=2,s2=2")

    def test_all_four_slots_is_the_default_and_new_names_are_added(self):
        s = slurm_mode.cluster_shape([{"name": "n1", "slots": 4}], [{"name": "s7", "slots": 4}])
        self.assertEqual((s["SLURM_CPUS"], s["SLURM_POOL"]), ("4", "s1,s2,s3,s4,s5,s6,s7"))
        s = slurm_mode.cluster_shape([{"name": "h1", "slots": 2}], [])
        self.assertEqual((s["SLURM_STARTUP"], s["SLURM_CPUS"]), ("n1,n2,n3,h1", "h1=2"))

    def test_the_dvm_is_prte_inside_salloc_on_whole_startup_nodes(self):
        argv = slurm_mode.salloc_argv([{"name": "n1", "slots": 4}, {"name": "n3", "slots": 2}], "/d/uri",
                                      elastic=True, attached=False)
        self.assertEqual(argv[:5], ["salloc", "--nodes=2", "--nodelist=n1,n3", "--exclusive", "--job-name=prrte-dvm"])
        self.assertNotIn(":", argv[2])  # Slurm sizes the nodes (CPUs), never a slot count in a node list
        self.assertEqual(argv[argv.index("prte_launch_agent") + 1], f"{slurm_mode.LAUNCH_AGENT} prted")
        argv = slurm_mode.salloc_argv([{"name": "n1", "slots": 4}], "/d/uri", elastic=True, attached=False, ctl="/d")
        self.assertEqual(argv[argv.index("prte_launch_agent") + 1], f"{slurm_mode.LAUNCH_AGENT} --ctl=/d prted")
        self.assertEqual(argv[-2:], ["prte_elastic_mode", "1"])
        self.assertNotIn("--leave-session-attached", argv)
        argv = slurm_mode.salloc_argv([{"name": "n1", "slots": 4}], "/d/uri", elastic=False, attached=True)
        self.assertEqual(argv[argv.index("prte") + 1], "--leave-session-attached")
        self.assertNotIn("prte_elastic_mode", argv)

    def test_a_grow_names_nodes_without_slots(self):
        info = [{"key": "pmix.alloc.nlist", "value": "s1,s2"}, {"key": "pmix.alloc.reqid", "value": "g"}]
        slots = {"s1": 2, "s2": 2}
        self.assertEqual(dvm.sized_request(2, info, slots)[0]["value"], "s1:2,s2:2")  # ras/hosts
        self.assertEqual(slurm_mode.grow_request(info), info)  # ras/slurm refuses 's1:2' (-27)

    def test_the_environment(self):
        env = slurm_mode.slurm_env({"PATH": "/usr/bin", "SLURM_JOB_ID": "7", "SLURM_JOBID": "7",
                                    "SLURMD_NODENAME": "x", "SLURM_CONF": "/elsewhere", "HOME": "/root"})
        self.assertNotIn("SLURM_JOB_ID", env)
        self.assertNotIn("SLURM_JOBID", env)
        self.assertNotIn("SLURMD_NODENAME", env)
        self.assertEqual(env["HOME"], "/root")
        self.assertTrue(env["PATH"].startswith(os.path.join(slurm_mode.PRRTE_SLURM_PREFIX, "bin") + ":"))
        self.assertEqual(env["LD_LIBRARY_PATH"], os.path.join(slurm_mode.PRRTE_SLURM_PREFIX, "lib"))
        self.assertEqual(env["SLURM_CONF"], os.path.join(slurm_mode.SLURM_STATE, "etc", "slurm.conf"))

    def test_squeue_lines(self):
        rows = slurm_mode.parse_squeue("12|prrte|PENDING|\n11|prrte-dvm|RUNNING|n[1-2]\nnoise\n")
        self.assertEqual([r["id"] for r in rows], ["12", "11"])
        self.assertEqual(rows[0]["state"], "PENDING")
        self.assertEqual(slurm_mode.req_id([{"key": "pmix.alloc.reqid", "value": "r"}]), "r")
        self.assertIsNone(slurm_mode.req_id([{"key": "pmix.alloc.nnodes", "value": 1}]))


class FakeAgent:
    """An Agent's calling half: answers queued by the test."""

    def __init__(self, answers=()):
        self.sent, self.results, self.killed = [], queue.Queue(), False
        for a in answers:
            self.results.put(a)

    def send(self, fields):
        self.sent.append(fields)

    def wait(self, what, timeout=1):
        try:
            return self.results.get(timeout=min(timeout, 0.05))
        except queue.Empty:
            raise WireError("internal", f"fake: no answer to {what} within {timeout:g} s")

    def call(self, fields, timeout=1):
        self.send(fields)
        return self.wait(fields[0], timeout)

    def kill(self):
        self.killed = True


class FakeCluster:
    def __init__(self, pending=("9",)):
        self.pending, self.cancelled = list(pending), []
        self.env = {}

    def pending_expanders(self):
        return list(self.pending)

    def run(self, argv, **kw):
        self.cancelled.append(argv)
        return subprocess.CompletedProcess(argv, 0, "", "")


def queued_dvm(tool, observer, cluster):
    d = object.__new__(slurm_mode.SlurmDvm)
    d.tools, d.observer, d.cluster, d.elastic = {"t": tool}, observer, cluster, True
    d.check_alive = lambda what: None
    d.tool_for = lambda requester, what: tool
    return d


class QueuedGrow(unittest.TestCase):
    """A grow Slurm queues is not answered until granted: the bridge cancels
    it, takes the late answer off the tool, and answers with an error."""

    def setUp(self):
        p = mock.patch.object(slurm_mode, "GROW_QUEUE_S", 0.01)
        p.start()
        self.addCleanup(p.stop)

    def test_cancelled_by_its_request_id(self):
        tool, observer, cluster = FakeAgent(), FakeAgent([{"status": 0}]), FakeCluster()
        d = queued_dvm(tool, observer, cluster)
        real_wait = tool.wait
        calls = []

        def wait(what, timeout=1):  # the grow's own answer comes only after the cancel
            calls.append(what)
            if len(calls) == 2:
                return {"status": -180}
            return real_wait(what, timeout)
        tool.wait = wait
        with self.assertRaises(WireError) as e:
            d.allocate({"nspace": "t"}, 2, [{"key": "pmix.alloc.nlist", "value": "n1"},
                                            {"key": "pmix.alloc.reqid", "value": "held"}])
        self.assertEqual(e.exception.kind, "internal")
        self.assertEqual(observer.sent[0][:2], ["alloc", "5"])  # PMIX_ALLOC_REQ_CANCEL
        self.assertIn("held", observer.sent[0])
        self.assertEqual(cluster.cancelled, [])  # the cancel worked: no scancel
        self.assertIn("PRRTE then answered the grow -180", str(e.exception))
        self.assertFalse(tool.killed)
        self.assertEqual(tool.sent[0][:2], ["alloc", "2"])
        self.assertNotIn("n1:", " ".join(tool.sent[0]))

    def test_without_a_request_id_the_expander_is_scancelled_and_a_silent_tool_ended(self):
        tool, observer, cluster = FakeAgent(), FakeAgent(), FakeCluster(pending=["9", "10"])
        d = queued_dvm(tool, observer, cluster)
        with self.assertRaises(WireError) as e:
            d.allocate({"nspace": "t"}, 1, [{"key": "pmix.alloc.nnodes", "value": 1}])
        self.assertEqual(observer.sent, [])
        self.assertEqual(cluster.cancelled, [["scancel", "9", "10"]])
        self.assertTrue(tool.killed)
        self.assertIn("no answer even then", str(e.exception))

    def test_a_release_is_not_cancelled(self):
        tool, observer, cluster = FakeAgent(), FakeAgent(), FakeCluster()
        d = queued_dvm(tool, observer, cluster)
        with self.assertRaises(WireError):
            d.allocate({"nspace": "t"}, 3, [{"key": "pmix.alloc.nlist", "value": "s1"}])
        self.assertEqual((observer.sent, cluster.cancelled), ([], []))

    def test_an_answered_grow(self):
        tool = FakeAgent([{"status": -156, "info": [{"key": "pmix.alloc.id", "value": "4"}]}])
        d = queued_dvm(tool, FakeAgent(), FakeCluster())
        out = d.allocate({"nspace": "t"}, 2, [{"key": "pmix.alloc.nnodes", "value": 1}])
        self.assertEqual(out, {"status": -156, "info": [{"key": "pmix.alloc.id", "value": "4"}]})


class RunScript(unittest.TestCase):
    SCRIPT = os.path.join(REPO, "scripts", "prrte-slurm-run.sh")

    def run_script(self, *args, **env):
        e = dict(os.environ, **env)
        return subprocess.run(["bash", self.SCRIPT] + list(args), capture_output=True, text=True, env=e, timeout=30)

    def test_it_says_plainly_what_is_missing_and_runs_nothing(self):
        r = self.run_script("/nonexistent", SLURM_PREFIX="/nonexistent/slurm", PRRTE_SLURM_PREFIX="/nonexistent/prrte")
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("skipped: the Slurm mode cannot run here", r.stderr)
        self.assertIn("no Slurm at SLURM_PREFIX=/nonexistent/slurm", r.stderr)
        self.assertIn("no Slurm-enabled PRRTE at PRRTE_SLURM_PREFIX=/nonexistent/prrte", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_one_worker_only(self):
        r = self.run_script("/nonexistent", "--jobs", "2")
        self.assertEqual(r.returncode, 2)
        self.assertIn("one scenario at a time", r.stderr)


class RunsScript(unittest.TestCase):
    """scripts/prrte-slurm-runs.sh: several whole runs; where the Slurm mode cannot run, it stops at the first."""
    SCRIPT = os.path.join(REPO, "scripts", "prrte-slurm-runs.sh")

    def test_usage(self):
        r = subprocess.run(["bash", self.SCRIPT, "5"], capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage:", r.stderr)

    def test_without_slurm_it_stops_at_the_first_run_and_says_why(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, SLURM_PREFIX="/nonexistent/slurm", PRRTE_SLURM_PREFIX="/nonexistent/prrte",
                       PRRTE_SLURM_RUNS_DIR=d)
            r = subprocess.run(["bash", self.SCRIPT, "5", "/nonexistent"], capture_output=True, text=True, env=env,
                               timeout=30)
            self.assertEqual(r.returncode, 3, r.stderr)
            self.assertIn("skipped: the Slurm mode cannot run here", r.stderr)
            self.assertEqual(r.stdout.count("== live run"), 1)
            self.assertEqual(sorted(os.listdir(d)), ["w-1.log"])


if __name__ == "__main__":
    unittest.main()
