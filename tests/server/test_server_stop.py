"""Stopping ``cardtable serve`` with Ctrl-C or SIGTERM: a clean exit, no traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from srvkit import CEILING, eventually


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_the_server_stops_on_a_signal_without_a_traceback(tmp_path: Path, sig: signal.Signals) -> None:
    port = _free_port()
    env = {**os.environ, "CARDTABLE_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "cardtable.cli", "serve", "--port", str(port),
                             "--db", f"sqlite:///{tmp_path / 'x.db'}"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        def answers() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5).status_code == 200
            except httpx.HTTPError:
                return proc.poll() is not None  # ended: the assertion below says how
        eventually(answers, "the server never answered", timeout=CEILING)
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=CEILING)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, out
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
