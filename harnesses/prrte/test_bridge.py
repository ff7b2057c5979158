#!/usr/bin/env python3
"""Unit tests of the bridge's pure parts (no DVM, no PMIx needed):
python3 harnesses/prrte/test_bridge.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
_stdout = sys.stdout
import bridge  # noqa: E402  (bridge redirects sys.stdout to stderr on import)
sys.stdout = _stdout


class EncodeInfos(unittest.TestCase):
    def test_known_keys_get_their_pmix_types(self):
        out = bridge.encode_infos([{"key": "pmix.alloc.nnodes", "value": 2},
                                   {"key": "pmix.alloc.share", "value": True, "required": True},
                                   {"key": "pmix.alloc.inhrt", "value": 3}])
        self.assertEqual(out, ["pmix.alloc.nnodes", "u64", "2", "pmix.alloc.share", "Rb", "true",
                               "pmix.alloc.inhrt", "u8", "3"])

    def test_array_travels_as_unit_separated_strings(self):
        out = bridge.encode_infos([{"key": "pmix.spwn.tgt", "value": ["a", "b"]}])
        self.assertEqual(out, ["pmix.spwn.tgt", "a", "\x1fa\x1fb"])

    def test_an_empty_array_and_an_array_of_one_empty_string_differ(self):
        empty = bridge.encode_infos([{"key": "pmix.spwn.tgt", "value": []}])[2]
        one = bridge.encode_infos([{"key": "pmix.spwn.tgt", "value": [""]}])[2]
        self.assertEqual((empty, one), ("", "\x1f"))

    def test_unknown_keys_are_typed_from_json(self):
        out = bridge.encode_infos([{"key": "x.s", "value": "v"}, {"key": "x.n", "value": -1}])
        self.assertEqual(out, ["x.s", "s", "v", "x.n", "i32", "-1"])

    def test_a_string_key_with_a_number_is_refused_not_coerced(self):
        with self.assertRaises(bridge.WireError):
            bridge.encode_infos([{"key": "pmix.alloc.id", "value": 7}])

    def test_tab_cannot_reach_the_agent(self):
        with self.assertRaises(bridge.WireError):
            bridge.encode_infos([{"key": "pmix.alloc.reqid", "value": "a\tb"}])


class DecodeInfos(unittest.TestCase):
    def test_required_only_when_set(self):
        self.assertEqual(bridge.decode_infos([{"key": "k", "value": 1, "reqd": False},
                                              {"key": "q", "value": "v", "reqd": True}]),
                         [{"key": "k", "value": 1}, {"key": "q", "value": "v", "required": True}])


class Capabilities(unittest.TestCase):
    def test_no_install_means_no_key_capabilities(self):
        self.assertEqual(bridge.defined_keys("/nonexistent"), [])

    def test_partial_release_never(self):
        # a RELEASE naming its allocation ignores the node list (ras_base_allocate.c:1858)
        self.assertNotIn("partial-release", bridge.capabilities(["PMIX_ALLOC_TARGET"]))

    def test_scheduler_warning_only_with_the_warning_key(self):
        self.assertIn("scheduler-warning", bridge.capabilities(["PMIX_ALLOC_WARN_TIMEOUT"]))
        self.assertNotIn("scheduler-warning", bridge.capabilities(["PMIX_ALLOC_TARGET"]))

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


class NodeSpec(unittest.TestCase):
    def test_sizes_travel_as_name_colon_slots(self):
        self.assertEqual(bridge.node_spec([{"name": "n2", "slots": 4}, {"name": "n3", "slots": 2}]), "n2:4,n3:2")


class Membership(unittest.TestCase):
    """A node is in the DVM while PRRTE records a live daemon serving it, not while it is in the pool."""
    POOL = [{"name": "n1", "slots": 4}, {"name": "n3", "slots": 4}, {"name": "s1", "slots": 2}]

    def names(self, daemons, live=None, owner=None):
        return [(n["name"], n["daemon"], n["availableTo"])
                for n in bridge.membership(self.POOL, owner or {}, daemons, live if live is not None else {k: "ready" for k in daemons}, {})]

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


class ExpectationsFromRuns(unittest.TestCase):
    """harnesses/prrte/expectations_from_runs.py: what several runs make of expectations/prrte.json."""

    def run_generator(self, *runs, reruns=()):
        import json
        import tempfile
        import expectations_from_runs as gen
        with tempfile.TemporaryDirectory() as d:
            files = []
            for n, scenarios in enumerate(list(runs) + list(reruns)):
                f = os.path.join(d, f"run{n}.json")
                totals = {"scenarios": len(scenarios), "passed": 0, "failed": 0, "skipped": 0, "errored": 0}
                for s in scenarios:
                    totals[s["outcome"]] += 1
                with open(f, "w") as fh:
                    json.dump({"implementation": {"version": "v"}, "run": {"generatedAt": "t"}, "totals": totals,
                               "scenarios": scenarios}, fh)
                files.append(f)
            out = os.path.join(d, "out.json")
            main = files[:len(runs)]
            gen.main([out] + main + (["--rerun"] + files[len(runs):] if reruns else []))
            with open(out) as fh:
                return json.load(fh)

    def test_a_stable_failure_has_its_outcome_and_a_varying_one_every_outcome_it_took(self):
        a = {"id": "features/a.feature:1", "name": "a", "message": "boom"}
        b = {"id": "features/a.feature:2", "name": "b", "message": "flaky"}
        c = {"id": "features/a.feature:3", "name": "c"}
        doc = self.run_generator([dict(a, outcome="failed"), dict(b, outcome="passed"), dict(c, outcome="passed")],
                                 [dict(a, outcome="failed"), dict(b, outcome="errored"), dict(c, outcome="passed")])
        by_id = {e["id"]: e for e in doc["expected"]}
        self.assertEqual(set(by_id), {"features/a.feature:1", "features/a.feature:2"})
        self.assertEqual(by_id["features/a.feature:1"]["outcome"], "failed")
        self.assertNotIn("outcomes", by_id["features/a.feature:1"])
        self.assertEqual(by_id["features/a.feature:2"]["outcomes"], ["passed", "errored"])
        self.assertNotIn("outcome", by_id["features/a.feature:2"])
        self.assertIn("varied between the 2 runs", by_id["features/a.feature:2"]["reason"])

    def test_a_rerun_feature_is_judged_by_its_reruns_alone(self):
        kept = {"id": "features/a.feature:1", "name": "a", "message": "boom"}
        gone = {"id": "features/b.feature:5", "name": "moved away", "message": "boom"}
        fixed = {"id": "features/b.feature:7", "name": "now passes", "message": "boom"}
        new = {"id": "features/b.feature:90", "name": "new", "message": "bang"}
        doc = self.run_generator([dict(kept, outcome="failed"), dict(gone, outcome="failed"), dict(fixed, outcome="failed")],
                                 reruns=[[dict(fixed, outcome="passed"), dict(new, outcome="errored")],
                                         [dict(fixed, outcome="passed"), dict(new, outcome="errored")]])
        self.assertEqual({e["id"] for e in doc["expected"]}, {"features/a.feature:1", "features/b.feature:90"})
        self.assertIn("features/b.feature", doc["description"])


class Classify(unittest.TestCase):
    """How expectations_from_runs.py names a cause (harnesses/prrte/expectations_from_runs.py classify)."""

    def test_a_spawn_hanging_during_a_grow_is_a_divergence_elsewhere_a_fault(self):
        import expectations_from_runs as gen
        hang = "implementation fault during spawn: tool T: no answer to spawn within 7 s"
        grow = {"name": "A job submitted into a growing allocation is not failed: it runs once the grow is done, on the new nodes"}
        self.assertEqual(gen.classify(grow, hang)[0], "PRRTE divergence")
        self.assertEqual(gen.classify({"name": "any other"}, hang)[0], "PRRTE fault")

    def test_a_multi_process_spawn_on_a_bare_host_is_the_slot_reading_not_a_count_request(self):
        import expectations_from_runs as gen
        on_host = "job A: PMIx_Spawn(job C: 2 x C on s1; PMIX_SPAWN_TARGET=allocation R1): expected an accepted status; observed status -179"
        self.assertIn("PMIX_HOST", gen.classify({"name": "x"}, on_host)[1])
        count = "job A: PMIx_Allocation_request(PMIX_ALLOC_NEW, PMIX_ALLOC_NUM_NODES=3): expected an error status; observed PMIX_SUCCESS (0)"
        self.assertIn("count-only", gen.classify({"name": "x"}, count)[1])
        release = ("job C: PMIx_Allocation_request(PMIX_ALLOC_RELEASE, PMIX_ALLOC_ID=allocation R, PMIX_ALLOC_NUM_NODES=1): "
                   "expected node s1 not to be a member of the DVM; observed it is, available to the default session")
        self.assertIn("node pool", gen.classify({"name": "x"}, release)[1])

    def test_a_grandchild_that_does_not_fire_the_disposition_is_a_divergence(self):
        import expectations_from_runs as gen
        c = "job B: PMIx_Spawn(job probe-5: 1 x probe; PMIX_SPAWN_TARGET=allocation R): expected node s1 in the DVM's default session; observed available to allocation R"
        kind, why = gen.classify({"name": "A grandchild keeps the reservation after the owner and the child have ended"}, c)
        self.assertEqual(kind, "PRRTE divergence")
        self.assertIn("IN.host.track-descendants", why)
        self.assertEqual(gen.classify({"name": "another"}, c)[0], "unclassified")

    def test_a_releaser_that_dies_is_no_longer_excused_as_a_suite_defect(self):
        # The step now excuses the fault only when the job has ended, so a
        # fault that reaches the report is a real one, left for analysis.
        import expectations_from_runs as gen
        died = "implementation fault during allocate: job process <nspace> exited while answering alloc:"
        by_c = {"name": 'Job A\'s reservation released by job "C", which runs in it: the node leaves, and C ends with it'}
        self.assertEqual(gen.classify(by_c, died)[0], "unclassified")

    def test_a_release_without_its_completion_event_is_the_pool_divergence(self):
        import expectations_from_runs as gen
        c = gen.cause({"failure": {"operation": "tool T: PMIx_Allocation_request(PMIX_ALLOC_RELEASE, PMIX_ALLOC_ID=allocation R)",
                                   "expected": "exactly one completion event delivered to tool T: PMIX_DVM_IS_READY",
                                   "observed": "0 delivered to it: no completion event"}})
        self.assertEqual(gen.classify({"name": "x"}, c)[0], "PRRTE divergence")
        grow = c.replace("PMIX_ALLOC_RELEASE", "PMIX_ALLOC_NEW")
        self.assertEqual(gen.classify({"name": "x"}, grow)[0], "unclassified")


class AgentListenerLifetime(unittest.TestCase):
    """A DVM's accept thread must not outlive it: a stopped one, still blocked
    in accept(), took a later DVM's job process in live runs."""

    def test_stop_ends_the_accept_thread(self):
        import tempfile
        d = tempfile.mkdtemp()
        first = bridge.AgentListener(os.path.join(d, "a.sock"), lambda conn: None)
        first.stop()
        first.thread.join(2)
        self.assertFalse(first.thread.is_alive(), "the accept thread is still blocked after stop()")


class SlotMapping(unittest.TestCase):
    def test_a_spawn_maps_by_slot_without_binding(self):
        self.assertEqual(bridge.with_slot_mapping([{"key": "pmix.spwn.tgt", "value": "R1"}]),
                         [{"key": "pmix.spwn.tgt", "value": "R1"},
                          {"key": "pmix.mapby", "value": "slot"}, {"key": "pmix.bindto", "value": "none"}])

    def test_a_scenario_policy_is_kept(self):
        out = bridge.with_slot_mapping([{"key": "pmix.mapby", "value": "node"}])
        self.assertEqual(out, [{"key": "pmix.mapby", "value": "node"}, {"key": "pmix.bindto", "value": "none"}])


class HostSpec(unittest.TestCase):
    def test_a_bare_host_offers_its_free_slots(self):
        self.assertEqual(bridge.host_spec(["n2", "s1:2"]), "n2:*,s1:2")
        self.assertEqual(bridge.host_spec([]), "")


if __name__ == "__main__":
    unittest.main()
