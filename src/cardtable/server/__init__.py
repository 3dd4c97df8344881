"""Play in the browser: the cardtable match server (FastAPI + uvicorn + SQLAlchemy).

``cardtable serve`` calls :func:`run`; tests and embedders use
:func:`cardtable.server.app.create_app`.  The protocol is documented in
``docs/server-protocol.md``.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import ipaddress
import os
import socket
import sys
from pathlib import Path
from collections.abc import Iterator
from typing import Any

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000



GRACEFUL_SHUTDOWN_SECONDS = 5
"""How long a stopping server waits for open requests (a lobby page's event stream
never ends by itself) before it closes them."""

def data_home() -> Path:
    """``$CARDTABLE_HOME`` or ``~/.local/share/cardtable``."""
    env = os.environ.get("CARDTABLE_HOME")
    return Path(env).expanduser() if env else Path.home() / ".local" / "share" / "cardtable"


def default_db_url() -> str:
    """The default database: an SQLite file ``cardtable.db`` in :func:`data_home`."""
    return f"sqlite:///{data_home() / 'cardtable.db'}"


def tune_gc() -> None:
    """Fewer, cheaper garbage collections for a long-running server: everything
    loaded so far is frozen out of the collector, and young-generation
    collections run every 10 000 allocations instead of 700 (measured: GC time
    under load down from ~5 % to ~1 %, and no 150 ms full collections)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 1000)


WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address to listen on) is this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_warning(host: str, allowed_hosts: tuple[str, ...]) -> str | None:
    """The warning of a server listening beyond this machine (``host``) that
    answers only the loopback names (and ``host``), or ``None``."""
    if is_loopback(host) or allowed_hosts:
        return None
    answered = "localhost, 127.0.0.1 and ::1" + ("" if host in WILDCARD_HOSTS else f" and {host}")
    return (f"warning: listening on {host or '*'}, but answering only requests addressed to {answered}; "
            "other machines reaching this one by its name or network address are refused (bad_origin). "
            "Allow each such name or address with --allowed-host NAME (repeatable; '*' allows any).")


def _server_class() -> Any:
    import uvicorn

    class QuietServer(uvicorn.Server):
        """uvicorn's server, stopping on Ctrl-C or SIGTERM after its graceful shutdown without
        raising the signal again afterwards (which printed a KeyboardInterrupt traceback)."""

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():
                try:
                    yield
                finally:
                    self._captured_signals.clear()

    return QuietServer


def run(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, db_url: str | None = None, *,
        ai_delay: float = 0.4, log_level: str = "warning", ws_compression: bool = False,
        proxy_headers: bool = False, forwarded_allow_ips: str = "127.0.0.1", cluster: bool = False,
        cluster_check_seconds: float = 1.0, **setting_fields: Any) -> None:
    """Serve until interrupted; prints the address (``port`` 0 picks a free one).

    ``ws_compression`` turns on permessage-deflate: worth it over slow networks,
    a waste of CPU on the loopback this server listens on by default.
    ``proxy_headers`` makes uvicorn take the client address (which the
    per-address limits count) from ``X-Forwarded-For``/``X-Forwarded-Proto``
    of the proxies at ``forwarded_allow_ips`` (comma-separated, ``*``: any).
    ``setting_fields`` are :class:`cardtable.server.room.Settings` fields (the
    limits); the address listened on is added to ``allowed_hosts``.  Raises
    :class:`~cardtable.server.store.DatabaseInUse` when another server holds
    the SQLite database, :class:`~cardtable.server.migrations.SchemaTooNew` when a newer
    cardtable migrated it.  With ``cluster`` this process is one node of a cluster
    sharing a PostgreSQL database (:mod:`cardtable.server.cluster`; it raises
    :class:`~cardtable.server.cluster.ClusterUnsupported` for SQLite)."""
    import uvicorn

    from cardtable.server.app import create_app
    from cardtable.server.cluster import ClusterConfig, cluster_conninfo
    from cardtable.server.store import check_database_free, check_schema_known, normalise_url

    url = db_url or default_db_url()
    node = None
    if cluster:
        cluster_conninfo(url)
        node = ClusterConfig(check_seconds=cluster_check_seconds)
    check_database_free(url)
    check_schema_known(url)
    hosts = tuple(setting_fields.pop("allowed_hosts", ()))
    warning = host_warning(host, hosts)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    if host not in WILDCARD_HOSTS:
        hosts += (host,)
    app = create_app(url, ai_delay=ai_delay, allowed_hosts=hosts, cluster=node, **setting_fields)
    try:  # the browser UI, when it is installed alongside
        importlib.import_module("cardtable.web").mount(app)
    except ImportError:
        pass
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    actual = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    safe_db = normalise_url(url)
    if "@" in safe_db:  # hide a password in a PostgreSQL URL
        scheme, rest = safe_db.split("://", 1)
        safe_db = f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    member = f", cluster node {node.node}" if node is not None else ""
    print(f"cardtable server on http://{shown}:{actual}/  (database: {safe_db}{member})", flush=True)
    config = uvicorn.Config(app, log_level=log_level, ws_max_size=65536, ws_ping_interval=20.0,
                            ws_ping_timeout=20.0, lifespan="on", ws_per_message_deflate=ws_compression,
                            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
                            proxy_headers=proxy_headers, forwarded_allow_ips=forwarded_allow_ips)
    server = _server_class()(config)
    tune_gc()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if not server.started:
        raise RuntimeError("the server did not start (see the message above)")


def run_processes(processes: int, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, db_url: str | None = None,
                  **run_options: Any) -> None:
    """Serve as ``processes`` cluster nodes on this machine (:func:`run` with
    ``cluster``), listening on ``port``, ``port + 1``, … (each its own free port
    with ``port`` 0), until interrupted or until one of them stops.  Put a reverse
    proxy in front of them (docs/scaling.md)."""
    import multiprocessing
    import signal
    import time

    from cardtable.server.cluster import cluster_conninfo

    cluster_conninfo(db_url or default_db_url())  # refuses SQLite before anything starts
    ctx = multiprocessing.get_context("spawn")
    nodes = [ctx.Process(target=run, args=(host, port + i if port else 0, db_url),
                         kwargs={**run_options, "cluster": True}, name=f"cardtable-node-{i}")
             for i in range(processes)]
    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # stopping the parent stops the nodes
    for node in nodes:
        node.start()
    try:
        while all(node.is_alive() for node in nodes):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for node in nodes:
            if node.is_alive():
                node.terminate()
        for node in nodes:
            node.join(GRACEFUL_SHUTDOWN_SECONDS + 5)


def main(argv: list[str] | None = None) -> None:
    """``python -m cardtable.server [--host H] [--port P] [--db URL] [--ai-delay S]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m cardtable.server", description=main.__doc__)
    parser.add_argument("--host", default=DEFAULT_HOST)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--db", default=None, help="database URL (default: SQLite under $CARDTABLE_HOME)")
    parser.add_argument("--ai-delay", type=float, default=0.4, help="seconds an AI waits before moving")
    parser.add_argument("--log-level", default="warning")
    parser.add_argument("--ws-compression", action="store_true", help="permessage-deflate on websockets")
    parser.add_argument("--allowed-origin", action="append", default=[], help="another browser origin allowed")
    parser.add_argument("--allowed-host", action="append", default=[], help="another Host name answered")
    parser.add_argument("--proxy-headers", action="store_true",
                        help="behind a reverse proxy: client addresses from X-Forwarded-For")
    parser.add_argument("--forwarded-allow-ips", default="127.0.0.1",
                        help="the proxies whose forwarded headers are trusted (comma-separated; '*': any)")
    parser.add_argument("--cluster", action="store_true",
                        help="one of several server processes sharing the PostgreSQL --db (docs/scaling.md)")
    parser.add_argument("--cluster-check-seconds", type=float, default=1.0,
                        help="how often a cluster node checks which nodes are alive")
    parser.add_argument("--room-idle-seconds", type=float, default=None,
                        help="seconds before an unattended match leaves memory")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    from cardtable.server.cluster import ClusterUnsupported
    from cardtable.server.store import DatabaseInUse

    extra: dict[str, Any] = {}
    if args.room_idle_seconds is not None:
        extra["room_idle_seconds"] = args.room_idle_seconds
    try:
        run(args.host, args.port, args.db, ai_delay=args.ai_delay, log_level=args.log_level,
            ws_compression=args.ws_compression, proxy_headers=args.proxy_headers,
            forwarded_allow_ips=args.forwarded_allow_ips, allowed_origins=tuple(args.allowed_origin),
            allowed_hosts=tuple(args.allowed_host), cluster=args.cluster,
            cluster_check_seconds=args.cluster_check_seconds, **extra)
    except (DatabaseInUse, ClusterUnsupported, RuntimeError) as err:
        sys.exit(f"cardtable serve: {err}")


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "data_home", "default_db_url", "host_warning", "main", "run",
           "run_processes", "tune_gc"]
