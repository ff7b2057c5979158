#!/usr/bin/env python3
"""Unit tests of wire.py: the info codec between the protocol and the agents.
Run with the others: python3 harnesses/prrte/test_bridge.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wire  # noqa: E402


class EncodeInfos(unittest.TestCase):
    def test_known_keys_get_their_pmix_types(self):
        out = wire.encode_infos([{"key": "pmix.alloc.nnodes", "value": 2},
                                   {"key": "pmix.alloc.share", "value": True, "required": True},
                                   {"key": "pmix.alloc.inhrt", "value": 3}])
        self.assertEqual(out, ["pmix.alloc.nnodes", "u64", "2", "pmix.alloc.share", "Rb", "true",
                               "pmix.alloc.inhrt", "u8", "3"])

    def test_array_travels_as_unit_separated_strings(self):
        out = wire.encode_infos([{"key": "pmix.spwn.tgt", "value": ["a", "b"]}])
        self.assertEqual(out, ["pmix.spwn.tgt", "a", "\x1fa\x1fb"])

    def test_an_empty_array_and_an_array_of_one_empty_string_differ(self):
        empty = wire.encode_infos([{"key": "pmix.spwn.tgt", "value": []}])[2]
        one = wire.encode_infos([{"key": "pmix.spwn.tgt", "value": [""]}])[2]
        self.assertEqual((empty, one), ("", "\x1f"))

    def test_unknown_keys_are_typed_from_json(self):
        out = wire.encode_infos([{"key": "x.s", "value": "v"}, {"key": "x.n", "value": -1}])
        self.assertEqual(out, ["x.s", "s", "v", "x.n", "i32", "-1"])

    def test_a_string_key_with_a_number_is_refused_not_coerced(self):
        with self.assertRaises(wire.WireError):
            wire.encode_infos([{"key": "pmix.alloc.id", "value": 7}])

    def test_tab_cannot_reach_the_agent(self):
        with self.assertRaises(wire.WireError):
            wire.encode_infos([{"key": "pmix.alloc.reqid", "value": "a\tb"}])


class DecodeInfos(unittest.TestCase):
    def test_required_only_when_set(self):
        self.assertEqual(wire.decode_infos([{"key": "k", "value": 1, "reqd": False},
                                              {"key": "q", "value": "v", "reqd": True}]),
                         [{"key": "k", "value": 1}, {"key": "q", "value": "v", "required": True}])


if __name__ == "__main__":
    unittest.main()
