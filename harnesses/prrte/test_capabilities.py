#!/usr/bin/env python3
"""Unit tests of capabilities.py: what the handshake declares.
Run with the others: python3 harnesses/prrte/test_bridge.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import capabilities  # noqa: E402


class Capabilities(unittest.TestCase):
    def test_no_install_means_no_key_capabilities(self):
        self.assertEqual(capabilities.defined_keys("/nonexistent"), [])

    def test_partial_release_never(self):
        # a RELEASE naming its allocation ignores the node list (ras_base_allocate.c:1858)
        self.assertNotIn("partial-release", capabilities.capabilities(["PMIX_ALLOC_TARGET"]))

    def test_scheduler_warning_only_with_the_warning_key(self):
        self.assertIn("scheduler-warning", capabilities.capabilities(["PMIX_ALLOC_WARN_TIMEOUT"]))
        self.assertNotIn("scheduler-warning", capabilities.capabilities(["PMIX_ALLOC_TARGET"]))


    def test_daemon_faults_but_no_daemon_stepping(self):
        # faults.py kills a prted or keeps one from starting; PRRTE's daemons step themselves
        caps = capabilities.capabilities([])
        self.assertIn("daemon-faults", caps)
        self.assertNotIn("daemon-control", caps)

if __name__ == "__main__":
    unittest.main()
