"""The Unix socket a DVM's job processes connect back to (AgentListener),
and why stopping it must wake its accept thread."""
import socket
import threading
from typing import Any


class AgentListener:
    """The socket job processes connect to, one per DVM; `on_conn` gets each
    connection on the accept thread."""

    def __init__(self, path: str, on_conn: Any) -> None:
        self.stopping = False
        self.on_conn = on_conn
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        self.sock.listen(64)
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            if self.stopping:
                conn.close()
                return
            self.on_conn(conn)

    def stop(self) -> None:
        # Wake the accept thread before closing. Closing alone left it blocked
        # in accept(), and every DVM's listener gets the same descriptor
        # number (3). Seen live, with each listener's descriptor logged: a
        # stopped DVM's thread accepted a later scenario's job process, which
        # then never heard its release ("did not end within") or never seemed
        # to connect ("never connected to the bridge"), in some runs and not
        # others. How the old accept() reached the new socket was not
        # established. shutdown() makes a blocked accept() return at once on
        # Linux, so no thread outlives its DVM.
        self.stopping = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass
