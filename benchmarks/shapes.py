"""A family of 20,000-rule robots.txt shapes, each built to defeat one way of indexing rules, and their URLs.

`bench.py` times every library on each shape, and the matcher's property
tests compare its fast path, the full verdict and a naive matcher on each:
the family is defined once, here. Every file stays under the 500 KiB parse
limit, so every library applies every rule.

- `today`: `/*wNNNN*.pdf$` (the benchmark's first big file): a distinct
  literal per rule, after a leading `*`.
- `star-repeated`: rules led by `*` whose literals repeat across rules, so
  no literal tells one rule from the others.
- `many-words`: several wildcard words per rule, from a small vocabulary.
- `shared-prefix`: every rule starts with the same long prefix, then a
  wildcard word (the shape that sent `bulk` to 356 URLs/s).
- `mixed-dollar`: Allow and Disallow mixed, half anchored with `$`, under a
  shared directory.

Each shape has short URLs (derived from its rules: matching, near misses and
strangers) and long URLs: 8,000 characters of repeated segments built from
the shape's own words, the worst input for a matcher that retries a piece at
each place it occurs.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

RULES = 20_000
LONG_URL_CHARS = 8_000
LIMIT = 500 * 1024  # RFC 9309's minimum a parser must read; every shape stays under it
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def words(count: int, size: int, seed: int) -> list[str]:
    """`count` distinct lower-case words of `size` letters, deterministic."""
    rng = random.Random(seed)
    found: dict[str, None] = {}
    while len(found) < count:
        found["".join(rng.choice(_LETTERS) for _ in range(size))] = None
    return list(found)


@dataclass(frozen=True)
class Shape:
    name: str
    what: str
    lines: Callable[[int], list[str]]  # `rules` rule lines (directive included)
    vocabulary: list[str]  # the words its rules are made of: long URLs repeat them

    def text(self, rules: int = RULES) -> str:
        return "User-agent: *\n" + "\n".join(self.lines(rules)) + "\n"

    def short_urls(self, count: int, seed: int = 0) -> list[str]:
        """Paths like the rules' (their words joined, wildcards filled), some matching, some not."""
        rng = random.Random(seed)
        patterns = [line.split(": ", 1)[1] for line in self.lines(RULES)]
        urls = []
        for i in range(count):
            kind = i % 3
            if kind == 2:  # a stranger: common paths, no rule's words
                urls.append(f"/static/img/p{i}.png?v={rng.randrange(10**6)}")
                continue
            pattern = rng.choice(patterns)
            filler = "" if kind == 0 else rng.choice(self.vocabulary)  # kind 1: usually a near miss
            path = pattern.rstrip("$").replace("*", filler or "x/")
            urls.append(path if path.startswith("/") else "/" + path)
        return urls

    def long_url(self, i: int) -> str:
        """A path of LONG_URL_CHARS characters: the shape's words as segments, repeated, a fresh tail each time."""
        rng = random.Random(i)
        segments: list[str] = []
        size = 0
        while size < LONG_URL_CHARS - 16:
            word = rng.choice(self.vocabulary[:8])  # few distinct words: every literal meets many places
            segments.append(word)
            size += len(word) + 1
        return "/" + "/".join(segments) + f"/t{i}.pdf"


def _today(n: int) -> list[str]:
    return [f"Disallow: /*w{i:04x}*.{'pdf$' if i % 2 else 'doc'}" for i in range(n)]


_REPEATED = words(40, 3, 1)


def _star_repeated(n: int) -> list[str]:
    # 40 words: each literal is in ~1,000 rules, every pair of words in ~25.
    rng = random.Random(2)
    return [f"Disallow: *{rng.choice(_REPEATED)}*{rng.choice(_REPEATED)}/{i % 97}" for i in range(n)]


_MANY = words(30, 2, 3)


def _many_words(n: int) -> list[str]:
    rng = random.Random(4)
    return ["Disallow: /*" + "*".join(rng.choice(_MANY) for _ in range(4)) for _ in range(n)]


_PREFIXED = words(2_000, 4, 5)


def _shared_prefix(n: int) -> list[str]:
    return [f"Disallow: /aa/bb/*{_PREFIXED[i % len(_PREFIXED)]}{i // len(_PREFIXED)}" for i in range(n)]


_MIXED = words(400, 4, 6)


def _mixed_dollar(n: int) -> list[str]:
    out = []
    for i in range(n):
        word = _MIXED[i % len(_MIXED)]
        directive = "Allow" if i % 2 else "Disallow"
        tail = f"{word}{i // len(_MIXED)}" + ("$" if i % 4 < 2 else "")
        out.append(f"{directive}: /d/{'*' if i % 3 == 0 else ''}{tail}")
    return out


SHAPES = (
    Shape("today", "`/*wNNNN*.pdf$`: one distinct literal per rule", _today, [f"w{i:04x}" for i in range(64)]),
    Shape("star-repeated", "`*abc*def/N`: literals shared by ~1,000 rules", _star_repeated, _REPEATED),
    Shape("many-words", "`/*ab*cd*ef*gh`: four words of 30 per rule", _many_words, _MANY),
    Shape("shared-prefix", "`/aa/bb/*wordN`: one long shared start", _shared_prefix, _PREFIXED),
    Shape("mixed-dollar", "Allow/Disallow `/d/[*]wordN[$]` mixed", _mixed_dollar, _MIXED),
)
