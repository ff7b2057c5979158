"""The two ways a request can go wrong (Rejected, WireError), and where
diagnostics go (log)."""
import sys
from typing import Any


def log(*parts: Any) -> None:
    """Diagnostics go to stderr; the runner quotes the last 20 lines on a fault."""
    print("[harness]", *parts, file=sys.stderr, flush=True)


class Rejected(Exception):
    """The PMIx call failed. NOT a protocol error: it is answered with the
    command's normal response carrying `status`, and the suite grades it."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status = status


class WireError(Exception):
    """The request could not be carried out at all: answered with an error
    response (schemas/error-response.json), reported by the suite as an
    implementation fault ("errored"), never as a broken clause."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
