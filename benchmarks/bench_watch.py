"""`robotscope watch` over many origins served locally: fetches per second with --jobs, and the store's size.

    python benchmarks/bench_watch.py                      # 1,000 origins, --jobs 1,8,32
    python benchmarks/bench_watch.py --origins 200 --jobs 8

One asyncio server in this process listens on N ports of 127.0.0.1, each
an origin serving one real robots.txt of the corpus (its own). For each
--jobs value, a fresh store: a first run (every file new), then a run
after a tenth of the files changed (a rule added). Each run is a fresh
`robotscope watch --once --json` process, fetching every origin as the
browser, Googlebot and GPTBot, start-up included; the table gives wall
seconds, fetches per second, and the store's bytes per version kept.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "tests" / "corpus" / "robots"
AGENTS = 3  # the default: browser, Googlebot, GPTBot
SITEMAP = re.compile(rb"(?im)^([ \t]*site-?maps?[ \t]*:).*$")


class Farm:
    """N origins on 127.0.0.1, each serving its own robots.txt; `bodies` may be changed between runs."""

    def __init__(self, bodies: list[bytes]) -> None:
        self.bodies = bodies
        self.ports: list[int] = []
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(60)

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        servers = []
        for index in range(len(self.bodies)):
            server = self.loop.run_until_complete(
                asyncio.start_server(lambda r, w, i=index: self._answer(i, r, w), "127.0.0.1", 0)
            )
            servers.append(server)
            self.ports.append(server.sockets[0].getsockname()[1])
        ready.set()
        self.loop.run_forever()
        for server in servers:
            server.close()

    async def _answer(self, index: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                if not head:
                    break
                body = self.bodies[index]
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}/" for port in self.ports]

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def watch(urls: list[str], store: Path, jobs: int) -> tuple[float, dict[str, object]]:
    command = [sys.executable, "-m", "robotscope.cli", "watch", *urls, "--once", "--json", "--fail-on", "never"]
    command += ["--store", str(store), "--jobs", str(jobs), "--timeout", "30"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"watch failed ({done.returncode}): {done.stderr[-2000:]}")
    return took, json.loads(done.stdout)


def versions_in(store: Path) -> int:
    import sqlite3

    with sqlite3.connect(store) as db:
        return int(db.execute("SELECT count(*) FROM versions").fetchone()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--origins", type=int, default=1000)
    parser.add_argument("--jobs", default="1,8,32")
    options = parser.parse_args()
    files = sorted(p for p in CORPUS.iterdir() if p.name != "README.md")[: options.origins]
    bodies = [p.read_bytes() for p in files]
    farm = Farm(list(bodies))
    urls = farm.urls()
    # Each file's sitemaps on its own origin (the farm answers any path), so that a change's sitemap
    # reads stay on 127.0.0.1 like everything else.
    bodies = [SITEMAP.sub(f"\\1 {url}sitemap.xml".encode(), body) for url, body in zip(urls, bodies, strict=True)]
    print(f"{len(urls)} origins on 127.0.0.1, {sum(map(len, bodies)) / len(bodies) / 1024:.1f} KiB a file on average")
    print("| --jobs | run | seconds | fetches/s | alerts | versions | store bytes/version |")
    print("|---|---|---|---|---|---|---|")
    try:
        for jobs in map(int, options.jobs.split(",")):
            farm.bodies[:] = bodies
            with tempfile.TemporaryDirectory() as scratch:
                store = Path(scratch) / "history.sqlite3"
                for run in ("first", "a tenth changed"):
                    if run != "first":
                        for index in range(0, len(bodies), 10):
                            farm.bodies[index] = bodies[index] + b"\nUser-agent: *\nDisallow: /changed/\n"
                    took, document = watch(urls, store, jobs)
                    origins = document["origins"]
                    assert isinstance(origins, list)
                    alerts = sum(len(origin["alerts"]) for origin in origins)
                    kept = versions_in(store)
                    size = store.stat().st_size + sum(
                        p.stat().st_size for p in store.parent.glob(store.name + "-*") if p.is_file()
                    )
                    rate = len(urls) * AGENTS / took
                    print(f"| {jobs} | {run} | {took:.1f} | {rate:.0f} | {alerts} | {kept} | {size / kept:,.0f} |")
    finally:
        farm.stop()


if __name__ == "__main__":
    main()
