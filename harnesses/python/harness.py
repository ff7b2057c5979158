#!/usr/bin/env python3
"""A template harness for the PMIx dynamic-resource conformance suite.

It speaks the suite's wire protocol (schemas/README.md): one JSON request per
line on stdin, one JSON response per line on stdout. Behind the protocol sits
a small in-memory "engine" that behaves the way the features in
features/reservation/ and features/INTERPRETATIONS.md say a runtime must:

  * a DVM: the startup nodes form the default session; the scheduler owns a
    pool of further nodes it can grant to dynamic allocations;
  * tools connect and disconnect; jobs are spawned (by-slot mapping, no
    oversubscription, -host restriction) and terminate;
  * PMIx_Allocation_request with PMIX_ALLOC_NEW / EXTEND / RELEASE, routed by
    the decision table (requester class x PMIX_ALLOC_TARGET x PMIX_ALLOC_SHARE);
  * PMIx_Spawn with PMIX_SPAWN_TARGET (and the older single-session attributes),
    the ownership check, owner-set growth and mapping isolation;
  * the default disposition (PMIX_ALLOC_INHERIT_DEFAULT) when an owning
    namespace ends: this harness does not have PMIX_ALLOC_INHERITANCE, so every
    reservation gets the default one, and any other value is refused.

It is deliberately NOT a port of reference/: it is a template to copy (the
whole folder). This file is the protocol half: the stream discipline, what
the harness declares, one handler per command and the main loop. The engine
half is engine.py (with allocation_requests.py and engine_state.py). To test
a real runtime, keep this file and replace the engine with calls into your
runtime; docs/writing-a-harness.md explains how each message maps onto PMIx.

Python 3 standard library only. Run it through the suite with:

  PMIX_CONFORMANCE_ADAPTER=adapters/subprocess \\
  PMIX_CONFORMANCE_COMMAND="python3 harnesses/python/harness.py" npx cucumber-js
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import Callable, Optional

# --------------------------------------------------------------------------
# Protocol stream discipline
# --------------------------------------------------------------------------
# stdout carries protocol lines ONLY. Keep a private handle on it and point
# sys.stdout at stderr, so that a stray print() anywhere (yours, or a
# library's) becomes a diagnostic instead of a protocol fault.
PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr

# Only now the rest of the template, beside this file, so that nothing it
# prints while loading can reach the protocol stream.
from engine import Dvm, EMULATED_KEYS  # noqa: E402
from engine_state import Attrs  # noqa: E402
from errors import Rejected, WireError, log  # noqa: E402
from pmix_names import PMIX_SUCCESS  # noqa: E402

PROTOCOL_VERSION = "pmix-dynres-wire/1"
IMPLEMENTATION = {"name": "python-template-harness", "version": "0.1.0"}

# --------------------------------------------------------------------------
# What this harness declares (seam/capabilities.ts). Declare only what you
# really do: a declared capability makes the suite run the scenarios that
# need it, an undeclared one makes it skip them, with the reason.
# --------------------------------------------------------------------------
CAPABILITIES = [
    "PMIX_ALLOC_TARGET",  # honours a tool's PMIX_ALLOC_TARGET, refuses an application's
    "PMIX_ALLOC_SHARE",  # PMIX_ALLOC_SHARE=true sends the nodes to the default session
    "PMIX_SPAWN_TARGET",  # spawn targeting, string and array forms
    "emulate-missing-keys",  # can behave as if its PMIx lacked the three keys above
    "scheduler-requests",  # "the scheduler" makes requests as a caller of its own (Caller kind 'scheduler')
]
# Not declared, on purpose: PMIX_ALLOC_INHERITANCE (only the default
# disposition is implemented), PMIX_ALLOC_WARN_TIMEOUT, PMIX_DVM_MOD_EVENTS,
# elastic, job-staging, daemon-faults, daemon-control, introspection,
# scheduler-policy.


# --------------------------------------------------------------------------
# The protocol: one handler per command
# --------------------------------------------------------------------------
# Each handler takes the request (a dict) and returns the response fields
# (without seq). It raises WireError for an error response, and Rejected
# when the modelled PMIx call fails (turned into {"status": ..., ...}).


class Harness:
    def __init__(self) -> None:
        self.dvm: Optional[Dvm] = None
        self.handshaken = False

    def need_dvm(self) -> Dvm:
        if self.dvm is None:
            raise WireError("not-started", "no DVM: send 'start' first")
        return self.dvm

    # -- handshake --------------------------------------------------------

    def cmd_start_protocol(self, req: dict) -> dict:
        if req["protocolVersion"] != PROTOCOL_VERSION:
            raise VersionRefused(req["protocolVersion"])
        self.handshaken = True
        return {"protocolVersion": PROTOCOL_VERSION, "implementation": IMPLEMENTATION, "capabilities": CAPABILITIES}

    # -- DVM lifetime -----------------------------------------------------

    def cmd_start(self, req: dict) -> dict:
        # A fresh DVM every time: nothing of an earlier scenario survives.
        if req["elastic"]:
            raise WireError("not-supported", "elastic mode is not supported (capability 'elastic' not declared)")
        unknown = [k for k in req["withoutKeys"] if k not in EMULATED_KEYS]
        if unknown:
            raise WireError("not-supported", f"cannot run as if the PMIx lacked {unknown}")
        if "scheduler" in req:
            raise WireError("not-supported", "scheduler policies are not supported (capability 'scheduler-policy')")
        self.dvm = Dvm(req["startupNodes"], req["schedulerNodes"], req["withoutKeys"])
        return {"scheduler": {"nspace": Dvm.SCHEDULER_NSPACE, "rank": 0}}

    def cmd_stop(self, req: dict) -> dict:
        # A real harness tears its DVM down here (and waits for it to be gone).
        self.dvm = None
        return {}

    # -- tools ------------------------------------------------------------

    def cmd_connect_tool(self, req: dict) -> dict:
        return {"proc": self.need_dvm().connect_tool(req["label"])}

    def cmd_disconnect_tool(self, req: dict) -> dict:
        # A refusal (a tool that is not connected) is an answer, not a fault.
        try:
            return {"status": self.need_dvm().disconnect_tool(req["proc"])}
        except Rejected as r:
            log(f"disconnect refused: {r} ({r.status})")
            return {"status": r.status}

    # -- PMIx calls -------------------------------------------------------

    def cmd_allocate(self, req: dict) -> dict:
        dvm = self.need_dvm()
        try:
            caller = dvm.caller(req["requester"])
            info = dvm.allocate(caller, req["directive"], Attrs(req["info"], dvm.unknown_keys))
            return {"status": PMIX_SUCCESS, "info": info}
        except Rejected as r:
            log(f"allocate refused: {r} ({r.status})")
            return {"status": r.status, "info": []}

    def cmd_spawn(self, req: dict) -> dict:
        dvm = self.need_dvm()
        if "hold" in req:
            raise WireError("not-supported", "spawn 'hold' needs the 'job-staging' capability")
        try:
            caller = dvm.caller(req["requester"])
            nspace = dvm.spawn(caller, req["apps"], Attrs(req["info"], dvm.unknown_keys))
            return {"status": PMIX_SUCCESS, "nspace": nspace, "info": []}
        except Rejected as r:
            log(f"spawn refused: {r} ({r.status})")
            return {"status": r.status, "info": []}  # no nspace: nothing was launched

    def cmd_terminate_job(self, req: dict) -> dict:
        try:
            return {"status": self.need_dvm().terminate_job(req["nspace"])}
        except Rejected as r:
            return {"status": r.status}

    def cmd_observe(self, req: dict) -> dict:
        return self.need_dvm().observe(req.get("nodes"), req.get("jobs"))

    # -- not provided ------------------------------------------------------
    # Each of these is only needed for capabilities this harness does not
    # declare (or, for 'scheduler' and 'query-allocation', for scenarios
    # that make the scheduler act or poll a request). Answer "not-supported".

    NOT_SUPPORTED = {
        "scheduler": "scheduler actions (reclaim, timeout warning, teardown, add nodes, queue) are not implemented",
        "query-allocation": "PMIx_Query_info(PMIX_QUERY_ALLOC_STATUS) is not implemented",
        "daemon": "daemon events need the 'daemon-faults' (crash, fail to start) or 'daemon-control' (every event) capability",
        "advance-job": "job staging needs the 'job-staging' capability",
        "inspect": "introspection needs the 'introspection' capability",
    }

    # -- dispatch ----------------------------------------------------------

    REQUIRED = {
        "start-protocol": ["protocolVersion"],
        "start": ["startupNodes", "schedulerNodes", "withoutKeys", "elastic"],
        "stop": [],
        "connect-tool": ["label"],
        "disconnect-tool": ["proc"],
        "allocate": ["requester", "directive", "info"],
        "spawn": ["requester", "apps", "info"],
        "terminate-job": ["nspace"],
        "observe": [],
    }

    def handle(self, req: dict) -> dict:
        cmd = req.get("cmd")
        if cmd in self.NOT_SUPPORTED:
            raise WireError("not-supported", f"{cmd}: {self.NOT_SUPPORTED[cmd]}")
        if cmd not in self.REQUIRED:
            raise WireError("bad-request", f"unknown command {cmd!r}")
        missing = [f for f in self.REQUIRED[cmd] if f not in req]
        if missing:
            raise WireError("bad-request", f"{cmd} lacks {missing}")
        if cmd != "start-protocol" and not self.handshaken:
            raise WireError("bad-request", "the first request must be start-protocol")
        handler: Callable[[dict], dict] = getattr(self, "cmd_" + cmd.replace("-", "_"))
        return handler(req)


class VersionRefused(Exception):
    def __init__(self, theirs: str):
        super().__init__(f"this harness speaks {PROTOCOL_VERSION} only, not {theirs}")


# --------------------------------------------------------------------------
# The main loop: read a line, answer a line
# --------------------------------------------------------------------------


def send(message: dict) -> None:
    # Compact JSON, one line, flushed at once: the runner is waiting for it.
    PROTOCOL_OUT.write(json.dumps(message, separators=(",", ":")) + "\n")
    PROTOCOL_OUT.flush()


def main() -> None:
    harness = Harness()
    while True:
        line = sys.stdin.readline()
        if line == "":
            return  # stdin closed: the runner is done with us
        if not line.strip():
            continue
        seq = None
        try:
            req = json.loads(line)
            if not isinstance(req, dict) or not isinstance(req.get("seq"), int):
                raise WireError("bad-request", "a request must be a JSON object with an integer seq")
            seq = req["seq"]
            send({"seq": seq, **harness.handle(req)})
        except json.JSONDecodeError as e:
            send({"seq": None, "error": {"message": f"not JSON: {e}", "kind": "bad-request"}})
        except VersionRefused as e:
            send({"seq": seq, "error": {"message": str(e), "kind": "protocol-version", "supportedVersions": [PROTOCOL_VERSION]}})
        except WireError as e:
            log(f"error response ({e.kind}): {e}")
            send({"seq": seq, "error": {"message": str(e), "kind": e.kind}})
        except Exception as e:  # a bug in the harness: report it, keep the stream alive
            detail = traceback.format_exc()
            log(detail)
            send({"seq": seq, "error": {"message": f"{type(e).__name__}: {e}", "kind": "internal", "detail": detail}})


if __name__ == "__main__":
    main()
