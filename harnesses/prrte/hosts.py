"""What a scenario's node names map to: the bridge's node addressing,
configured, not assumed (PRRTE_BRIDGE_NET, PRRTE_BRIDGE_NODE_MAP,
PRRTE_BRIDGE_SUBNET, or the bridge's --net= and --node-map=; the command
line wins).

Two modes, both on this one host:
- "shared" (the default): every node is a daemon in its own UTS namespace
  (its hostname is the node's name) inside the DVM's one private network
  namespace, so all nodes share one address. Names do not resolve.
- "netns": every node also gets a network namespace of its own, with its own
  address on a Linux bridge (br0) inside a private hub namespace the DVM
  owns (traffic never leaves the host), and the names resolve to those
  addresses (/etc/hosts in a mount namespace private to the DVM). prte and
  the prted daemons then talk TCP between distinct addresses, as on a
  cluster. A node's address comes from the node map if it names the node,
  else it is the next free address of the subnet, in the order the nodes
  are first seen (startup nodes, then the scheduler pool, then any node a
  grant brings in, by netns-node.sh).

The node map is a JSON object, given inline or as the path of a file:
{"n1": "10.254.0.11", "s1": "10.254.0.21"}, scenario node name -> address
(in the subnet). The node's PRRTE name stays the scenario's name. Mapping a
scenario's names onto real hosts (a host list, PRRTE's own plm/ssh) is not
implemented: docs/prrte.md ("Distinct addresses") says what it would take.

Pure: parsing and planning only. dvm.py starts the hub (hub_argv) and each
node's namespace (netns-node.sh)."""
import ipaddress
import json
import os
from typing import Dict, Iterable, List, Mapping, Optional

MODES = ("shared", "netns")
DEFAULT_SUBNET = "10.254.0.0/24"


class NodeMapError(ValueError):
    """A node-addressing setting that cannot be used, with what was given."""


def parse_mode(value: Optional[str]) -> str:
    mode = (value or "shared").strip()
    if mode not in MODES:
        raise NodeMapError(f"PRRTE_BRIDGE_NET / --net={value!r}: not a mode; one of {', '.join(MODES)}")
    return mode


def parse_subnet(value: Optional[str]) -> ipaddress.IPv4Network:
    text = (value or DEFAULT_SUBNET).strip()
    try:
        net = ipaddress.IPv4Network(text, strict=True)
    except ValueError as e:
        raise NodeMapError(f"PRRTE_BRIDGE_SUBNET={text!r}: not an IPv4 subnet ({e})")
    if net.num_addresses < 4:
        raise NodeMapError(f"PRRTE_BRIDGE_SUBNET={text!r}: too small for two nodes")
    return net


def parse_node_map(value: Optional[str]) -> Dict[str, str]:
    """scenario node name -> address, from inline JSON or a JSON file's path."""
    if value is None or not value.strip():
        return {}
    text, where = value.strip(), "inline"
    if not text.startswith("{"):
        try:
            with open(text) as f:
                text, where = f.read(), text
        except OSError as e:
            raise NodeMapError(f"PRRTE_BRIDGE_NODE_MAP / --node-map={value!r}: neither a JSON object nor a readable file ({e.strerror})")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise NodeMapError(f"node map ({where}): not JSON: {e}")
    if not isinstance(raw, dict):
        raise NodeMapError(f"node map ({where}): a JSON object of node name -> address is required, not {type(raw).__name__}")
    out: Dict[str, str] = {}
    for name, addr in raw.items():
        if not valid_name(name):
            raise NodeMapError(f"node map ({where}): {name!r} is not a node name (letters, digits, '-', '.', '_'; at most 63)")
        if not isinstance(addr, str):
            raise NodeMapError(f"node map ({where}): {name}: the address must be a string, not {json.dumps(addr)}")
        try:
            out[name] = str(ipaddress.IPv4Address(addr))
        except ValueError:
            raise NodeMapError(f"node map ({where}): {name}: {addr!r} is not an IPv4 address")
    return out


def valid_name(name: object) -> bool:
    return (isinstance(name, str) and 0 < len(name) <= 63 and name[0].isalnum()
            and all(c.isalnum() or c in "-._" for c in name))


class Addressing:
    """The configured addressing: a mode, and in "netns" mode a subnet and the
    fixed addresses of the node map."""

    def __init__(self, mode: str = "shared", subnet: Optional[str] = None, fixed: Optional[Mapping[str, str]] = None):
        self.mode = parse_mode(mode)
        self.subnet = parse_subnet(subnet)
        self.fixed = dict(fixed or {})
        if self.fixed and self.mode != "netns":
            raise NodeMapError("a node map was given, but the mode is 'shared' (all nodes share one address): "
                               "set PRRTE_BRIDGE_NET=netns (or --net=netns) to give nodes addresses")
        hosts = set(self.subnet.hosts())
        seen: Dict[str, str] = {}
        for name, addr in self.fixed.items():
            if ipaddress.IPv4Address(addr) not in hosts:
                raise NodeMapError(f"node map: {name}: {addr} is not a host address of the subnet {self.subnet}")
            if addr in seen:
                raise NodeMapError(f"node map: {seen[addr]} and {name} both map to {addr}")
            seen[addr] = name

    @property
    def distinct(self) -> bool:
        return self.mode == "netns"

    @property
    def prefixlen(self) -> int:
        return self.subnet.prefixlen

    def plan(self, names: Iterable[str]) -> Dict[str, str]:
        """Every named node's address: the map's, else the next free one."""
        out: Dict[str, str] = {}
        free = iter(self.free([]))
        for name in names:
            if name in out:
                continue
            if not valid_name(name):
                raise NodeMapError(f"{name!r} cannot be a host name (letters, digits, '-', '.', '_'; at most 63)")
            if name in self.fixed:
                out[name] = self.fixed[name]
                continue
            for addr in free:
                if addr not in self.fixed.values():
                    out[name] = addr
                    break
            else:
                raise NodeMapError(f"the subnet {self.subnet} has no free address left for {name}")
        return out

    def free(self, taken: Iterable[str]) -> List[str]:
        """The subnet's host addresses nobody holds or is mapped to, in order."""
        used = set(taken) | set(self.fixed.values())
        return [str(a) for a in self.subnet.hosts() if str(a) not in used]

    def describe(self) -> str:
        if not self.distinct:
            return "shared: every node a UTS namespace in one network namespace (one address)"
        return (f"netns: every node its own network namespace and address in {self.subnet}"
                + (f", {len(self.fixed)} fixed by the node map" if self.fixed else ""))


def hosts_file(plan: Mapping[str, str]) -> str:
    """/etc/hosts as the DVM's nodes see it (netns mode)."""
    return "127.0.0.1 localhost\n" + "".join(f"{addr} {name}\n" for name, addr in plan.items())


def hub_argv(hosts_path: str) -> List[str]:
    """The DVM's hub: a private network namespace with the bridge br0 every
    node's veth joins, and a private mount namespace in which /etc/hosts is
    the DVM's own (hosts_path, which netns-node.sh appends to). It prints
    'ready' and then holds both namespaces until its stdin closes."""
    script = ("ip link set lo up && ip link add br0 type bridge && ip link set br0 up && "
              'mount --bind "$0" /etc/hosts && echo ready && exec cat >/dev/null')
    return ["unshare", "-n", "-m", "--propagation", "private", "sh", "-c", script, hosts_path]


def from_args(argv: List[str], environ: Mapping[str, str]) -> Addressing:
    """The addressing from --net= / --node-map= / --subnet=, else the environment."""
    mode, node_map, subnet = environ.get("PRRTE_BRIDGE_NET"), environ.get("PRRTE_BRIDGE_NODE_MAP"), environ.get("PRRTE_BRIDGE_SUBNET")
    for a in argv:
        if a.startswith("--net="):
            mode = a.split("=", 1)[1]
        elif a.startswith("--node-map="):
            node_map = a.split("=", 1)[1]
        elif a.startswith("--subnet="):
            subnet = a.split("=", 1)[1]
    return Addressing(parse_mode(mode), subnet, parse_node_map(node_map))


def from_environ(environ: Mapping[str, str] = os.environ) -> Addressing:
    return from_args([], environ)
