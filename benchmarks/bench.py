#!/usr/bin/env python
"""Benchmark robotscope against its peers, side by side, in one run.

    python benchmarks/bench.py            # full run, about 7 minutes on 2 cores
    python benchmarks/bench.py --quick    # about 3 minutes, a smoke test
    python benchmarks/bench.py --only shapes,workload   # some sections only
    python benchmarks/bench.py --json out.json

Libraries: robotscope, Protego, Google's C++ matcher (PyPI fast-robotstxt,
module `robotstxt`) and texting_robots (Rust, PyPI texting-robots-py). A peer
that is not installed is reported as "not installed"; the rest still run.

What is measured (see benchmarks/README.md for the meaning of each number),
by section (`--only`):

1. corpus: parse throughput over the corpus (files/s, best of N
   repetitions), and check throughput with each file parsed once (checks/s),
   first pass (includes any lazy per-agent work) and steady state;
2. adversarial: a wildcard pattern against long URLs, each library in a
   subprocess with a time limit;
3. memory: memory held by all parsed files, each library in a fresh subprocess;
4. workload: the crawler workload (a few URLs for two crawlers per file);
5. agents: many User-Agent strings of one crawler against the largest file;
6. lint: robotscope's lint time per file;
7. shapes: the 20,000-rule shape family (shapes.py) against short and long
   URLs, first check and steady state, each library and shape in a fresh
   subprocess with a time limit.

The garbage collector is disabled during every timed section, for every
library alike, as `timeit` does.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import importlib.metadata
import json
import os
import platform
import random
import re
import resource
import subprocess
import sys
import time
import urllib.parse
import zlib
from collections.abc import Callable
from typing import Any

from shapes import LONG_URL_CHARS, RULES, SHAPES, Shape

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(HERE), "tests", "corpus", "robots")
AGENT = "Googlebot"
BASELINE = "protego"  # every ratio is against this library
# The crawler workload: a few dozen URLs for one or two crawlers per host.
WORKLOAD_AGENTS = ("Googlebot", "ExampleUnknownCrawler")
WORKLOAD_URLS = 20
# The shape family (shapes.py): each shape against short URLs and against long ones. Before the
# steady state, up to WARM_UP checks let a library finish work it defers until an object is asked
# often (robotscope's regex filter); the steady state then takes at least SHAPE_MIN_CHECKS checks.
SHAPE_KINDS = ("short", "long")
WARM_UP = 100
SHAPE_MIN_CHECKS = {"short": 30, "long": 3}
# Distinct User-Agent strings of one crawler (a log audit) against the largest real file.
UA_COUNT = 2_000
UA_FILE = "docs.oracle.com"

# The report's sections, each run on its own with --only; those over the corpus load it first.
SECTIONS = ("corpus", "adversarial", "memory", "workload", "agents", "lint", "shapes")
CORPUS_SECTIONS = {"corpus", "adversarial", "memory", "workload", "lint"}

ADV_ROBOTS = "User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b\n"
ADV_HOST = "https://example.com"

# --------------------------------------------------------------------------
# Libraries. Each adapter knows how to import its library, turn raw corpus
# bytes into the input the library takes, parse, and run a check loop.
# The loops are written out per library (not through a shared wrapper) so
# that each one pays only the cost of calling its own API.
# --------------------------------------------------------------------------


class Lib:
    key: str = ""
    title: str = ""
    dist: str = ""  # distribution name, for the version
    parse_once: bool = True  # False: no parse-once object (Google)
    pure_python: bool = False  # tracemalloc sees all of its memory

    def __init__(self) -> None:
        self.available = False
        self.error = ""
        try:
            self._import()
            self.available = True
        except ImportError as exc:  # a missing optional peer
            self.error = f"not installed ({exc})"

    def _import(self) -> None:
        raise NotImplementedError

    @property
    def version(self) -> str:
        try:
            return importlib.metadata.version(self.dist)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    def native(self, raw: bytes) -> Any:
        """The corpus file in the form the library takes (prepared untimed)."""
        return raw

    def parse_all(self, inputs: list[Any]) -> list[Any]:
        raise NotImplementedError

    def check_all(self, objs: list[Any], urls: list[list[str]]) -> None:
        raise NotImplementedError

    def check_one(self, obj: Any, url: str) -> bool:
        raise NotImplementedError

    # The crawler workload: each file parsed once, then WORKLOAD_URLS URLs for each of
    # WORKLOAD_AGENTS (a library built per agent builds one object per agent at parse).
    def workload_parse(self, inputs: list[Any]) -> list[Any]:
        return self.parse_all(inputs)

    def workload_check(self, objs: list[Any], urls: list[list[str]]) -> None:
        raise NotImplementedError

    def check_agent(self, obj: Any, agent: str, url: str) -> bool:
        raise NotImplementedError


def _decode(raw: bytes) -> str:
    # Protego and Google's binding take str; the caller decodes. This is done
    # before timing, as part of preparing the input.
    return raw.decode("utf-8", errors="replace")


class Robotscope(Lib):
    key, title, dist, pure_python = "robotscope", "robotscope", "robotscope", True

    def _import(self) -> None:
        import robotscope

        self.mod = robotscope

    def parse_all(self, inputs: list[Any]) -> list[Any]:
        p = self.mod.parse
        return [p(x) for x in inputs]

    def check_all(self, objs: list[Any], urls: list[list[str]]) -> None:
        agent = AGENT
        for obj, us in zip(objs, urls, strict=False):
            f = obj.can_fetch
            for u in us:
                f(agent, u)

    def check_one(self, obj: Any, url: str) -> bool:
        return obj.can_fetch(AGENT, url)

    def workload_check(self, objs: list[Any], urls: list[list[str]]) -> None:
        for obj, us in zip(objs, urls, strict=False):
            f = obj.can_fetch
            for agent in WORKLOAD_AGENTS:
                for u in us:
                    f(agent, u)

    def workload_verdict(self, objs: list[Any], urls: list[list[str]]) -> None:
        """The full proof (deciding rule, line, every candidate) for the same checks."""
        for obj, us in zip(objs, urls, strict=False):
            f = obj.verdict
            for agent in WORKLOAD_AGENTS:
                for u in us:
                    f(agent, u)

    def check_agent(self, obj: Any, agent: str, url: str) -> bool:
        return obj.can_fetch(agent, url)


class ProtegoLib(Lib):
    key, title, dist, pure_python = "protego", "Protego", "Protego", True

    def _import(self) -> None:
        from protego import Protego

        self.cls = Protego

    def native(self, raw: bytes) -> Any:
        return _decode(raw)

    def parse_all(self, inputs: list[Any]) -> list[Any]:
        p = self.cls.parse
        return [p(x) for x in inputs]

    def check_all(self, objs: list[Any], urls: list[list[str]]) -> None:
        agent = AGENT
        for obj, us in zip(objs, urls, strict=False):
            f = obj.can_fetch
            for u in us:
                f(u, agent)

    def check_one(self, obj: Any, url: str) -> bool:
        return obj.can_fetch(url, AGENT)

    def workload_check(self, objs: list[Any], urls: list[list[str]]) -> None:
        for obj, us in zip(objs, urls, strict=False):
            f = obj.can_fetch
            for agent in WORKLOAD_AGENTS:
                for u in us:
                    f(u, agent)

    def check_agent(self, obj: Any, agent: str, url: str) -> bool:
        return obj.can_fetch(url, agent)


class GoogleLib(Lib):
    key, title, dist, parse_once = "google", "Google C++ (fast-robotstxt)", "fast-robotstxt", False

    def _import(self) -> None:
        import robotstxt

        self.matcher = robotstxt.RobotsMatcher()

    def native(self, raw: bytes) -> Any:
        return _decode(raw)

    def parse_all(self, inputs: list[Any]) -> list[Any]:
        # No parse-once API: the "parse" measured is one is_allowed call per
        # file (parse + one match), labelled as such in the report.
        f = self.matcher.is_allowed
        agent = AGENT
        for x in inputs:
            f(x, agent, ADV_HOST + "/")
        return inputs

    def check_all(self, objs: list[Any], urls: list[list[str]]) -> None:
        f = self.matcher.is_allowed
        agent = AGENT
        for text, us in zip(objs, urls, strict=False):
            for u in us:
                f(text, agent, u)

    def check_one(self, obj: Any, url: str) -> bool:
        return self.matcher.is_allowed(obj, AGENT, url)

    def workload_check(self, objs: list[Any], urls: list[list[str]]) -> None:
        f = self.matcher.is_allowed
        for text, us in zip(objs, urls, strict=False):
            for agent in WORKLOAD_AGENTS:
                for u in us:
                    f(text, agent, u)

    def check_agent(self, obj: Any, agent: str, url: str) -> bool:
        return self.matcher.is_allowed(obj, agent, url)


class TextingRobots(Lib):
    key, title, dist = "texting_robots", "texting_robots (Rust)", "texting-robots-py"

    def _import(self) -> None:
        from texting_robots import Robot

        self.cls = Robot

    def parse_all(self, inputs: list[Any]) -> list[Any]:
        # Built for one agent: the object only holds that agent's rules.
        r = self.cls
        agent = AGENT
        return [r(agent, x) for x in inputs]

    def check_all(self, objs: list[Any], urls: list[list[str]]) -> None:
        for obj, us in zip(objs, urls, strict=False):
            f = obj.allowed
            for u in us:
                f(u)

    def check_one(self, obj: Any, url: str) -> bool:
        return obj.allowed(url)

    def workload_parse(self, inputs: list[Any]) -> list[Any]:
        r = self.cls
        return [[r(agent, x) for agent in WORKLOAD_AGENTS] for x in inputs]

    def workload_check(self, objs: list[Any], urls: list[list[str]]) -> None:
        for per_agent, us in zip(objs, urls, strict=False):
            for obj in per_agent:
                f = obj.allowed
                for u in us:
                    f(u)


LIB_CLASSES = [Robotscope, ProtegoLib, GoogleLib, TextingRobots]


def make_lib(key: str) -> Lib:
    for cls in LIB_CLASSES:
        if cls.key == key:
            return cls()
    raise SystemExit(f"unknown library {key!r}")


# --------------------------------------------------------------------------
# Corpus and workload
# --------------------------------------------------------------------------


def load_corpus(step: int = 1) -> list[tuple[str, bytes]]:
    names = sorted(os.listdir(CORPUS))[::step]
    out = []
    for name in names:
        with open(os.path.join(CORPUS, name), "rb") as fh:
            out.append((name, fh.read()))
    return out


_RULE_RE = re.compile(rb"^[ \t]*(?:dis)?allow[ \t]*:[ \t]*([^\s#]+)", re.IGNORECASE | re.MULTILINE)
_FILLERS = ("x", "abc", "item/42", "a-b_c", "2024/01", "")
_WORDS = ("index.html", "page", "foo", "123", "print", "en", "search", "a.pdf", "img.jpg", "tag")
_COMMON = (
    "/",
    "/index.html",
    "/about",
    "/contact",
    "/search?q=test",
    "/search/results?page=2&sort=asc",
    "/wp-admin/",
    "/wp-admin/admin-ajax.php",
    "/wp-content/uploads/2023/05/photo.jpg",
    "/admin/login",
    "/login?next=/account",
    "/cart",
    "/checkout/",
    "/account/orders",
    "/products/123",
    "/products/widget-blue?color=blue&size=m",
    "/category/shoes/page/3",
    "/blog/2024/01/some-post-title",
    "/tag/news",
    "/static/js/app.min.js",
    "/static/css/site.css",
    "/images/logo.png",
    "/api/v1/items?page=2",
    "/feed/",
    "/rss.xml",
    "/sitemap.xml",
    "/robots.txt",
    "/cgi-bin/test.cgi",
    "/print/article/77",
    "/user/profile?id=42",
    "/en/",
    "/de/produkte/",
    "/share?url=https%3A%2F%2Fexample.com",
    "/download/file.pdf",
    "/?utm_source=news&utm_medium=email",
)
_SAFE = "/?&=%:@!$'()*+,;-._~"


def _rule_path(pattern: str, rng: random.Random) -> str:
    pattern = pattern.removesuffix("$")
    while "*" in pattern:
        pattern = pattern.replace("*", rng.choice(_FILLERS), 1)
    if not pattern.startswith("/"):
        pattern = "/" + pattern
    variant = rng.randrange(4)
    if variant == 1:
        pattern = pattern.rstrip("/") + "/" + rng.choice(_WORDS)
    elif variant == 2:
        pattern += "?q=" + rng.choice(_WORDS)
    elif variant == 3 and len(pattern) > 2:
        pattern = pattern[: rng.randrange(1, len(pattern))]
    return pattern


def make_urls(name: str, raw: bytes, count: int) -> list[str]:
    """A deterministic list of `count` full https URLs for one file.

    Half come from the file's own allow/disallow patterns (wildcards filled
    in, then used as is, extended, given a query or cut short), half from
    common paths with or without a suffix. The URLs of a file are all
    distinct, so a URL cache (robotscope keeps one) gets no repeat hits
    within a file. The seed is the file name.
    """
    rng = random.Random(zlib.crc32(name.encode()))
    patterns = list(dict.fromkeys(m.decode("utf-8", "replace") for m in _RULE_RE.findall(raw[:512_000])))
    host = "https://" + name
    urls: dict[str, None] = {}
    i = 0
    while len(urls) < count:
        if patterns and i % 2 == 0:
            path = _rule_path(rng.choice(patterns), rng)
        else:
            path = rng.choice(_COMMON)
            if rng.random() < 0.3:
                path = path.rstrip("/") + "/" + rng.choice(_WORDS)
        url = host + urllib.parse.quote(path, safe=_SAFE)
        if url in urls:  # every URL of a file is distinct: no library gains from a cache
            url += ("&" if "?" in url else "?") + f"p={i}"
        urls[url] = None
        i += 1
    return list(urls)


# --------------------------------------------------------------------------
# Timing helpers
# --------------------------------------------------------------------------


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """Run `fn` once with the garbage collector disabled, as timeit does."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - t0
    finally:
        if was_enabled:
            gc.enable()
    return elapsed, result


def usable_inputs(lib: Lib, corpus: list[tuple[str, bytes]]) -> tuple[list[int], list[Any], int]:
    """Indices of the files the library takes without raising, their native inputs, failures."""
    idx, inputs, failed = [], [], 0
    for i, (_, raw) in enumerate(corpus):
        x = lib.native(raw)
        try:
            lib.parse_all([x])
        except Exception:
            failed += 1
            continue
        idx.append(i)
        inputs.append(x)
    return idx, inputs, failed


def bench_parse(lib: Lib, inputs: list[Any], reps: int) -> dict[str, Any]:
    best = min(timed(lambda: lib.parse_all(inputs))[0] for _ in range(reps))
    return {"files": len(inputs), "best_seconds": best, "files_per_s": len(inputs) / best, "reps": reps}


def bench_checks(lib: Lib, inputs: list[Any], urls: list[list[str]], reps: int) -> dict[str, Any]:
    n = sum(map(len, urls))
    cold, warm = [], []
    for _ in range(reps):
        objs = lib.parse_all(inputs)  # untimed: fresh objects for a true first pass
        cold.append(timed(lambda objs=objs: lib.check_all(objs, urls))[0])
        warm.append(timed(lambda objs=objs: lib.check_all(objs, urls))[0])
        del objs
    return {
        "checks": n,
        "first_pass_seconds": min(cold),
        "steady_seconds": min(warm),
        "first_pass_checks_per_s": n / min(cold),
        "steady_checks_per_s": n / min(warm),
        "reps": reps,
    }


def workload_pass(lib: Lib, inputs: list[Any], urls: list[list[str]]) -> dict[str, float]:
    """One repetition of the crawler workload for one library.

    Seconds to parse, for the first pass and the steady state.

    The first pass is timed from the first check (a lazily built index is
    inside it, as it is for every library); `verdict_*` is robotscope's full
    proof on the same checks.
    """
    out = {"parse": timed(lambda: lib.workload_parse(inputs))[0]}
    runs = [("", lib.workload_check)]
    verdict = getattr(lib, "workload_verdict", None)
    if verdict is not None:
        runs.append(("verdict_", verdict))
    for prefix, run in runs:
        objs = lib.workload_parse(inputs)  # untimed: fresh objects for a true first pass
        out[prefix + "first"] = timed(lambda objs=objs, run=run: run(objs, urls))[0]
        # Steady state: the better of the second and third passes, so work a library
        # defers until an object has been asked often (robotscope's regex filter) is done.
        out[prefix + "steady"] = min(timed(lambda objs=objs, run=run: run(objs, urls))[0] for _ in range(2))
        del objs
    return out


def bench_workload(runs: dict[str, tuple[Lib, list[Any], list[list[str]]]], reps: int) -> dict[str, dict[str, Any]]:
    """The crawler workload: parse each file, then WORKLOAD_URLS URLs x WORKLOAD_AGENTS, for every library.

    The repetitions are interleaved (each repetition runs every library in
    turn), so a slow spell of a shared machine slows every library alike;
    each figure is the best of `reps`.
    """
    best: dict[str, dict[str, float]] = {key: {} for key in runs}
    for _ in range(reps):
        for key, (lib, inputs, urls) in runs.items():
            for name, seconds in workload_pass(lib, inputs, urls).items():
                best[key][name] = min(best[key].get(name, seconds), seconds)
    out: dict[str, dict[str, Any]] = {}
    for key, (_, inputs, urls) in runs.items():
        n = sum(map(len, urls)) * len(WORKLOAD_AGENTS)
        found = best[key]
        out[key] = {"files": len(inputs), "checks": n, "parse_files_per_s": len(inputs) / found["parse"]}
        for prefix in ("", "verdict_"):
            if prefix + "first" in found:
                out[key][prefix + "first_pass_checks_per_s"] = n / found[prefix + "first"]
                out[key][prefix + "steady_checks_per_s"] = n / found[prefix + "steady"]
    return out


def shape_urls(shape: Shape, kind: str, count: int, host: str = "h") -> list[str]:
    """`count` URLs of one kind for `shape`, each on a new host (no URL cache can answer one)."""
    paths = shape.short_urls(count) if kind == "short" else [shape.long_url(i) for i in range(count)]
    return [f"https://{host}{i}.example.com{path}" for i, path in enumerate(paths)]


def child_shape(key: str, name: str, kind: str, how: str, budget: float, most: int) -> dict[str, Any]:
    """One library on one shape of the family, in a fresh process.

    The object is parsed untimed; the first check (any index built inside
    it) is timed alone; then up to WARM_UP checks on other short URLs (work a
    library defers until an object has been asked often is done), and the
    steady state: the mean time per check over the next checks, each on a
    new URL, until `budget` seconds (at least SHAPE_MIN_CHECKS[kind], at most
    `most`). The answers of the first and steady checks come back in order,
    as a string of 0 and 1, so the parent can compare libraries.
    """
    lib = make_lib(key)
    if not lib.available:
        return {"error": lib.error}
    shape = next(s for s in SHAPES if s.name == name)
    obj = lib.parse_all([lib.native(shape.text().encode())])[0]
    check: Callable[[Any, str], bool]
    check = (lambda o, u: o.verdict(AGENT, u).allowed) if how == "verdict" else lib.check_one
    urls = shape_urls(shape, kind, most + 1)
    gc.disable()
    t0 = time.perf_counter()
    answers = [check(obj, urls[0])]
    first = time.perf_counter() - t0
    warm_until = time.perf_counter() + budget
    for url in shape_urls(shape, "short", WARM_UP, host="w"):
        check(obj, url)
        if time.perf_counter() > warm_until:
            break
    total, least = 0.0, SHAPE_MIN_CHECKS[kind]
    for url in urls[1:]:
        t0 = time.perf_counter()
        answers.append(check(obj, url))
        total += time.perf_counter() - t0
        if total > budget and len(answers) > least:
            break
    steady = len(answers) - 1
    return {
        "first_check_seconds": first,
        "seconds_per_check": total / steady,
        "checks": steady,
        "answers": "".join("1" if a else "0" for a in answers),
    }


def bench_shapes(libs: list[Lib], cfg: dict[str, Any]) -> dict[str, Any]:
    """Every shape of the family, short and long URLs, every library (and robotscope's `verdict()`) in turn.

    Each run is a fresh process killed after cfg["shape_timeout"] seconds;
    the figures are the best of cfg["shape_reps"] processes, run in turn.
    """
    runs = [(lib.key, lib.key, "can_fetch") for lib in libs if lib.available]
    if any(lib.key == "robotscope" and lib.available for lib in libs):
        runs.insert(1, ("robotscope_verdict", "robotscope", "verdict"))
    out: dict[str, Any] = {}
    for shape in SHAPES:
        print(f"... shape {shape.name}, every library in turn", file=sys.stderr, flush=True)
        found: dict[str, Any] = {"bytes": len(shape.text().encode()), "rules": RULES, "what": shape.what}
        for kind in SHAPE_KINDS:
            per_run: dict[str, dict[str, Any]] = {}
            for _ in range(cfg["shape_reps"]):
                for name, key, how in runs:
                    args = ["shape", key, shape.name, kind, how, str(cfg["shape_budget"]), str(cfg["shape_most"])]
                    _keep_best(per_run, name, run_child(args, cfg["shape_timeout"]))
            found[kind] = per_run
        out[shape.name] = found
    return out


def _keep_best(kept: dict[str, dict[str, Any]], name: str, found: dict[str, Any]) -> None:
    """Keep the better of two runs' times (an error or a timeout only while nothing better is known)."""
    old = kept.get(name)
    if old is None or "first_check_seconds" not in old:
        kept[name] = found
    elif "first_check_seconds" in found:
        for field in ("first_check_seconds", "seconds_per_check"):
            old[field] = min(old[field], found[field])
        if len(found["answers"]) > len(old["answers"]):
            old["answers"] = found["answers"]


def disagreements(per_run: dict[str, dict[str, Any]], reference: str = "robotscope") -> dict[str, tuple[int, int]]:
    """For each other run: how many of its answers differ from `reference`'s, of how many both gave (same URLs)."""
    ref = per_run.get(reference, {}).get("answers")
    out = {}
    for name, r in per_run.items():
        if name != reference and ref is not None and "answers" in r:
            n = min(len(ref), len(r["answers"]))
            out[name] = (sum(a != b for a, b in zip(ref[:n], r["answers"][:n], strict=True)), n)
    return out


def bench_user_agents(lib: Lib) -> dict[str, Any] | None:
    """UA_COUNT distinct User-Agent strings of Googlebot, one check each, against UA_FILE (parsed untimed)."""
    path = os.path.join(CORPUS, UA_FILE)
    if not os.path.exists(path):
        return None
    with open(path, "rb") as fh:
        native = lib.native(fh.read())
    agents = [f"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) r{i}" for i in range(UA_COUNT)]
    url = "https://" + UA_FILE + "/en/java/javase/21/docs/api/index.html"
    seconds = []
    for _ in range(3):  # best of 3, each on a fresh parse (untimed): the caches start empty
        obj = lib.parse_all([native])[0]
        seconds.append(timed(lambda obj=obj: [lib.check_agent(obj, agent, url) for agent in agents])[0])
    return {"agents": UA_COUNT, "seconds": min(seconds)}


def bench_lint(corpus: list[tuple[str, bytes]]) -> dict[str, Any] | None:
    """Lint time per file over the corpus (files parsed beforehand, untimed); best of 3."""
    import robotscope

    parsed = [robotscope.parse(raw) for _, raw in corpus]
    best = min(timed(lambda: [robotscope.lint(r) for r in parsed])[0] for _ in range(3))
    return {"files": len(parsed), "seconds": best, "seconds_per_file": best / len(parsed)}


# --------------------------------------------------------------------------
# Subprocess children: adversarial case and memory
# --------------------------------------------------------------------------


def child_adversarial(key: str, n: int) -> dict[str, Any]:
    lib = make_lib(key)
    if not lib.available:
        return {"error": lib.error}
    obj = lib.parse_all([lib.native(ADV_ROBOTS.encode())])[0]
    body = "/" + "a" * n
    gc.disable()
    url = ADV_HOST + body
    t0 = time.perf_counter()
    allowed = lib.check_one(obj, url)
    first = time.perf_counter() - t0
    best, total, reps = first, first, 1
    while total < 0.3 and reps < 200:
        # Same path, new host each time: the URL is one the library has not
        # seen, so a URL cache cannot answer it (the host plays no part).
        url = f"https://h{reps}.example.com{body}"
        t0 = time.perf_counter()
        lib.check_one(obj, url)
        dt = time.perf_counter() - t0
        best, total, reps = min(best, dt), total + dt, reps + 1
    return {"seconds_per_check": best, "first_check_seconds": first, "reps": reps, "allowed": bool(allowed)}


def _rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:  # not Linux: fall back on the peak
        return _maxrss_bytes()


def _maxrss_bytes() -> int:
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def _release_freed_memory() -> None:
    # Hand freed heap pages back to the OS (glibc), so RSS shows what is held, not what was freed.
    with contextlib.suppress(AttributeError, OSError):
        ctypes.CDLL(None).malloc_trim(0)


def child_memory(key: str, step: int, trace: bool) -> dict[str, Any]:
    import tracemalloc

    lib = make_lib(key)
    if not lib.available:
        return {"error": lib.error}
    first_urls = ["https://" + name + "/" for name, _ in load_corpus(step)]
    gc.collect()
    _release_freed_memory()
    if trace:
        tracemalloc.start()
    t_base = tracemalloc.get_traced_memory()[0] if trace else 0
    rss0, max0 = _rss_bytes(), _maxrss_bytes()
    # The inputs are read after the baseline and dropped once parsed, as a crawler
    # drops a fetched body: whatever an object keeps of its input counts as held
    # (robotscope keeps the bytes it was given, for its lossless line view).
    inputs, failed, last_error = [], 0, ""
    for _, raw in load_corpus(step):
        x = lib.native(raw)
        try:
            lib.parse_all([x])
        except Exception as exc:
            failed, last_error = failed + 1, f"{type(exc).__name__}: {exc}"
            continue
        inputs.append(x)
    if not inputs:
        return {"error": f"no file parsed ({last_error})"}
    objs = lib.parse_all(inputs)
    del inputs, x, raw
    gc.collect()
    _release_freed_memory()
    rss1, max1 = _rss_bytes(), _maxrss_bytes()
    t1 = tracemalloc.get_traced_memory()[0] if trace else 0
    for obj, u in zip(objs, first_urls, strict=False):  # builds any lazy per-agent index
        lib.check_one(obj, u)
    gc.collect()
    _release_freed_memory()
    rss2 = _rss_bytes()
    t2 = tracemalloc.get_traced_memory()[0] if trace else 0
    out: dict[str, Any] = {"files": len(objs), "failed": failed}
    if trace:
        out.update(traced_parsed=t1 - t_base, traced_after_check=t2 - t_base)
    else:
        out.update(rss_parsed=rss1 - rss0, rss_after_check=rss2 - rss0, maxrss_growth=max1 - max0)
    return out


def run_child(args: list[str], timeout: float) -> dict[str, Any]:
    cmd = [sys.executable, os.path.abspath(__file__), "--child", *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# --------------------------------------------------------------------------
# Machine info and report
# --------------------------------------------------------------------------


def machine_info(libs: list[Lib]) -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "versions": {lib.key: (lib.version if lib.available else "not installed") for lib in libs},
    }


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}/s"


def fmt_time(s: float) -> str:
    if s < 1e-6:
        return f"{s * 1e9:.0f} ns"
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1e3:.1f} ms"
    return f"{s:.2f} s"


def fmt_mib(b: float) -> str:
    return f"{b / 2**20:,.1f} MiB"


def fmt_ratio(r: float | None, lower_bound: bool = False) -> str:
    if r is None:
        return ""
    return f" (×{r:.2f}{'+' if lower_bound else ''})" if r < 100 else f" (×{r:,.0f}{'+' if lower_bound else ''})"


def build_table(results: dict[str, Any], libs: list[Lib], cfg: dict[str, Any]) -> str:
    keys = [lib.key for lib in libs]
    base = BASELINE
    rows: list[tuple[str, dict[str, str]]] = []
    notes: list[str] = []

    def unavailable(k: str) -> str | None:
        lib = next(x for x in libs if x.key == k)
        return None if lib.available else "not installed"

    def rate_cells(section: str, field: str, marks: dict[str, str]) -> dict[str, str]:
        """Each library's rate of `field` in `section`, with its ratio against the baseline."""
        cells = {}
        b = results[section].get(base)
        b = None if b is None or "error" in b else b
        for k in keys:
            r = results[section].get(k)
            if r is None or "error" in r:
                cells[k] = unavailable(k) or ("error: " + r["error"] if r else "n/a")
                continue
            ratio = r[field] / b[field] if b else None
            cells[k] = fmt_rate(r[field]) + fmt_ratio(ratio) + marks.get(k, "")
        return cells

    if "parse" in results:
        # 1. parse
        cells = rate_cells("parse", "files_per_s", {"google": " ¹", "texting_robots": " ²"})
        rows.append((f"Parse, files/s (best of {cfg['parse_reps']})", cells))

        # 2. checks
        for field, label in (
            ("first_pass_checks_per_s", "Checks/s, first pass (incl. lazy index build)"),
            ("steady_checks_per_s", "Checks/s, steady state (second pass)"),
        ):
            cells = rate_cells("checks", field, {"google": " ³"})
            rows.append((label + f" (best of {cfg['check_reps']})", cells))

    if "adversarial" in results:
        # 3. adversarial
        for n in cfg["adv_ns"]:
            cells = {}
            for k in keys:
                r = results["adversarial"].get(k, {}).get(str(n))
                b = results["adversarial"].get(base, {}).get(str(n))
                if r is None:
                    cells[k] = unavailable(k) or "n/a"
                elif "timeout" in r:
                    cells[k] = f"> {r['timeout']:g} s" + (" ⁴" if r.get("skipped") else "")
                    if b and "seconds_per_check" in b:
                        bound = b["seconds_per_check"] / r["timeout"]
                        cells[k] += " (×<0.01)" if bound < 0.01 else f" (×{bound:.2f} or less)"
                elif "error" in r:
                    cells[k] = "error: " + r["error"][:60]
                else:
                    ratio, lower = None, False
                    if b and "seconds_per_check" in b:
                        ratio = b["seconds_per_check"] / r["seconds_per_check"]
                    elif b and "timeout" in b:
                        ratio, lower = b["timeout"] / r["seconds_per_check"], True
                    cells[k] = fmt_time(r["seconds_per_check"]) + fmt_ratio(ratio, lower)
            rows.append((f"Adversarial, time per check, n={n:,}", cells))

    if "memory" in results:
        # 4. memory
        mem = results["memory"]
        for field, label in (
            ("rss_parsed", "Memory held, RSS growth after parsing"),
            ("rss_after_check", "Memory held, RSS growth after 1 check/file"),
            ("traced_parsed", "Memory held, tracemalloc after parsing"),
            ("traced_after_check", "Memory held, tracemalloc after 1 check/file"),
        ):
            cells = {}
            for k in keys:
                r = mem.get(k)
                b = mem.get(base)
                b = None if b is None or "error" in b or "timeout" in b else b
                if unavailable(k):
                    cells[k] = "not installed"
                elif k == "google":
                    cells[k] = "n/a ⁵"
                elif r is not None and "error" in r:
                    cells[k] = "error: " + str(r["error"])[:60]
                elif r is not None and "timeout" in r:
                    cells[k] = f"timed out after {r['timeout']:g} s"
                elif r is None or field not in r:
                    cells[k] = "n/a ⁶" if field.startswith("traced") else "n/a"
                else:
                    ratio = b[field] / r[field] if b and field in b and r[field] > 0 else None
                    cells[k] = fmt_mib(r[field]) + fmt_ratio(ratio)
            rows.append((label, cells))

    lint = results.get("lint")
    if lint is not None:
        rows.append(("Lint, time per file (robotscope only)", {"robotscope": fmt_time(lint["seconds_per_file"])}))

    titles = {lib.key: lib.title for lib in libs}
    head = (
        "| Measurement (×N = vs Protego; ×N > 1 = faster / less memory than Protego) | "
        + " | ".join(titles[k] for k in keys)
        + " |"
    )
    sep = "|---|" + "---|" * len(keys)
    lines = [head, sep]
    for label, cells in rows:
        lines.append(f"| {label} | " + " | ".join(cells.get(k, "") for k in keys) + " |")

    files = cfg["files"]
    notes.append(
        "(×N) = ratio against Protego; ×N > 1 means better than Protego: N times faster, or N times less memory."
    )
    notes.append(
        f"Corpus: {files:,} robots.txt files ({cfg['corpus_bytes'] / 2**20:.1f} MiB); agent {AGENT!r}; "
        f"{cfg['urls_per_file']} full https URLs per file ({cfg['total_checks']:,} checks). "
        "GC disabled during every timed section, for every library (as timeit does)."
    )
    notes.append(
        "¹ Google's library has no parse-once object: this is one is_allowed() call per file (parse + one match)."
    )
    notes.append("² texting_robots is built per agent: Robot('Googlebot', bytes) parses for that agent only.")
    notes.append(
        f"³ Google's library re-parses the whole file on every call: this is its per-call rate, over the first "
        f"{cfg['google_urls_per_file']} URLs of each file's workload ({cfg['google_checks']:,} calls)."
    )
    notes.append(
        f"⁴ (where shown) Not run: a smaller n already took over {cfg['adv_timeout']:g} s. "
        f"Adversarial: each case runs in a subprocess killed after {cfg['adv_timeout']:g} s "
        "(the limit includes interpreter start-up). "
        "Robots.txt: `User-agent: *` / `Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b`; URL "
        f"https://<host>/ + 'a'*n; time = best of repeated checks, each on a new host (same path)."
    )
    notes.append("⁵ Google's library keeps no parsed object (the caller keeps the text and it re-parses per call).")
    notes.append(
        "⁶ tracemalloc only sees memory allocated through Python's allocator, so it is reported for the "
        "pure-Python libraries only; RSS rows cover all."
    )
    notes.append(
        f"Memory: each library in a fresh subprocess, {cfg['memory_files']:,} files; the inputs are read after "
        "the baseline and dropped once parsed, so what an object keeps of its input counts; RSS from "
        "/proc/self/statm after returning freed pages (malloc_trim), tracemalloc in a separate run."
    )
    notes.append("Lint: robotscope.lint over every corpus file, parsed beforehand (all checks), best of 3.")
    return "\n".join(lines) + "\n\n" + "\n".join(f"- {n}" for n in notes)


def workload_table(results: dict[str, Any], libs: list[Lib], cfg: dict[str, Any]) -> str:
    """The crawler workload and the User-Agent strings (whichever ran), as ratios against Protego."""
    keys = [lib.key for lib in libs if lib.available]
    titles = {lib.key: lib.title for lib in libs}
    wl, agents = results.get("workload", {}), results.get("agents")
    base = wl.get(BASELINE, {})

    def rate(k: str, field: str, base_field: str | None = None) -> str:
        r = wl.get(k, {})
        if field not in r:
            return ""
        b = base.get(base_field or field)
        return fmt_rate(r[field]) + fmt_ratio(r[field] / b if b else None)

    rows, notes = [], []
    if wl:
        rows += [
            ("Parse, files/s", {k: rate(k, "parse_files_per_s") for k in keys}),
            ("`can_fetch`, first pass", {k: rate(k, "first_pass_checks_per_s") for k in keys}),
            ("`can_fetch`, steady state", {k: rate(k, "steady_checks_per_s") for k in keys}),
            (
                "`verdict()` (full proof), first pass, vs Protego's `can_fetch`",
                {k: rate(k, "verdict_first_pass_checks_per_s", "first_pass_checks_per_s") for k in keys},
            ),
            (
                "`verdict()` (full proof), steady state, vs Protego's `can_fetch`",
                {k: rate(k, "verdict_steady_checks_per_s", "steady_checks_per_s") for k in keys},
            ),
        ]
        notes.append(
            f"Workload: every corpus file parsed, then {WORKLOAD_URLS} URLs x {len(WORKLOAD_AGENTS)} agents "
            f"({', '.join(WORKLOAD_AGENTS)}) per file; the first pass is timed from the first check, "
            "so lazily built indexes are inside it; texting_robots builds one object per agent at parse; "
            "Google re-parses on every call. "
            f"Best of {cfg['check_reps']} repetitions, interleaved (each repetition runs every library in turn), "
            "so a slow spell of the machine slows every library alike."
        )
    if agents is not None:
        b = agents.get(BASELINE)
        cells = {}
        for k, r in agents.items():
            ratio = b["seconds"] / r["seconds"] if b and r["seconds"] > 0 else None
            cells[k] = fmt_time(r["seconds"]) + fmt_ratio(ratio)
        rows.append((f"{UA_COUNT:,} User-Agent strings of Googlebot vs {UA_FILE}, one check each", cells))
        notes.append("User-Agent strings: best of 3, each on a fresh parse.")
    head = "| Crawler workload (×N = vs Protego) | " + " | ".join(titles[k] for k in keys) + " |"
    lines = [head, "|---|" + "---|" * len(keys)]
    lines += [f"| {label} | " + " | ".join(cells.get(k, "") for k in keys) + " |" for label, cells in rows]
    return "\n".join(lines) + "\n\n" + "\n".join(f"- {n}" for n in notes)


def shapes_table(shapes: dict[str, Any], libs: list[Lib], cfg: dict[str, Any]) -> str:
    """The shape family: first check and steady state per shape and kind of URL, as ratios against Protego."""
    titles = {lib.key: lib.title for lib in libs if lib.available}
    columns = {"robotscope": "robotscope `can_fetch`"} if "robotscope" in titles else {}
    if "robotscope" in titles:
        columns["robotscope_verdict"] = "robotscope `verdict()`"
    columns.update((k, t) for k, t in titles.items() if k != "robotscope")
    lines = [
        "| Shape (file size) | URLs: measure (×N = vs Protego's `can_fetch`) | " + " | ".join(columns.values()) + " |",
        "|---|---|" + "---|" * len(columns),
    ]
    notes = []
    for name, found in shapes.items():
        label = f"{name} ({found['bytes'] / 1024:,.0f} KiB)"
        for kind in SHAPE_KINDS:
            per_run = found[kind]
            base = per_run.get(BASELINE, {})
            for field, measure in (("first_check_seconds", "first check"), ("seconds_per_check", "per check")):
                cells = []
                for k in columns:
                    r = per_run.get(k, {})
                    if field in r:
                        ratio = base[field] / r[field] if field in base and r[field] > 0 else None
                        cells.append(fmt_time(r[field]) + fmt_ratio(ratio))
                    elif "timeout" in r:
                        cells.append(f"> {r['timeout']:g} s")
                    else:
                        cells.append("error: " + str(r.get("error", "not run"))[:40])
                what = "short" if kind == "short" else f"{LONG_URL_CHARS:,}-char"
                lines.append(f"| {label} | {what}: {measure} | " + " | ".join(cells) + " |")
                label = ""
            differ = disagreements(per_run)
            if differ:
                said = ", ".join(f"{columns.get(k, k)} {d} of {n}" for k, (d, n) in differ.items())
                notes.append(f"{name}, {kind} URLs: answers differing from robotscope `can_fetch`: {said}.")
    notes.insert(
        0,
        f"Shapes (benchmarks/shapes.py): `User-agent: *` and {RULES:,} rules, "
        + "; ".join(f"{n}: {f['what']}" for n, f in shapes.items())
        + ". Short URLs are made from the rules (matching, near misses, strangers); long ones are "
        f"{LONG_URL_CHARS:,} characters of the shape's words as repeated segments. Each library and shape "
        f"in a fresh process (killed after {cfg['shape_timeout']:g} s), the object parsed untimed; first check "
        f"= the first check on it; per check = the mean over the checks after up to {WARM_UP} warm-up checks, "
        f"for {cfg['shape_budget']:g} s (at least {SHAPE_MIN_CHECKS['short']} short or "
        f"{SHAPE_MIN_CHECKS['long']} long URLs, at most {cfg['shape_most']:,}), each URL on a new host; "
        f"best of {cfg['shape_reps']} processes run in turn. Google's library re-parses the file on every call.",
    )
    return "\n".join(lines) + "\n\n" + "\n".join(f"- {n}" for n in notes)


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a ~3 minute run on a sample of the corpus")
    ap.add_argument("--json", metavar="PATH", help="also write the raw results as JSON")
    ap.add_argument("--libs", default="", help="comma-separated subset of: " + ",".join(c.key for c in LIB_CLASSES))
    ap.add_argument("--only", default="", help="comma-separated subset of the sections: " + ",".join(SECTIONS))
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child:
        kind, key, *rest = args.child
        if kind == "adversarial":
            out = child_adversarial(key, int(rest[0]))
        elif kind == "shape":
            name, url_kind, how, budget, most = rest
            out = child_shape(key, name, url_kind, how, float(budget), int(most))
        else:
            out = child_memory(key, int(rest[0]), rest[1] == "trace")
        print(json.dumps(out))
        return 0
    sections = set(args.only.split(",")) if args.only else set(SECTIONS)
    if sections - set(SECTIONS):
        ap.error(f"--only: unknown section(s) {', '.join(sorted(sections - set(SECTIONS)))}")

    if args.quick:
        cfg = {
            "step": 4,
            "urls_per_file": 50,
            "google_urls_per_file": 10,
            "parse_reps": 2,
            "check_reps": 1,
            "adv_ns": [1000, 10000],
            "adv_timeout": 3.0,
            "memory_step": 4,
            "shape_reps": 1,
            "shape_budget": 0.3,
            "shape_most": 300,
            "shape_timeout": 30.0,
        }
    else:
        cfg = {
            "step": 1,
            "urls_per_file": 200,
            "google_urls_per_file": 20,
            "parse_reps": 5,
            "check_reps": 5,
            "adv_ns": [1000, 10000, 100000],
            "adv_timeout": 10.0,
            "memory_step": 1,
            "shape_reps": 2,
            "shape_budget": 0.5,
            "shape_most": 2000,
            "shape_timeout": 60.0,
        }

    wanted = [k for k in args.libs.split(",") if k]
    libs = [cls() for cls in LIB_CLASSES if not wanted or cls.key in wanted]
    started = time.perf_counter()
    info = machine_info(libs)
    print(f"# robotscope benchmark{' (--quick)' if args.quick else ''}\n")
    print(f"- CPU: {info['cpu']} ({info['cpus']} logical CPUs); {info['python']}; {info['platform']}")
    print("- Versions: " + ", ".join(f"{lib.title} {info['versions'][lib.key]}" for lib in libs))
    for lib in libs:
        if not lib.available:
            print(f"- {lib.title}: {lib.error}")
    sys.stdout.flush()

    results: dict[str, Any] = {}
    if sections & CORPUS_SECTIONS:
        run_corpus_sections(results, libs, cfg, sections)
    available = [lib for lib in libs if lib.available]
    if "agents" in sections:
        results["agents"] = {}
        for lib in available:
            print(f"... {lib.title}: User-Agent strings", file=sys.stderr, flush=True)
            with contextlib.suppress(NotImplementedError):  # built per agent: no one object to ask about many agents
                found = bench_user_agents(lib)
                if found is not None:
                    results["agents"][lib.key] = found
    if "shapes" in sections:
        results["shapes"] = bench_shapes(libs, cfg)

    print()
    if sections & {"corpus", "adversarial", "memory", "lint"}:
        print(build_table(results, libs, cfg))
        print()
    if sections & {"workload", "agents"}:
        print(workload_table(results, libs, cfg))
        print()
    if "shapes" in sections:
        print(shapes_table(results["shapes"], libs, cfg))
        print()
    for k, failed in results.get("failures", {}).items():
        if failed:
            print(f"- {k}: {failed} files raised on parse and were left out of its rows.")
    for k, r in results.get("memory", {}).items():
        if r.get("failed"):
            print(f"- {k}: {r['failed']} files raised on parse and were left out of its memory rows.")
    elapsed = time.perf_counter() - started
    print(f"- Total benchmark time: {elapsed:.0f} s.")

    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"machine": info, "config": cfg, "results": results, "elapsed_seconds": elapsed}, fh, indent=2)
    return 0


def run_corpus_sections(results: dict[str, Any], libs: list[Lib], cfg: dict[str, Any], sections: set[str]) -> None:
    """The sections over the corpus: parse and checks, adversarial, memory, the crawler workload, lint."""
    corpus = load_corpus(cfg["step"])
    urls = [make_urls(name, raw, cfg["urls_per_file"]) for name, raw in corpus]
    cfg.update(
        files=len(corpus),
        corpus_bytes=sum(len(raw) for _, raw in corpus),
        total_checks=sum(map(len, urls)),
        memory_files=len(load_corpus(cfg["memory_step"])) if cfg["memory_step"] != cfg["step"] else len(corpus),
    )
    gurls = [u[: cfg["google_urls_per_file"]] for u in urls]
    cfg["google_checks"] = sum(map(len, gurls))
    available = [lib for lib in libs if lib.available]

    if "corpus" in sections:
        results.update(parse={}, checks={}, failures={})
    for lib in available if "corpus" in sections else []:
        print(f"... {lib.title}: parse and checks", file=sys.stderr, flush=True)
        idx, inputs, failed = usable_inputs(lib, corpus)
        results["failures"][lib.key] = failed
        if not inputs:
            err = {"error": "no corpus file parsed without raising"}
            results["parse"][lib.key] = results["checks"][lib.key] = err
            continue
        lib_urls = [(gurls if lib.key == "google" else urls)[i] for i in idx]
        results["parse"][lib.key] = bench_parse(lib, inputs, cfg["parse_reps"])
        results["checks"][lib.key] = bench_checks(lib, inputs, lib_urls, cfg["check_reps"])
        del inputs

    if "adversarial" in sections:
        results["adversarial"] = {}
    for lib in available if "adversarial" in sections else []:
        print(f"... {lib.title}: adversarial", file=sys.stderr, flush=True)
        per_n: dict[str, Any] = {}
        for n in cfg["adv_ns"]:
            if any("timeout" in r for r in per_n.values()):
                per_n[str(n)] = {"timeout": cfg["adv_timeout"], "skipped": True}
                continue
            per_n[str(n)] = run_child(["adversarial", lib.key, str(n)], cfg["adv_timeout"])
        results["adversarial"][lib.key] = per_n

    if "memory" in sections:
        results["memory"] = {}
    for lib in available if "memory" in sections else []:
        if not lib.parse_once:
            continue
        print(f"... {lib.title}: memory", file=sys.stderr, flush=True)
        r = run_child(["memory", lib.key, str(cfg["memory_step"]), "rss"], 300)
        if lib.pure_python and "error" not in r:
            t = run_child(["memory", lib.key, str(cfg["memory_step"]), "trace"], 300)
            r.update({k: v for k, v in t.items() if k.startswith("traced")})
        results["memory"][lib.key] = r

    if "workload" in sections:
        print("... crawler workload, every library in turn", file=sys.stderr, flush=True)
        wl_urls = [u[:WORKLOAD_URLS] for u in urls]
        workload_runs = {}
        for lib in available:
            idx, inputs, _ = usable_inputs(lib, corpus)
            workload_runs[lib.key] = (lib, inputs, [wl_urls[i] for i in idx])
        results["workload"] = bench_workload(workload_runs, cfg["check_reps"])

    if "lint" in sections:
        results["lint"] = bench_lint(corpus)


if __name__ == "__main__":
    sys.exit(main())
