#!/usr/bin/env python3
"""Unit tests of the Slurm mode's pieces that need no Slurm: slurm_probe.py's
command lines and parsers, its logging shims, its plain skip when Slurm is
absent, and the refusals of scripts/slurm-*.sh. A live run (the cluster up,
PRRTE with ras/slurm's extensions built) is `slurm_probe.py --out DIR`, never
run here; docs/prrte-slurm.md."""
import io
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import slurm_probe  # noqa: E402


class CommandLines(unittest.TestCase):
    def test_alloc_lines_carry_the_directive_number_and_typed_keys(self):
        self.assertEqual(slurm_probe.alloc_line("EXTEND", nnodes=2, reqid="r1"),
                         "alloc\t2\tpmix.alloc.nnodes\tu64\t2\tpmix.alloc.reqid\ts\tr1\n")
        self.assertEqual(slurm_probe.alloc_line("REQ_CANCEL", reqid="r1"), "alloc\t5\tpmix.alloc.reqid\ts\tr1\n")
        self.assertEqual(slurm_probe.alloc_line("RELEASE", id="17"), "alloc\t3\tpmix.alloc.id\ts\t17\n")
        self.assertEqual(slurm_probe.alloc_line("NEW", nlist="s3"), "alloc\t1\tpmix.alloc.nlist\ts\ts3\n")

    def test_a_field_with_a_tab_is_refused(self):
        with self.assertRaises(ValueError):
            slurm_probe.alloc_line("EXTEND", nlist="s1\ts2")

    def test_the_dvm_is_salloc_running_prte_on_the_named_startup_nodes(self):
        argv = slurm_probe.salloc_argv(["n1", "n2"], 4, "/x/uri", "/r/scripts/slurm-node-prted.sh", True)
        self.assertEqual(argv[0], "salloc")
        self.assertIn("--nodes=2", argv)
        self.assertIn("--nodelist=n1,n2", argv)
        self.assertIn("--ntasks-per-node=4", argv)  # ras/slurm's slots come from SLURM_TASKS_PER_NODE
        prte = argv.index("prte")
        self.assertTrue(all(a.startswith("--") for a in argv[1:prte]))
        agent = argv[argv.index("prte_launch_agent") + 1]
        self.assertEqual(agent, "/r/scripts/slurm-node-prted.sh prted")
        self.assertEqual(argv[argv.index("prte_elastic_mode") + 1], "1")
        self.assertNotIn("prte_elastic_mode", slurm_probe.salloc_argv(["n1"], 2, "u", "a", False))
        self.assertNotIn("--leave-session-attached", argv)
        attached = slurm_probe.salloc_argv(["n1"], 2, "u", "a", True, attached=True)
        self.assertEqual(attached[attached.index("prte") + 1], "--leave-session-attached")

    def test_squeue_lines_parse_and_junk_is_skipped(self):
        rows = slurm_probe.parse_squeue("5|prrte-dvm|RUNNING|n[1-2]|None\nnot a row\n19|prrte|PENDING||Resources\n")
        self.assertEqual([r["id"] for r in rows], ["5", "19"])
        self.assertEqual(rows[1]["state"], "PENDING")
        self.assertEqual(rows[1]["nodes"], "")

    def test_status_names(self):
        self.assertEqual(slurm_probe.status_name(-156), "-156 PMIX_OPERATION_IN_PROGRESS")
        self.assertEqual(slurm_probe.status_name(-195), "-195 PMIX_DVM_IS_READY")
        self.assertEqual(slurm_probe.status_name(-9999), "-9999")

    def test_alloc_id_is_read_from_an_answer(self):
        self.assertEqual(slurm_probe.alloc_id({"info": [{"key": "pmix.alloc.id", "value": "8"}]}), "8")
        self.assertIsNone(slurm_probe.alloc_id(None))


class Shims(unittest.TestCase):
    def test_a_shim_logs_every_argument_and_runs_the_real_command(self):
        with tempfile.TemporaryDirectory() as d:
            real = os.path.join(d, "real")
            os.makedirs(real)
            for name in slurm_probe.SHIMMED:
                with open(os.path.join(real, name), "w") as f:
                    f.write(f"#!/bin/sh\necho real-{name} \"$@\"\n")
                os.chmod(os.path.join(real, name), 0o755)
            log = os.path.join(d, "cmds.log")
            slurm_probe.write_shims(os.path.join(d, "shims"), real, log)
            out = subprocess.run([os.path.join(d, "shims", "salloc"), "--no-shell", "--nodelist=s1,s2", "a b"],
                                 capture_output=True, text=True, check=True).stdout
            self.assertEqual(out.strip(), "real-salloc --no-shell --nodelist=s1,s2 a b")
            with open(log) as f:
                stamp, rest = f.read().strip().split(" ", 1)
            float(stamp)
            self.assertEqual(rest, "salloc --no-shell --nodelist=s1,s2 a b")


class WithoutSlurm(unittest.TestCase):
    def test_find_slurm_says_none_for_a_prefix_without_salloc(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertIsNone(slurm_probe.find_slurm(d))

    def test_the_probe_skips_plainly_when_there_is_no_slurm(self):
        with tempfile.TemporaryDirectory() as d:
            buf = io.StringIO()
            with redirect_stdout(buf):
                rc = slurm_probe.main(["--out", os.path.join(d, "out"), "--slurm-prefix", os.path.join(d, "none")])
            self.assertEqual(rc, 0)
            self.assertIn("skipped: no Slurm", buf.getvalue())


class Scripts(unittest.TestCase):
    def run_script(self, *args, env=None):
        return subprocess.run(["bash", *args], capture_output=True, text=True, cwd=REPO,
                              env=dict(os.environ, **(env or {})))

    def test_the_launch_agent_refuses_to_run_outside_a_slurm_step(self):
        env = {k: v for k, v in os.environ.items() if k != "SLURMD_NODENAME"}
        r = subprocess.run(["sh", os.path.join(REPO, "scripts", "slurm-node-prted.sh"), "true"],
                           capture_output=True, text=True, env=env)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("SLURMD_NODENAME", r.stderr)

    def test_the_cluster_script_without_a_command_prints_its_usage(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.run_script("scripts/slurm-cluster.sh", env={"SLURM_STATE": d})
        self.assertEqual(r.returncode, 2)
        self.assertIn("slurm-cluster.sh start", r.stderr)

    def test_the_cluster_state_may_not_be_in_the_repository(self):
        r = self.run_script("scripts/slurm-cluster.sh", "status", env={"SLURM_STATE": os.path.join(REPO, "reports")})
        self.assertEqual(r.returncode, 2)
        self.assertIn("outside the repository", r.stderr)

    def test_the_env_line_names_the_configuration(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.run_script("scripts/slurm-cluster.sh", "env", env={"SLURM_STATE": d, "SLURM_PREFIX": "/opt/s"})
        self.assertEqual(r.returncode, 0)
        self.assertIn(f"SLURM_CONF={d}/etc/slurm.conf", r.stdout)
        self.assertIn("/opt/s/bin:/opt/s/sbin:$PATH", r.stdout)

    def test_build_checks_refuse_an_install_that_is_not_there(self):
        with tempfile.TemporaryDirectory() as d:
            for script in ("scripts/slurm-build.sh", "scripts/slurm-prrte-build.sh"):
                r = self.run_script(script, "--check", d)
                self.assertNotEqual(r.returncode, 0, script)
                self.assertIn("missing", r.stderr, script)

    def test_builds_refuse_a_source_or_prefix_inside_the_repository(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.run_script("scripts/slurm-build.sh", REPO, d)
            self.assertEqual(r.returncode, 2)
            self.assertIn("inside the repository", r.stderr)


if __name__ == "__main__":
    unittest.main()
