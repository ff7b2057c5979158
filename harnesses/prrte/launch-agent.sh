#!/bin/sh
# plm_ssh_agent for the PRRTE bridge: "ssh" to a made-up node name by running
# the daemon command locally in a private UTS namespace whose hostname is that
# name, so each prted is a distinct PRRTE node (a node's name is gethostname()).
# Control files in the directory given as --ctl=DIR (in plm_ssh_agent):
#   <node>.fail   exit 1 instead of starting the daemon (a daemon that fails to start)
# The daemon's shell pid is written to <node>.pid so the bridge can crash it.
# --net=HUBPID/PREFIXLEN (distinct-address mode, hosts.py): the daemon also
# runs in the node's own network namespace with its own address, made by
# netns-node.sh on the bridge of the DVM's hub namespace (pid HUBPID).
ctl=/tmp
net=
while [ $# -gt 0 ]; do
  case "$1" in
    --ctl=*) ctl="${1#--ctl=}"; shift ;;   # PRRTE scrubs the environment: the control dir comes as an argument
    --net=*) net="${1#--net=}"; shift ;;  # not ':' (PRRTE splits plm_ssh_agent at ':' into agents to try)
    --path=*) PATH="${1#--path=}:$PATH"; export PATH; shift ;;
    -*) shift ;;          # ssh options PRRTE may pass (-x, -T, ...)
    *) break ;;
  esac
done
node="$1"; shift
exec 2>>"$ctl/$node.log"
printf "%s\n" "launch: $*" >&2

if [ -e "$ctl/$node.fail" ]; then
  echo "launch-agent: refusing to start the daemon of $node (test control)" >&2
  exit 1
fi
if [ -n "$net" ]; then
  "$(dirname "$0")/netns-node.sh" "${net%%/*}" "$ctl" "$node" "${net#*/}" || exit 1
  echo $$ > "$ctl/$node.pid"
  exec nsenter --net="$ctl/$node.net" unshare -u /bin/sh -c 'hostname "$0" && exec /bin/sh -c "$1"' "$node" "$*"
fi
echo $$ > "$ctl/$node.pid"
exec unshare -u /bin/sh -c 'hostname "$0" && exec /bin/sh -c "$1"' "$node" "$*"
