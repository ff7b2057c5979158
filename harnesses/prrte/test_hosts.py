#!/usr/bin/env python3
"""Unit tests of hosts.py: the node-addressing settings (mode, subnet, node
map) and the address plan; and, where this machine lets it, netns-node.sh
itself (needs root, ip, unshare, nsenter: skipped, saying so, elsewhere).
Run with the others: python3 harnesses/prrte/test_bridge.py"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock  # noqa: F401  (unittest.mock below)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bridge  # noqa: E402,F401  (wire.py first: it redirects sys.stdout)
import hosts  # noqa: E402
from hosts import Addressing, NodeMapError  # noqa: E402


class Mode(unittest.TestCase):
    def test_the_default_is_the_shared_address(self):
        a = hosts.from_environ({})
        self.assertEqual(a.mode, "shared")
        self.assertFalse(a.distinct)

    def test_netns_from_the_environment_or_the_command_line(self):
        self.assertTrue(hosts.from_environ({"PRRTE_BRIDGE_NET": "netns"}).distinct)
        self.assertTrue(hosts.from_args(["--net=netns"], {}).distinct)
        self.assertFalse(hosts.from_args(["--net=shared"], {"PRRTE_BRIDGE_NET": "netns"}).distinct)

    def test_an_unknown_mode_is_refused_naming_it(self):
        with self.assertRaises(NodeMapError) as e:
            hosts.from_environ({"PRRTE_BRIDGE_NET": "ssh"})
        self.assertIn("'ssh'", str(e.exception))


class Subnet(unittest.TestCase):
    def test_default_and_given(self):
        self.assertEqual(str(Addressing("netns").subnet), "10.254.0.0/24")
        self.assertEqual(Addressing("netns", "10.9.0.0/16").prefixlen, 16)

    def test_not_a_subnet_or_too_small(self):
        for bad in ("10.254.0.1/24", "ten", "10.0.0.0/31"):
            with self.assertRaises(NodeMapError, msg=bad):
                Addressing("netns", bad)


class NodeMap(unittest.TestCase):
    def test_inline_json(self):
        self.assertEqual(hosts.parse_node_map('{"n1": "10.254.0.11", "s1": "10.254.0.21"}'),
                         {"n1": "10.254.0.11", "s1": "10.254.0.21"})

    def test_a_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"n2": "10.254.0.12"}, f)
        try:
            self.assertEqual(hosts.from_args([f"--net=netns", f"--node-map={f.name}"], {}).fixed, {"n2": "10.254.0.12"})
        finally:
            os.unlink(f.name)

    def test_none_or_empty_is_no_map(self):
        self.assertEqual(hosts.parse_node_map(None), {})
        self.assertEqual(hosts.parse_node_map("  "), {})

    def test_refusals_name_what_was_given(self):
        cases = {
            "/nonexistent/map.json": "neither a JSON object nor a readable file",
            "{not json": "not JSON",
            '{"n1": 5}': "must be a string",
            '{"n1": "10.254.0.300"}': "not an IPv4 address",
            '{"bad name": "10.254.0.2"}': "not a node name",
        }
        for given, says in cases.items():
            with self.assertRaises(NodeMapError, msg=given) as e:
                hosts.parse_node_map(given)
            self.assertIn(says, str(e.exception))
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write('["n1"]')
        try:
            with self.assertRaises(NodeMapError) as e:
                hosts.parse_node_map(f.name)
            self.assertIn("JSON object", str(e.exception))
        finally:
            os.unlink(f.name)

    def test_a_map_needs_the_netns_mode(self):
        with self.assertRaises(NodeMapError) as e:
            hosts.from_environ({"PRRTE_BRIDGE_NODE_MAP": '{"n1": "10.254.0.2"}'})
        self.assertIn("PRRTE_BRIDGE_NET=netns", str(e.exception))

    def test_addresses_must_be_hosts_of_the_subnet_and_distinct(self):
        for m in ({"n1": "10.1.0.2"}, {"n1": "10.254.0.0"}, {"n1": "10.254.0.255"}):
            with self.assertRaises(NodeMapError, msg=m):
                Addressing("netns", None, m)
        with self.assertRaises(NodeMapError) as e:
            Addressing("netns", None, {"n1": "10.254.0.2", "n2": "10.254.0.2"})
        self.assertIn("both map to 10.254.0.2", str(e.exception))

    def test_the_bridge_refuses_a_bad_setting_at_start(self):
        with self.assertRaises(SystemExit) as e:
            with unittest.mock.patch.dict(os.environ, {"PRRTE_BRIDGE_NET": "nope"}):
                with unittest.mock.patch.object(bridge, "parse_args", return_value=("/p", "/a")):
                    bridge.main([])
        self.assertIn("not a mode", str(e.exception))


class Plan(unittest.TestCase):
    def test_unmapped_nodes_take_the_next_free_addresses_in_order(self):
        a = Addressing("netns", None, {"s1": "10.254.0.2"})
        self.assertEqual(a.plan(["n1", "n2", "s1", "n1", "s2"]),
                         {"n1": "10.254.0.1", "n2": "10.254.0.3", "s1": "10.254.0.2", "s2": "10.254.0.4"})

    def test_free_leaves_out_the_taken_and_the_mapped(self):
        a = Addressing("netns", "10.254.0.0/29", {"x": "10.254.0.6"})
        self.assertEqual(a.free(["10.254.0.1"]), ["10.254.0.2", "10.254.0.3", "10.254.0.4", "10.254.0.5"])

    def test_a_full_subnet_and_a_bad_name_are_errors(self):
        with self.assertRaises(NodeMapError):
            Addressing("netns", "10.254.0.0/30").plan(["a", "b", "c"])
        with self.assertRaises(NodeMapError):
            Addressing("netns").plan(["n 1"])

    def test_hosts_file_and_hub(self):
        self.assertEqual(hosts.hosts_file({"n1": "10.254.0.1"}), "127.0.0.1 localhost\n10.254.0.1 n1\n")
        argv = hosts.hub_argv("/x/hosts")
        self.assertEqual(argv[:5], ["unshare", "-n", "-m", "--propagation", "private"])
        self.assertEqual(argv[-1], "/x/hosts")


def can_make_namespaces() -> str:
    """'' when netns-node.sh can run here, else why not."""
    if os.geteuid() != 0:
        return "not root"
    for tool in ("ip", "unshare", "nsenter", "flock"):
        if shutil.which(tool) is None:
            return f"no {tool}"
    r = subprocess.run(["unshare", "-n", "-m", "true"], capture_output=True)
    if r.returncode != 0:
        return "cannot make network and mount namespaces here"
    return ""


WHY_NOT = can_make_namespaces()


@unittest.skipIf(WHY_NOT, f"netns-node.sh needs root network privileges ({WHY_NOT}): skipped")
class NetnsNode(unittest.TestCase):
    """netns-node.sh against a real hub: two nodes get their addresses, a
    node a grant brings in takes the first free one and is written to the
    hosts file, and the nodes reach each other by name over TCP."""

    def test_two_nodes_talk_over_distinct_addresses(self):
        ctl = tempfile.mkdtemp(prefix="test-hosts-")
        a = Addressing("netns", "10.254.0.0/24")
        plan = a.plan(["n1"])
        with open(os.path.join(ctl, "hosts"), "w") as f:
            f.write(hosts.hosts_file(plan))
        with open(os.path.join(ctl, "free"), "w") as f:
            f.write("".join(x + "\n" for x in a.free(plan.values())))
        hub = subprocess.Popen(hosts.hub_argv(os.path.join(ctl, "hosts")), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            if hub.stdout.readline().strip() != "ready":  # e.g. no bridge device support: not this code's fault
                hub.wait(timeout=5)
                self.skipTest(f"the hub namespace cannot be made here: {hub.stderr.read().strip()}")
            for node in ("n1", "x9"):
                r = subprocess.run(["nsenter", "-t", str(hub.pid), "-m", os.path.join(HERE, "netns-node.sh"),
                                    str(hub.pid), ctl, node, "24"], capture_output=True, text=True, timeout=20)
                self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(ctl, "hosts")) as f:
                self.assertEqual(f.read(), "127.0.0.1 localhost\n10.254.0.1 n1\n10.254.0.2 x9\n")
            server = ("import socket; s=socket.socket(); s.bind(('x9', 5999)); s.listen(); print('up', flush=True); "
                      "c, peer = s.accept(); c.sendall(peer[0].encode())")
            client = "import socket; print(socket.create_connection(('x9', 5999), timeout=5).recv(64).decode())"
            inside = lambda node, code: ["nsenter", "-t", str(hub.pid), "-m", "nsenter", f"--net={ctl}/{node}.net",  # noqa: E731
                                         sys.executable, "-c", code]
            srv = subprocess.Popen(inside("x9", server), stdout=subprocess.PIPE, text=True)
            self.assertEqual(srv.stdout.readline().strip(), "up")
            out = subprocess.run(inside("n1", client), capture_output=True, text=True, timeout=10)
            srv.wait(timeout=5)
            srv.stdout.close()
            self.assertEqual(out.stdout.strip(), "10.254.0.1", out.stderr)  # n1 came from its own address
        finally:
            hub.stdin.close()
            hub.wait(timeout=5)
            hub.stdout.close()
            hub.stderr.close()
            shutil.rmtree(ctl, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
