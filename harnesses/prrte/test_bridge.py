#!/usr/bin/env python3
"""The bridge's unit tests (no DVM, no PMIx needed), and their runner:
python3 harnesses/prrte/test_bridge.py runs this file's tests (bridge.py: the
request handler, the command line, what it re-exports) and those of every
other test_*.py beside it, one per module (test_wire.py, test_dvm.py, ...)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
_stdout = sys.stdout
import bridge  # noqa: E402  (bridge's wire.py redirects sys.stdout to stderr on import)
sys.stdout = _stdout


def load_tests(loader, tests, pattern):
    """Run as a script (unittest.main, pattern None): add the other test files'
    tests. Under discovery (a pattern) they are found anyway."""
    if pattern is None:
        for name in sorted(os.listdir(HERE)):
            if name.startswith("test_") and name.endswith(".py") and name != "test_bridge.py":
                tests.addTests(loader.loadTestsFromName(name[:-3]))
    return tests


class SchedulerActs(unittest.TestCase):
    def test_every_scheduler_act_but_the_warning_is_refused(self):
        b = bridge.Bridge("/nonexistent", "/nonexistent")
        b.capabilities = bridge.capabilities(["PMIX_ALLOC_WARN_TIMEOUT"])
        for action in ("reclaim", "teardown", "push-nodes"):
            with self.assertRaises(bridge.WireError) as e:
                b.handle({"cmd": "scheduler", "action": action, "allocId": "x"})
            self.assertEqual(e.exception.kind, "not-supported", action)
        with self.assertRaises(bridge.WireError) as e:  # taken, but there is no DVM yet
            b.handle({"cmd": "scheduler", "action": "timeout-warning", "allocId": "x"})
        self.assertEqual(e.exception.kind, "not-started")

    def test_without_the_warning_key_the_warning_is_refused(self):
        b = bridge.Bridge("/nonexistent", "/nonexistent")
        with self.assertRaises(bridge.WireError) as e:
            b.handle({"cmd": "scheduler", "action": "timeout-warning", "allocId": "x"})
        self.assertEqual(e.exception.kind, "not-supported")


class Handshake(unittest.TestCase):
    def test_the_answer_to_start_protocol(self):
        b = bridge.Bridge("/nonexistent", "/nonexistent")
        out = b.handle({"cmd": "start-protocol", "protocolVersion": bridge.PROTOCOL_VERSION})
        self.assertEqual(out["capabilities"], ["elastic", "daemon-faults", "scheduler-requests"])  # no pmix_common.h at /nonexistent: no key capability
        self.assertEqual(out["readings"], {"session-id-in-response": "omitted"})
        self.assertEqual((out["effectsTrailAnswers"], out["quietMs"]), (True, bridge.QUIET_MS))

    def test_the_script_answers_on_stdout_only(self):
        with tempfile.TemporaryDirectory() as d:
            for f in ("bin/prte", "include/pmix.h"):  # an install as far as the command line checks
                os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
                open(os.path.join(d, f), "w").close()
            lines = [{"seq": 1, "cmd": "start-protocol", "protocolVersion": bridge.PROTOCOL_VERSION},
                     {"seq": 2, "cmd": "observe"}, {"seq": 3, "cmd": "no-such-command"}]
            r = subprocess.run([sys.executable, os.path.join(HERE, "bridge.py"), f"--prefix={d}", f"--agents={d}"],
                               input="".join(json.dumps(m) + "\n" for m in lines), capture_output=True, text=True,
                               timeout=20)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = [json.loads(line) for line in r.stdout.splitlines()]
        self.assertEqual([m["seq"] for m in out], [1, 2, 3])
        self.assertEqual(out[0]["protocolVersion"], bridge.PROTOCOL_VERSION)
        self.assertEqual((out[1]["error"]["kind"], out[2]["error"]["kind"]), ("not-started", "not-started"))

    def test_another_protocol_version_is_refused(self):
        with self.assertRaises(bridge.VersionRefused):
            bridge.Bridge("/nonexistent", "/nonexistent").handle({"cmd": "start-protocol", "protocolVersion": "x/0"})


class CommandLine(unittest.TestCase):
    """No machine's path is a default: the install prefix is required, and
    one that is not an openpmix+prrte install is refused, named as given."""

    def install(self, root, *files):
        for f in files:
            os.makedirs(os.path.dirname(os.path.join(root, f)), exist_ok=True)
            open(os.path.join(root, f), "w").close()

    def refusal(self, argv, environ):
        with self.assertRaises(SystemExit) as e:
            bridge.parse_args(argv, environ)
        return str(e.exception.code)

    def test_a_missing_prefix_names_what_is_required(self):
        msg = self.refusal(["--agents=/somewhere"], {})
        for required in ("--prefix=DIR", "PRRTE_PREFIX", "bin/prte", "include/pmix.h"):
            self.assertIn(required, msg)
        self.assertEqual(self.refusal([], {"PRRTE_PREFIX": ""}), msg)
        self.assertEqual(self.refusal(["--prefix="], {}), msg)

    def test_a_prefix_that_is_not_an_install_is_named_exactly_as_given(self):
        with tempfile.TemporaryDirectory() as d:
            given = f"{d}/./inst/"  # not normalised: the message names what was given
            self.install(os.path.join(d, "inst"), "bin/prte")
            msg = self.refusal([f"--prefix={given}"], {})
            self.assertIn(f"--prefix={given} is not an openpmix+prrte install", msg)
            self.assertIn("include/pmix.h missing", msg)
            self.assertNotIn("bin/prte", msg)
            missing = os.path.join(d, "no-such-dir")
            msg = self.refusal([f"--prefix={missing}"], {})
            self.assertIn(f"--prefix={missing} ", msg)
            self.assertIn("bin/prte and include/pmix.h missing", msg)

    def test_the_environment_prefix_is_named_as_such(self):
        with tempfile.TemporaryDirectory() as d:
            self.install(d, "include/pmix.h")
            msg = self.refusal([], {"PRRTE_PREFIX": d})
            self.assertIn(f"PRRTE_PREFIX={d} is not an openpmix+prrte install (bin/prte missing", msg)

    def test_an_install_is_taken_and_the_command_line_wins(self):
        with tempfile.TemporaryDirectory() as d:
            self.install(d, "bin/prte", "include/pmix.h")
            self.assertEqual(bridge.parse_args([f"--prefix={d}", "--agents=/a"], {"PRRTE_PREFIX": "/nonexistent"}), (d, "/a"))
            self.assertEqual(bridge.parse_args([], {"PRRTE_PREFIX": d}), (d, None))

    def test_main_refuses_before_building_or_serving(self):
        with mock.patch.dict(os.environ, {"PRRTE_PREFIX": ""}), mock.patch.object(bridge, "build_agents") as build:
            with self.assertRaises(SystemExit):
                bridge.main([])
        build.assert_not_called()

    def test_the_script_says_so_on_stderr_and_nothing_on_stdout(self):
        env = {k: v for k, v in os.environ.items() if k != "PRRTE_PREFIX"}
        r = subprocess.run([sys.executable, os.path.join(HERE, "bridge.py"), "--prefix=no/such/prefix"],
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=20)
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertIn("--prefix=no/such/prefix is not an openpmix+prrte install", r.stderr)


class ReExports(unittest.TestCase):
    def test_bridge_still_offers_what_its_tests_and_scripts_import(self):
        import agents, capabilities, dvm, listener, observation, wire  # noqa: E401
        for name, mod in [("encode_infos", wire), ("decode_infos", wire), ("WireError", wire), ("send", wire),
                          ("PROTOCOL_VERSION", wire), ("capabilities", capabilities), ("defined_keys", capabilities),
                          ("membership", observation), ("node_spec", dvm), ("host_spec", dvm),
                          ("with_slot_mapping", dvm), ("Dvm", dvm), ("AgentListener", listener), ("Agent", agents),
                          ("EventLog", agents)]:
            self.assertIs(getattr(bridge, name), getattr(mod, name), name)


if __name__ == "__main__":
    unittest.main()
