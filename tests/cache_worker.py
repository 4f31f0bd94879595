"""Another process using the same cache file (used by test_cache.py).

python cache_worker.py put PATH PREFIX COUNT GO_FILE
    prints `ready`, waits (at most 30 s) until GO_FILE exists, so several
    workers open a fresh file at once, then puts COUNT robots URLs named
    after PREFIX and prints the cache's warnings as a JSON list.
python cache_worker.py hold PATH SECONDS
    puts three robots URLs (`held-early-0..2`), then takes the write lock
    (BEGIN IMMEDIATE), writes `held-late`, prints `locked`, and keeps the
    lock until standard input closes (at most SECONDS), then commits.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
import time
from pathlib import Path

from robotscope.cache import RobotsCache, Stored

BODY = b"User-agent: *\nDisallow: /private/\n"


def robots_url(prefix: str, n: int) -> str:
    return f"https://{prefix}-{n}.example/robots.txt"


def put(path: str, prefix: str, count: int, go_file: str) -> None:
    print("ready", flush=True)
    for _ in range(3000):  # at most 30 s
        if Path(go_file).exists():
            break
        time.sleep(0.01)
    with RobotsCache(path) as cache:
        for n in range(count):
            cache.put(robots_url(prefix, n), Stored(200, {}, BODY, time.time()))
        print(json.dumps(cache.warnings))


def hold(path: str, seconds: float) -> None:
    with RobotsCache(path) as cache:
        for n in range(3):
            cache.put(robots_url("held-early", n), Stored(200, {}, BODY, time.time()))
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    db.execute(
        "INSERT INTO responses VALUES (?, 'latest', 200, '{}', ?, ?, 0, ?)",
        (robots_url("held-late", 0), BODY, time.time(), json.dumps({})),
    )
    print("locked", flush=True)
    released = threading.Event()

    def wait_for_eof() -> None:
        sys.stdin.read()
        released.set()

    threading.Thread(target=wait_for_eof, daemon=True).start()
    released.wait(seconds)
    db.execute("COMMIT")
    db.close()


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    if command == "put":
        put(args[0], args[1], int(args[2]), args[3])
    elif command == "hold":
        hold(args[0], float(args[1]))
    else:
        sys.exit(f"unknown command {command!r}")
