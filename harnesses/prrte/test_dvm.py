#!/usr/bin/env python3
"""Unit tests of dvm.py's spellings for PRRTE: a request's nodes, a spawn's hosts and mapping.
Run with the others: python3 harnesses/prrte/test_bridge.py"""
import os
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dvm  # noqa: E402


class NodeSpec(unittest.TestCase):
    def test_sizes_travel_as_name_colon_slots(self):
        self.assertEqual(dvm.node_spec([{"name": "n2", "slots": 4}, {"name": "n3", "slots": 2}]), "n2:4,n3:2")


class RequestSizes(unittest.TestCase):
    NODES = [{"key": "pmix.alloc.nlist", "value": "s1,s2:4,x"}]

    def test_a_grant_carries_the_pool_sizes(self):
        for directive in (1, 2):
            self.assertEqual(dvm.sized_request(directive, self.NODES, {"s1": 2, "s2": 8}), [{"key": "pmix.alloc.nlist", "value": "s1:2,s2:4,x"}])

    def test_a_release_names_nodes_by_name_alone(self):
        self.assertEqual(dvm.sized_request(3, self.NODES, {"s1": 2}), self.NODES)


class SlotMapping(unittest.TestCase):
    def test_a_spawn_maps_by_slot_without_binding(self):
        self.assertEqual(dvm.with_slot_mapping([{"key": "pmix.spwn.tgt", "value": "R1"}]),
                         [{"key": "pmix.spwn.tgt", "value": "R1"},
                          {"key": "pmix.mapby", "value": "slot"}, {"key": "pmix.bindto", "value": "none"}])

    def test_a_scenario_policy_is_kept(self):
        out = dvm.with_slot_mapping([{"key": "pmix.mapby", "value": "node"}])
        self.assertEqual(out, [{"key": "pmix.mapby", "value": "node"}, {"key": "pmix.bindto", "value": "none"}])


class HostSpec(unittest.TestCase):
    def test_a_bare_host_offers_its_free_slots(self):
        self.assertEqual(dvm.host_spec(["n2", "s1:2"]), "n2:*,s1:2")
        self.assertEqual(dvm.host_spec([]), "")


class Reap(unittest.TestCase):
    def test_a_helper_that_ends_on_its_own_keeps_its_status(self):
        p = subprocess.Popen(["sh", "-c", "exit 3"])
        dvm.reap(p, 5.0)
        self.assertEqual(p.returncode, 3)

    def test_a_helper_still_there_after_the_bound_is_ended(self):
        p = subprocess.Popen(["sleep", "30"])
        t0 = time.monotonic()
        dvm.reap(p, 0.2)
        self.assertLess(time.monotonic() - t0, 5)
        self.assertEqual(p.returncode, -9)


if __name__ == "__main__":
    unittest.main()
