"""The bridge's end of its agents, the C programs in agents/: an Agent is a
tool_agent process the bridge started (a tool, the observer, or the test
scheduler) or a job process (job_agent) that connected to the DVM's socket.
Each takes TAB-separated commands and answers in JSON lines; the events its
default handlers receive go to the DVM's EventLog, in arrival order."""
import json
import queue
import socket
import subprocess
import threading
from typing import Any, List, Optional

from settings import CALL_S
from wire import WireError, decode_infos, log


class Agent:
    """One tool_agent process: lines in, JSON lines out, events collected."""

    def __init__(self, argv: Optional[List[str]], events: "EventLog", label: str,
                 conn: Optional[socket.socket] = None):
        self.label = label
        self.results: "queue.Queue[dict]" = queue.Queue()
        self.events = events
        self.me: Optional[dict] = None
        self.stderr_tail: List[str] = []
        self.proc: Optional[subprocess.Popen] = None
        self.conn = conn
        self.gone = False
        if conn is not None:  # a job agent that connected to the bridge's socket
            self.rfile = conn.makefile("r", encoding="utf-8", newline="\n")
            self.wfile = conn.makefile("w", encoding="utf-8", newline="\n")
        else:  # a tool agent the bridge started
            assert argv is not None
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1)
            self.rfile, self.wfile = self.proc.stdout, self.proc.stdin
            threading.Thread(target=self._read_err, daemon=True).start()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            lines = list_lines(self.rfile)
            for line in lines:
                self._line(line)
        except (OSError, ValueError):
            pass
        # The process has exited (its pipe or socket closed): whatever any
        # table says, it no longer runs (see Observation.refresh_job).
        self.gone = True
        self.results.put({"t": "eof"})

    def _line(self, line: str) -> None:
        if True:
            try:
                msg = json.loads(line)
            except json.JSONDecodeError:
                log(f"{self.label}: not JSON: {line.rstrip()}")
                return
            if msg.get("t") == "event":
                if self.me is not None:
                    self.events.add(msg, self.me)
            elif msg.get("t") in ("alloc", "attached"):
                # what the test scheduler was asked and answered: a log line
                log(f"{self.label}: {line.rstrip()}")
            else:
                self.results.put(msg)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr_tail = (self.stderr_tail + [line.rstrip()])[-10:]
            log(f"{self.label}: {line.rstrip()}")

    def wait(self, what: str, timeout: float = CALL_S) -> dict:
        try:
            msg = self.results.get(timeout=timeout)
        except queue.Empty:
            raise WireError("internal", f"{self.label}: no answer to {what} within {timeout:g} s")
        if msg.get("t") == "eof":
            raise WireError("internal", f"{self.label} exited while answering {what}: " + " | ".join(self.stderr_tail))
        if msg.get("t") == "error":
            raise WireError("internal", f"{self.label}: {msg.get('message')}")
        return msg

    def send(self, fields: List[str]) -> None:
        try:
            self.wfile.write("\t".join(fields) + "\n")
            self.wfile.flush()
        except (BrokenPipeError, OSError) as e:
            raise WireError("internal", f"{self.label} is gone: {e}")

    def call(self, fields: List[str], timeout: float = CALL_S) -> dict:
        self.send(fields)
        return self.wait(fields[0], timeout)

    def kill(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except OSError:
                pass
            return
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass


def list_lines(f: Any):
    """Iterate a text stream line by line without read-ahead blocking."""
    while True:
        line = f.readline()
        if not line:
            return
        yield line


class EventLog:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: List[dict] = []

    def add(self, msg: dict, to: dict) -> None:
        with self.lock:
            self.items.append({"seq": len(self.items) + 1, "code": msg["code"], "to": to,
                               "info": decode_infos(msg.get("info", []))})

    def snapshot(self) -> List[dict]:
        with self.lock:
            return list(self.items)
