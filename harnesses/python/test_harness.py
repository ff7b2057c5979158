#!/usr/bin/env python3
"""The template harness as a command: run as `python3 harness.py` from
another directory (as the suite runs it), it finds its modules beside it and
answers every request line with one protocol line on stdout, diagnostics on
stderr. The whole suite runs it too (scripts/run-tests.sh); this is the
seconds-long check of the same promise."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py")

TOOL = {"nspace": "tool-1", "rank": 0}
REQUESTS = [
    {"seq": 1, "cmd": "start-protocol", "protocolVersion": "pmix-dynres-wire/1"},
    {"seq": 2, "cmd": "start", "startupNodes": [{"name": "n1", "slots": 4}],
     "schedulerNodes": [{"name": "s1", "slots": 4}], "withoutKeys": [], "elastic": False},
    {"seq": 3, "cmd": "connect-tool", "label": "T"},
    {"seq": 4, "cmd": "allocate", "requester": TOOL, "directive": 1, "info": [{"key": "pmix.alloc.nlist", "value": "s1"}]},
    {"seq": 5, "cmd": "allocate", "requester": TOOL, "directive": 1,
     "info": [{"key": "pmix.alloc.nnodes", "value": 5, "required": True}]},
    {"seq": 6, "cmd": "inspect"},
    {"seq": 7, "cmd": "observe"},
]


def run(lines):
    with tempfile.TemporaryDirectory() as elsewhere:
        done = subprocess.run([sys.executable, HARNESS], input="".join(line + "\n" for line in lines),
                              capture_output=True, text=True, cwd=elsewhere, timeout=30)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


class Command(unittest.TestCase):
    def test_one_protocol_line_per_request_and_diagnostics_on_stderr(self):
        code, out, err = run([json.dumps(r) for r in REQUESTS])
        self.assertEqual(code, 0, err)
        self.assertEqual([r["seq"] for r in out], [1, 2, 3, 4, 5, 6, 7])
        self.assertEqual(out[0]["protocolVersion"], "pmix-dynres-wire/1")
        self.assertEqual(out[1], {"seq": 2, "scheduler": {"nspace": "scheduler", "rank": 0}})
        self.assertEqual(out[2]["proc"], TOOL)
        self.assertEqual(out[3]["status"], 0)
        self.assertEqual(out[4], {"seq": 5, "status": -29, "info": []}, "a required shortfall is PMIX_ERR_OUT_OF_RESOURCE")
        self.assertEqual(out[5]["error"]["kind"], "not-supported")
        self.assertEqual([(n["name"], n["availableTo"]) for n in out[6]["nodes"]], [("n1", ""), ("s1", "alloc-1")])
        self.assertIn("[harness] NEW alloc-1", err)

    def test_a_line_that_is_not_json_is_answered_and_the_stream_goes_on(self):
        code, out, _ = run(["not json", json.dumps(REQUESTS[0])])
        self.assertEqual(code, 0)
        self.assertEqual(out[0]["seq"], None)
        self.assertEqual(out[0]["error"]["kind"], "bad-request")
        self.assertEqual(out[1]["seq"], 1)

    def test_disconnecting_a_tool_twice_is_refused_with_not_found_not_a_fault(self):
        lines = [json.dumps(r) for r in REQUESTS[:3]] + [
            json.dumps({"seq": 4, "cmd": "disconnect-tool", "proc": TOOL}),
            json.dumps({"seq": 5, "cmd": "disconnect-tool", "proc": TOOL}),
        ]
        code, out, _ = run(lines)
        self.assertEqual(code, 0)
        self.assertEqual(out[3], {"seq": 4, "status": 0})
        self.assertEqual(out[4], {"seq": 5, "status": -46}, "PMIX_ERR_NOT_FOUND")


if __name__ == "__main__":
    unittest.main()
