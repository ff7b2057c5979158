#!/usr/bin/env python3
"""Unit tests of listener.py: the socket job processes connect back to.
Run with the others: python3 harnesses/prrte/test_bridge.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import listener  # noqa: E402


class AgentListenerLifetime(unittest.TestCase):
    """A DVM's accept thread must not outlive it: a stopped one, still blocked
    in accept(), took a later DVM's job process in live runs."""

    def test_stop_ends_the_accept_thread(self):
        import tempfile
        d = tempfile.mkdtemp()
        first = listener.AgentListener(os.path.join(d, "a.sock"), lambda conn: None)
        first.stop()
        first.thread.join(2)
        self.assertFalse(first.thread.is_alive(), "the accept thread is still blocked after stop()")


if __name__ == "__main__":
    unittest.main()
