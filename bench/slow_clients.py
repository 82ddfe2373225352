"""Benchmark: /api/health latency while slow clients hold connections to gunicorn.

    DEBUG=true .venv/bin/python bench/slow_clients.py [--clients 10] [--probes 40] [--worker-class sync]

Starts gunicorn with gunicorn.conf.py (as docker/Dockerfile does) on a free loopback port and
the development database, then measures GET /api/health (a new connection per probe) without
slow clients and with `--clients` of them open: half trickle their headers a byte every
0.5 s, half send whole headers with a valid API key and trickle the body. Prints p50/p95/max
in ms for each phase, probes that got no answer within --timeout, and the load average.
Every client stops after --max-seconds; only 127.0.0.1 is contacted. `--worker-class sync`
(with --threads 1) reproduces the configuration before gunicorn.conf.py.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from cms import services  # noqa: E402
from cms.models import Workspace  # noqa: E402
from tests.servers import free_port  # noqa: E402
from tests.slow_clients import health_latency, slow_clients  # noqa: E402

SLUG = "bench-slow-clients"


def _summary(label: str, latencies: list[float], timeout: float) -> str:
    ms = sorted(value * 1000 for value in latencies)
    p95 = ms[max(0, int(len(ms) * 0.95) - 1)]
    missed = sum(1 for value in latencies if value >= timeout)
    return (f"{label:<28} p50 {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms  "
            f"unanswered {missed}/{len(ms)}  load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def _probe(port: int, probes: int, timeout: float) -> list[float]:
    return [health_latency(port, timeout=timeout) for _ in range(probes)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--probes", type=int, default=40)
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds a health probe waits")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="no slow client lives longer")
    parser.add_argument("--workers", type=int, default=None, help="override gunicorn.conf.py's workers")
    parser.add_argument("--worker-class", default=None, help="override gunicorn.conf.py's worker class")
    args = parser.parse_args()

    workspace, _ = Workspace.objects.get_or_create(slug=SLUG, defaults={"name": "Slow-client bench"})
    _, key = services.api_key_create(workspace=workspace, name="bench-slow-clients")

    port = free_port()
    command = [str(Path(sys.executable).parent / "gunicorn"), "--config", str(ROOT / "gunicorn.conf.py"),
               "--bind", f"127.0.0.1:{port}", "--graceful-timeout", "5"]
    overrides = ["--workers", str(args.workers)] if args.workers else []
    if args.worker_class:
        overrides += ["--worker-class", args.worker_class] + (["--threads", "1"] if args.worker_class == "sync" else [])
    command += overrides
    env = {**os.environ, "API_RATE_LIMIT_KEY": "", "API_RATE_LIMIT_AUTH_FAILURES": ""}
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health_latency(port, timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("gunicorn did not start") from None
                time.sleep(0.2)
        _probe(port, 5, args.timeout)  # warm every worker's imports and connection

        print(f"gunicorn.conf.py{' with ' + ' '.join(overrides) if overrides else ''}; "
              f"{args.clients} slow clients ({args.clients - args.clients // 2} headers, {args.clients // 2} keyed bodies)")
        print(_summary("health, no slow clients", _probe(port, args.probes, args.timeout), args.timeout))
        with slow_clients(port, headers=args.clients - args.clients // 2, bodies=args.clients // 2, slug=SLUG,
                          key=key, max_seconds=args.max_seconds):
            during = _probe(port, args.probes, args.timeout)
        print(_summary(f"health, {args.clients} slow clients", during, args.timeout))
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        workspace.delete()


if __name__ == "__main__":
    main()
