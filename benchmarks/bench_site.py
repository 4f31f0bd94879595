"""Load time and transferred bytes of the static build (`robotscope build-site`) in Chromium.

Builds the site into a temporary folder (or takes one: --site DIR), serves it
with Python's http.server on 127.0.0.1, and opens it in a fresh browser
context (empty cache) three times: bytes transferred (the responses'
bodies), seconds until the engine is ready (`window.robotscope.ready`) and
until the first verdict is shown, with the sample file loaded.

    python benchmarks/bench_site.py
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def measure(site: Path, runs: int = 3) -> list[tuple[int, float, float]]:
    from playwright.sync_api import sync_playwright

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/"
    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for _ in range(runs):
            context = browser.new_context()
            page = context.new_page()
            sizes: list[int] = []
            page.on("requestfinished", lambda request, sizes=sizes: sizes.append(request.sizes()["responseBodySize"]))
            started = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("body[data-ready='1']", state="attached", timeout=120_000)
            page.evaluate("() => window.robotscope.ready")
            ready = time.perf_counter() - started
            page.click("#load-sample")
            page.wait_for_selector(".verdict .verdict-word", timeout=60_000)
            shown = time.perf_counter() - started
            results.append((sum(sizes), ready, shown))
            context.close()
        browser.close()
    server.shutdown()
    server.server_close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "site"
        if args.site is None:
            subprocess.run(
                [sys.executable, "-m", "robotscope.cli", "build-site", str(site)], check=True, stdout=subprocess.DEVNULL
            )
        on_disk = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        gzipped = sum(len(gzip.compress(p.read_bytes(), 6)) for p in site.rglob("*") if p.is_file())
        print(
            f"site on disk: {on_disk / 2**20:.1f} MiB; "
            f"gzipped, as most static hosts send it: {gzipped / 2**20:.1f} MiB\n"
        )
        print("| load | transferred | engine ready | first verdict shown |\n|---|---|---|---|")
        for n, (transferred, ready, shown) in enumerate(measure(site), 1):
            print(f"| {n} | {transferred / 2**20:.1f} MiB | {ready:.2f} s | {shown:.2f} s |")


if __name__ == "__main__":
    main()
