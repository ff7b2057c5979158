#!/bin/sh
# Distinct-address mode (PRRTE_BRIDGE_NET=netns, hosts.py): give a node its own
# network namespace, bound to CTL/<node>.net, with its own address on a veth
# whose other end joins the bridge br0 in the DVM's hub namespace.
#   netns-node.sh HUBPID CTL NODE PREFIXLEN
# Runs in the hub's mount namespace (where CTL/hosts is /etc/hosts and the
# bound namespace files are visible). The node's address is its line in
# CTL/hosts, else the first line of CTL/free (then written to CTL/hosts, so
# the name resolves). A node whose namespace exists already (a daemon
# relaunched there) keeps it. Serialized by a lock: PRRTE launches several
# daemons at once.
set -eu
hub="$1"; ctl="$2"; node="$3"; plen="$4"
exec 9>>"$ctl/net.lock"
flock 9
[ -e "$ctl/$node.net.ok" ] && exit 0
addr=$(awk -v n="$node" '$2 == n { print $1; exit }' "$ctl/hosts")
if [ -z "$addr" ]; then
  addr=$(head -n 1 "$ctl/free")
  if [ -z "$addr" ]; then echo "netns-node: no free address left for $node" >&2; exit 1; fi
  sed -i 1d "$ctl/free"
  printf '%s %s\n' "$addr" "$node" >> "$ctl/hosts"
fi
# the hub's end, named after the address (unique, and short enough for IFNAMSIZ)
hubif=$(printf 'v%02x%02x%02x%02x' $(echo "$addr" | tr . ' '))
: > "$ctl/$node.net"
unshare --net="$ctl/$node.net" true
nsenter --net="$ctl/$node.net" sh -c "ip link set lo up && ip link add eth0 type veth peer name $hubif netns $hub && ip addr add $addr/$plen dev eth0 && ip link set eth0 up"
nsenter -t "$hub" -n sh -c "ip link set $hubif master br0 && ip link set $hubif up"
: > "$ctl/$node.net.ok"
