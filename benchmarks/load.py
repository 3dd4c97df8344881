"""Load test of the match server: N concurrent bot-driven matches over real
websockets on loopback.

Every seat of every match is a bot client with its own websocket.  A bot whose
turn it is waits a think time, then sends a random legal move; the latency
measured is **move → opponent update**: from the moment the mover sends its
move to the moment the *other* seat's client has received the update for it
(both clients run in the same process, so they share a clock).  Finished
matches are replaced by new ones so that N stay in play for the whole run.

By default the script starts its own server (``python -m cardtable.server``,
SQLite in a temporary folder, one process) and runs the bots in
``--client-procs`` separate processes::

    python benchmarks/load.py                         # 500 matches, 60 s, think 1 s
    python benchmarks/load.py --matches 100 --seconds 20 --think 0.2
    python benchmarks/load.py --url http://127.0.0.1:8000   # an already running server
    python benchmarks/load.py --db postgresql://...        # the server on PostgreSQL
    python benchmarks/load.py --matches 100 --seconds 20 --hostile 4   # and 4 hostile clients
    python benchmarks/load.py --clock '{"per": "move", "seconds": 60}'  # half the matches with a clock
    python benchmarks/load.py --servers 2 --db postgresql://...      # a cluster of 2 server processes

``--servers N`` starts N server processes as one cluster (``--cluster``, docs/scaling.md;
PostgreSQL only) and spreads the bots over them: each match is created on a random
process and each of its seats connects to a random process, so about half the
seats of 2 processes reach one that does not own their match (and get relayed).
The report adds the share of websocket frames that crossed processes.

It prints the move count, throughput, latency percentiles (p50/p90/p99/max),
errors (error messages, refused or dropped connections, moves never answered)
and the server's CPU use.

``--hostile N`` runs N hostile clients (``tests/server/hostile.py``, the
generator of the server's fuzz test) in one more process beside the bots, each
attacking matches of its own with malformed and hostile requests and messages
for the measured time; the report adds what they sent, the refusals by code,
the 5xx answers (there must be none) and any answer that broke the protocol.
The latencies printed are the honest bots' only.

``--clock JSON`` gives every other match that match clock (the ``clock`` of
``POST /api/matches``), so matches with and without a clock run side by side in
the same server at once; the report adds the latencies of each half.

The started server lifts its per-address limits (every bot connects from
127.0.0.1); the per-connection message rate and every size limit stay.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

try:
    import uvloop
except ImportError:  # pragma: no cover
    uvloop = None  # type: ignore[assignment]

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))  # hostile.py

try:
    from orjson import loads as json_loads
except ImportError:  # pragma: no cover
    json_loads = json.loads


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.by_clock: dict[str, list[float]] = {"with clock": [], "without clock": []}
        """The latencies again, of the matches with a clock and of those without."""
        self.ack_latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.moves = 0
        self.matches_done = 0
        self.frames = 0
        """Websocket frames the bots sent and received."""

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class MatchBots:
    """The bots of one match: one websocket per seat."""

    def __init__(self, bases: list[str], game: str, config: dict[str, Any], think: float, stats: Stats,
                 rng: random.Random, deadline: float, clock: dict[str, Any] | None = None) -> None:
        self.bases = bases
        """The server processes: a match is created on one, each seat connects to one, at random."""
        self.game = game
        self.config = config
        self.think = think
        self.stats = stats
        self.rng = rng
        self.deadline = deadline
        self.clock = clock
        self.group = stats.by_clock["with clock" if clock else "without clock"]
        self.sent: dict[int, float] = {}
        """seq of a move -> when it was sent."""

    async def run(self, https: dict[str, httpx.AsyncClient]) -> None:
        while time.monotonic() < self.deadline:
            try:
                http = https[self.rng.choice(self.bases)]
                body: dict[str, Any] = {"game": self.game, "config": self.config}
                if self.clock:
                    body["clock"] = self.clock
                r = await http.post("/api/matches", json=body)
                r.raise_for_status()
            except Exception:  # noqa: BLE001
                self.stats.error("create")
                await asyncio.sleep(1)
                continue
            created = r.json()
            self.sent = {}
            try:
                finished = await self.play(created)
            except Exception as err:  # noqa: BLE001
                self.stats.error(f"session:{type(err).__name__}")
                await asyncio.sleep(0.5)
                continue
            if finished:
                self.stats.matches_done += 1

    async def play(self, created: dict[str, Any]) -> bool:
        mid = created["match"]
        seats = created["seats"]
        n = len(seats)
        done = asyncio.Event()
        finished = [False]

        async def bot(seat: int, token: str) -> None:
            ws_url = self.rng.choice(self.bases).replace("http://", "ws://") + "/ws"
            async with connect(ws_url, max_size=2**22, open_timeout=30, ping_interval=None) as ws:
                await ws.send(json.dumps({"type": "hello", "v": 1, "match": mid, "token": token}))
                self.stats.frames += 1
                pending: asyncio.Task[None] | None = None
                while not done.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, self.deadline - time.monotonic()) + 10)
                    except asyncio.TimeoutError:
                        if time.monotonic() < self.deadline:
                            self.stats.error("timeout")
                        done.set()
                        break
                    msg = json_loads(raw)
                    self.stats.frames += 1
                    kind = msg["type"]
                    now = time.perf_counter()
                    if kind == "error":
                        self.stats.error(f"error:{msg['code']}")
                        continue
                    if kind == "ack":
                        t0 = self.sent.get(msg["seq"])
                        if t0 is not None:
                            self.stats.ack_latencies.append(now - t0)
                        continue
                    if kind not in ("state", "update"):
                        continue
                    seq = msg["seq"]
                    if kind == "update" and msg["event"]["seat"] != seat:
                        t0 = self.sent.get(seq)
                        if t0 is not None:
                            self.stats.latencies.append(now - t0)
                            self.group.append(now - t0)
                    if msg["status"] == "finished":
                        finished[0] = True
                        done.set()
                        break
                    if time.monotonic() >= self.deadline:
                        done.set()
                        break
                    legal = msg["legal"]
                    if legal and (pending is None or pending.done()):
                        pending = asyncio.ensure_future(self._move(ws, seq, legal))
                if pending is not None and not pending.done():
                    pending.cancel()

        await asyncio.gather(*(bot(s["seat"], s["token"]) for s in seats[:n]))
        return finished[0]

    async def _move(self, ws: Any, seq: int, legal: list[dict[str, Any]]) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        choice = self.rng.choice(legal)
        self.sent[seq + 1] = time.perf_counter()
        self.stats.moves += 1
        self.stats.frames += 1
        await ws.send(json.dumps({"type": "move", "seq": seq, "action": choice["action"]}))


async def client_main(bases: list[str], matches: int, seconds: float, think: float, game: str,
                      config: dict[str, Any], seed: int, ramp: float,
                      clock: dict[str, Any] | None = None) -> dict[str, Any]:
    stats = Stats()
    deadline = time.monotonic() + seconds + ramp
    limits = httpx.Limits(max_connections=50)
    https = {base: httpx.AsyncClient(base_url=base, timeout=60, limits=limits) for base in bases}
    try:
        tasks = []
        for i in range(matches):
            bots = MatchBots(bases, game, config, think, stats, random.Random(seed * 100003 + i), deadline,
                             clock if i % 2 else None)
            tasks.append(asyncio.ensure_future(bots.run(https)))
            if ramp > 0:
                await asyncio.sleep(ramp / matches)
        await asyncio.gather(*tasks)
    finally:
        for http in https.values():
            await http.aclose()
    return {"latencies": stats.latencies, "by_clock": stats.by_clock, "ack": stats.ack_latencies, "errors": stats.errors,
            "moves": stats.moves, "matches_done": stats.matches_done, "cpu": time.process_time(),
            "frames": stats.frames}


def _client_proc(args: tuple[Any, ...], out: Any) -> None:
    if uvloop is not None:
        uvloop.install()
    out.put(asyncio.run(client_main(*args)))


def _hostile_proc(base: str, clients: int, seconds: float, seed: int, out: Any) -> None:
    import hostile

    async def run_all() -> hostile.Tally:
        tally = hostile.Tally()
        clients_done = asyncio.gather(*(hostile.hammer(base, seed * 1000 + i, seconds, tally, timeout=10)
                                        for i in range(clients)))
        try:
            await asyncio.wait_for(clients_done, seconds + 30)
        except asyncio.TimeoutError:
            tally.problems["client: still waiting for answers 30 s after the end (stopped)"] += 1
        return tally

    out.put(asyncio.run(run_all()))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(q / 100 * (len(ordered) - 1)))))
    return ordered[k]


def cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


SERVER_LOG: dict[str, Any] = {"lines": 0, "tracebacks": 0, "errors": {}}
"""What the started server printed: line and traceback counts, and each
traceback's last line (the exception) with how often it came."""


def _drain(stream: Any) -> None:
    """Read the started server's output to the end: a pipe nobody reads fills up,
    and a server logging the refused inputs then blocks on its next write."""
    in_traceback = False
    for line in stream:
        SERVER_LOG["lines"] += 1
        if line.startswith("Traceback"):
            SERVER_LOG["tracebacks"] += 1
            in_traceback = True
        elif in_traceback and not line.startswith(" "):
            in_traceback = False
            errors = SERVER_LOG["errors"]
            errors[line.strip()[:120]] = errors.get(line.strip()[:120], 0) + 1


def start_server(db: str | None, cluster: bool = False) -> tuple[subprocess.Popen[str], str, str | None]:
    tmp = None
    if db is None:
        tmp = tempfile.mkdtemp(prefix="cardtable-load-")
        db = f"sqlite:///{tmp}/load.db"
    limits = {"http_rate_per_second": 1e6, "http_burst": 1e6, "max_matches_per_minute": 1e6,
              "hints_per_minute": 1e6, "max_sockets_per_address": 1_000_000, "cluster": cluster}
    code = ("import json, sys; from cardtable.server import run; "
            "run('127.0.0.1', 0, sys.argv[1], ai_delay=0, **json.loads(sys.argv[2]))")
    proc = subprocess.Popen(
        [sys.executable, "-c", code, db, json.dumps(limits)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "http://" not in line:
        raise SystemExit(f"server did not start: {line}")
    base = line.split()[3].rstrip("/")
    threading.Thread(target=_drain, args=(proc.stdout,), daemon=True).start()
    for _ in range(100):
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.05)
    return proc, base, tmp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", "-n", type=int, default=500, help="concurrent matches")
    parser.add_argument("--seconds", type=float, default=60, help="measured run time")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time of a bot before each move, seconds (uniform 0.5x-1.5x)")
    parser.add_argument("--ramp", type=float, default=10, help="seconds over which matches are started (not measured)")
    parser.add_argument("--game", default="lost-cities")
    parser.add_argument("--config", default="{}", help="game options as JSON")
    parser.add_argument("--client-procs", type=int, default=2, help="processes running the bots")
    parser.add_argument("--url", default=None, help="use this running server instead of starting one")
    parser.add_argument("--db", default=None, help="database URL of the started server (default: SQLite temp file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--servers", type=int, default=1, metavar="N",
                        help="server processes started as one cluster (needs --db postgresql://…)")
    parser.add_argument("--cluster", action="store_true", help="start even one server process in cluster mode")
    parser.add_argument("--hostile", type=int, default=0, metavar="N",
                        help="hostile clients beside the bots, in one more process (default none)")
    parser.add_argument("--clock", default=None, metavar="JSON",
                        help="a match clock (as in POST /api/matches) for every other match (default none)")
    args = parser.parse_args()

    servers: list[subprocess.Popen[str]] = []
    if args.url:
        bases = [args.url.rstrip("/")]
    else:
        if (args.servers > 1 or args.cluster) and not (args.db or "").startswith(("postgresql:", "postgres:")):
            raise SystemExit("--servers N (a cluster) needs --db postgresql://…")
        started = [start_server(args.db, cluster=args.servers > 1 or args.cluster) for _ in range(args.servers)]
        servers = [proc for proc, _, _ in started]
        bases = [base for _, base, _ in started]
    base = bases[0]
    proc = servers[0] if servers else None
    config = json.loads(args.config)
    clock = json.loads(args.clock) if args.clock else None
    procs = max(1, min(args.client_procs, args.matches))
    share = [args.matches // procs + (1 if i < args.matches % procs else 0) for i in range(procs)]
    print(f"servers {' '.join(bases)}; {args.matches} matches of {args.game} {config}; think {args.think} s; "
          f"{args.seconds:.0f} s after a {args.ramp:.0f} s ramp; {procs} client processes", flush=True)
    cpu0 = sum(cpu_seconds(p.pid) for p in servers) if servers else float("nan")
    wall0 = time.monotonic()
    ctx = mp.get_context("spawn")
    out: Any = ctx.Queue()
    workers = [ctx.Process(target=_client_proc,
                           args=((bases, share[i], args.seconds, args.think, args.game, config, args.seed + i,
                                  args.ramp, clock), out))
               for i in range(procs)]
    if args.hostile > 0:
        hostile_out: Any = ctx.Queue()
        hostile_worker = ctx.Process(target=_hostile_proc,
                                     args=(base, args.hostile, args.ramp + args.seconds, args.seed, hostile_out))
        hostile_worker.start()
    for w in workers:
        w.start()
    results = [out.get() for _ in workers]
    for w in workers:
        w.join()
    tally = None
    if args.hostile > 0:
        tally = hostile_out.get(timeout=120)
        hostile_worker.join(30)
    wall = time.monotonic() - wall0
    cpu = (sum(cpu_seconds(p.pid) for p in servers) - cpu0) if servers else float("nan")
    healths = []
    for b in bases:
        try:
            healths.append(httpx.get(b + "/api/health", timeout=10).json())
        except Exception:  # noqa: BLE001
            healths.append({})
    health = healths[0]
    for p in servers:
        p.send_signal(signal.SIGINT)
    for p in servers:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()

    lat = [x for r in results for x in r["latencies"]]
    ack = [x for r in results for x in r["ack"]]
    errors: dict[str, int] = {}
    for r in results:
        for k, v in r["errors"].items():
            errors[k] = errors.get(k, 0) + v
    moves = sum(r["moves"] for r in results)
    done = sum(r["matches_done"] for r in results)
    ms = 1000.0
    print(f"moves sent: {moves}  ({moves / wall:.0f}/s over {wall:.0f} s incl. ramp); matches finished: {done}")
    print(f"move -> opponent update latency over {len(lat)} moves (ms): "
          f"p50 {percentile(lat, 50) * ms:.1f}  p90 {percentile(lat, 90) * ms:.1f}  "
          f"p99 {percentile(lat, 99) * ms:.1f}  max {max(lat, default=float('nan')) * ms:.1f}  "
          f"mean {statistics.fmean(lat) * ms if lat else float('nan'):.1f}")
    if clock:
        for group in ("without clock", "with clock"):
            part = [x for r in results for x in r["by_clock"][group]]
            print(f"  {group} {clock if group == 'with clock' else ''} over {len(part)} moves (ms): "
                  f"p50 {percentile(part, 50) * ms:.1f}  p90 {percentile(part, 90) * ms:.1f}  "
                  f"p99 {percentile(part, 99) * ms:.1f}  max {max(part, default=float('nan')) * ms:.1f}")
    print(f"move -> ack latency (ms): p50 {percentile(ack, 50) * ms:.1f}  p99 {percentile(ack, 99) * ms:.1f}")
    if "move_ms_p50" in health:
        print(f"inside the server (message read -> updates queued, last {health['recent']} moves, ms): "
              f"p50 {health['move_ms_p50']}  p90 {health['move_ms_p90']}  p99 {health['move_ms_p99']}  "
              f"max {health['move_ms_max']}")
    print(f"errors: {sum(errors.values())} {errors if errors else ''}")
    clusters = [h["cluster"] for h in healths if "cluster" in h]
    if clusters:
        frames = sum(r["frames"] for r in results)
        crossed = sum(c["frames_relayed_in"] + c["frames_relayed_out"] for c in clusters)
        print(f"cluster of {len(clusters)} processes: {crossed} of {frames} websocket frames crossed processes "
              f"({100 * crossed / max(1, frames):.0f} %); relayed sockets now "
              f"{[c['relayed_sockets'] for c in clusters]}, fencings {sum(c['fenced'] for c in clusters)}")
    if proc is not None:
        print(f"server CPU ({len(servers)} processes): {cpu:.1f} s over {wall:.0f} s wall ({100 * cpu / wall:.0f} % of one core), "
              f"{1000 * cpu / max(1, moves):.2f} ms per move")
    if tally is not None:
        print(f"--- {args.hostile} hostile clients beside the bots ---\n{tally.summary()}")
    if proc is not None:
        print(f"server log: {SERVER_LOG['lines']} lines, {SERVER_LOG['tracebacks']} tracebacks "
              f"{SERVER_LOG['errors'] or ''}")
    client_cpu = sum(r["cpu"] for r in results)
    load = os.getloadavg()
    print(f"bot clients' CPU: {client_cpu:.1f} s ({100 * client_cpu / wall:.0f} % of one core); "
          f"machine: {os.cpu_count()} CPUs, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
