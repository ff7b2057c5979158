#!/usr/bin/env python3
"""Does PRRTE treat the scheduler's companion as the scheduler? The
measurement behind docs/prrte-scheduler-requests.md, repeatable:

  python3 harnesses/prrte/scheduler_probe.py --prefix=DIR [--agents=DIR]

(root, like the bridge; about a minute). Two DVMs, each started as the
bridge starts one (dvm.Dvm):
1. not elastic: tool T makes a reservation no tool owns by uid (its
   PMIX_ALLOC_TARGET names a namespace with no job, so PRRTE records no owner
   uid and its uid rule, prte_globals.c:1189-1210, admits nobody); then the
   control (sched_client attached as an ordinary tool) and the companion
   (attached with PMIX_SERVER_SCHEDULER) each EXTEND it, spawn into it, and
   spawn into an unknown id;
2. elastic: the companion makes a NEW, then RELEASEs a node by name, then
   RELEASEs tool T's reservation by id; the events each process received.
Prints a Markdown table of what libpmix returned to each."""
import os
import sys
import time
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
_stdout = sys.stdout
import bridge  # noqa: E402  (redirects sys.stdout to stderr on import)
import scheduler_client  # noqa: E402
from dvm import Dvm  # noqa: E402
from wire import encode_infos  # noqa: E402
out = _stdout

ALLOC_NEW, ALLOC_EXTEND, ALLOC_RELEASE = 1, 2, 3


def alloc_id(msg: dict) -> str:
    return next((i["value"] for i in msg.get("info", []) if i["key"] == "pmix.alloc.id"), "")


def row(cells: List[str]) -> None:
    out.write("| " + " | ".join(cells) + " |\n")
    out.flush()


def ownership(prefix: str, agents: str) -> None:
    d = Dvm(prefix, agents, [{"name": "n1", "slots": 4}], [{"name": f"s{i}", "slots": 4} for i in (1, 2, 3)], False)
    try:
        control = scheduler_client.attach(d, agents, nspace="plain-tool", plain=True)
        sched = scheduler_client.attach(d, agents)
        t = d.connect_tool("T")
        r = d.allocate(t, ALLOC_NEW, [{"key": "pmix.alloc.nlist", "value": "s1"},
                                      {"key": "pmix.alloc.tgt", "value": "no-job-has-this-namespace"}])
        rid = alloc_id(r)
        row(["tool T: NEW s1 for a namespace with no job", str(r["status"]), f"allocation {rid}"])
        out.write("\n| request | the control (a tool) | the companion (the scheduler) |\n|---|---|---|\n")
        cases = [
            ("EXTEND it with s2", lambda who: d.allocate(who, ALLOC_EXTEND, [{"key": "pmix.alloc.id", "value": rid},
                                                                           {"key": "pmix.alloc.nlist", "value": "s2"}])),
            ("spawn 1 process into it", lambda who: d.spawn(who, [{"np": 1}], [{"key": "pmix.spwn.tgt", "value": rid}])),
            ("spawn into an unknown id", lambda who: d.spawn(who, [{"np": 1}], [{"key": "pmix.spwn.tgt", "value": "no-such-allocation"}])),
        ]
        for what, call in cases:
            row([what] + [str(call(who.me)["status"]) for who in (control, sched)])
        sessions = d.observer.call(["sessions"])["sessions"]
        row(["the reservation afterwards", "", ", ".join(n["name"] for s in sessions if s["id"] == rid for n in s["nodes"])])
    finally:
        d.stop()


def events(prefix: str, agents: str) -> None:
    d = Dvm(prefix, agents, [{"name": "n1", "slots": 4}], [{"name": f"s{i}", "slots": 4} for i in (1, 2, 3)], True)
    try:
        sched = scheduler_client.attach(d, agents)
        t = d.connect_tool("T")
        out.write("\n| elastic mode: the companion's request | status | events to the companion | events to tool T |\n|---|---|---|---|\n")
        seen = 0

        def step(what: str, status: int) -> None:
            nonlocal seen
            time.sleep(3.5)  # the departure timer (prted_comm.c:172) and loss detection
            new = d.events.snapshot()[seen:]
            seen += len(new)
            to: Dict[str, List[str]] = {"s": [], "t": []}
            for e in new:
                key = "s" if e["to"]["nspace"] == sched.me["nspace"] else "t" if e["to"]["nspace"] == t["nspace"] else ""
                if key:
                    to[key].append(f"{e['code']} ({', '.join(str(i['value']) for i in e['info'] if i['key'].startswith('pmix.alloc'))})")
            row([what, str(status), "; ".join(to["s"]) or "none", "; ".join(to["t"]) or "none"])

        r = d.allocate(sched.me, ALLOC_NEW, [{"key": "pmix.alloc.nlist", "value": "s1,s2"},
                                             {"key": "pmix.alloc.reqid", "value": "probe-1"}])
        step("NEW s1,s2 with PMIX_ALLOC_REQ_ID", r["status"])
        # by name exactly as PRRTE names the node (Dvm.allocate would add :slots)
        m = sched.call(["alloc", str(ALLOC_RELEASE)] + encode_infos([{"key": "pmix.alloc.nlist", "value": "s2"}]))
        step("RELEASE s2 by name", int(m["status"]))
        r = d.allocate(t, ALLOC_NEW, [{"key": "pmix.alloc.nlist", "value": "s3"}])
        time.sleep(3.5)
        seen = len(d.events.snapshot())
        r = d.allocate(sched.me, ALLOC_RELEASE, [{"key": "pmix.alloc.id", "value": alloc_id(r)}])
        step("RELEASE tool T's reservation (s3) by id", r["status"])
        row(["daemons left", "", ", ".join(sorted(d.live_daemons())), ""])
    finally:
        d.stop()


def main(argv: List[str]) -> None:
    prefix, agents = bridge.parse_args(argv, os.environ)
    agents = agents or bridge.build_agents(prefix)
    scheduler_client.build(prefix, agents)
    out.write("| setup | status | result |\n|---|---|---|\n")
    ownership(prefix, agents)
    events(prefix, agents)


if __name__ == "__main__":
    main(sys.argv[1:])
