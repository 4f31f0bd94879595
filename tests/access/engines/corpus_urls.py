"""What the engines' differential tests ask on each corpus file, and how they count the answers.

`urls_for(robots)` builds the URLs for one file: up to `MAX_GENERATED` from
the file's own rule patterns (each pattern with `*` filled in and a final
`$` dropped, alone, with a suffix and with a query, patterns spread over the
file) and the `FIXED_PATHS`. `agents_for(robots)` are Googlebot (its token
and its whole User-Agent string), a crawler no file names, and the first
token the file names. `snippets(seed, count)` are small seeded files drawn
from the parsers' corners, with questions. `Tally` counts checks,
agreements and the disagreements of each known difference, and prints the
table a run with `-s` shows.
"""

from __future__ import annotations

import collections
import random
from collections.abc import Iterator

from robotscope.access.robots import Robots
from tests.corpus_files import CorpusFile, corpus_files

CORPUS_FILES = 4_231

FIXED_PATHS = (
    "/",
    "/robots.txt",
    "/index.html",
    "/caf\u00e9/men\u00fc.html",  # non-ASCII
    "/%7Euser/caf%c3%a9/a%2fb",  # percent-encoded: lower-case hex, an escaped slash
    "/search?q=a b&page=2",  # a query
    "/a*b$c/",  # the wildcard characters, literally
    "/100%/off;p=1",  # a stray %, params
    "https://www.example.com/Robots.txt?x=%41#top",  # a full URL with a fragment
)
MAX_GENERATED = 20  # URLs from the file's own patterns
SUFFIX = "x/y.html"
QUERY = "?q=1"
UNKNOWN_AGENT = "ExampleUnknownCrawler/1.0"
# A whole User-Agent string: urllib matches it as `mozilla`, Protego finds `googlebot` in it.
FULL_AGENT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


def corpus() -> tuple[CorpusFile, ...]:
    """Every corpus file, by name, as raw bytes and parsed (once per session, shared with every corpus test)."""
    return corpus_files()


def url_from(pattern: str) -> str:
    """A URL a pattern is meant to match: `*` filled in, a final `$` dropped, starting with `/`."""
    path = pattern.replace("*", "x")
    path = path.removesuffix("$")
    return path if path.startswith("/") else "/" + path


def urls_for(robots: Robots) -> list[str]:
    """The URLs asked on one file: from its own patterns (spread over the file), then the fixed ones."""
    patterns = list(dict.fromkeys(rule.pattern for group in robots.groups for rule in group.rules if rule.pattern))
    per_pattern = 3
    wanted = MAX_GENERATED // per_pattern
    if len(patterns) > wanted:
        step = len(patterns) / wanted
        patterns = [patterns[int(i * step)] for i in range(wanted)]
    generated: list[str] = []
    for pattern in patterns:
        base = url_from(pattern)
        generated += [base, base.rstrip("/") + "/" + SUFFIX, base + QUERY]
    return list(dict.fromkeys([*generated[:MAX_GENERATED], *FIXED_PATHS]))


def agents_for(robots: Robots) -> tuple[str, ...]:
    """Googlebot (by token and by its whole User-Agent), an unknown crawler, and the first token the file names."""
    named = next((agent for group in robots.groups for agent in group.agents if agent != "*"), None)
    agents = ["Googlebot", FULL_AGENT, UNKNOWN_AGENT]
    if named is not None and named not in ("googlebot", UNKNOWN_AGENT.lower()):
        agents.append(named)
    return tuple(agents)


def squeezed(text: str) -> str:
    """Text with runs of whitespace made one space and U+FFFD dropped (to find a value in its line)."""
    return " ".join(text.replace("\ufffd", "").split())


# Snippets: lines drawn from what the corpus holds and the parsers' corners, for the seeded fuzz rows.
_KEYS = (
    "User-agent", "user-agent", "USER-AGENT", "User agent", "useragent", "Disallow", "disallow", "Dissallow",
    "Allow", "allow", "Crawl-delay", "crawl delay", "Request-rate", "Sitemap", "Host", "Noindex", "", "x",
)  # fmt: skip
_SEPARATORS = (":", ": ", " : ", " ", ":\t", "", "::", ": #c ")
_VALUES = (
    "*", "", "googlebot", "bot", "Googlebot/2.1", "* foo", "googlebot*", "/", "/a", "/a*", "/a$", "/a$b", "/*.pdf$",
    "/index.html", "/a/index.html", "/%7e", "/%2F", "/a%2fb", "/caf\u00e9", "/a?b", "/a?", "/a;b", "http://x/a",
    "https://example.com/a", "/a b", "$", "%", "/%zz", "/%E9", "/a#c", "a", "/a%3Fb", "/a*b$", "/**", "/a%24",
    "/%2A", "/a=b", "/a%3db", "5", "1/5", "mozilla", "Google%62ot", "foo", "x", "/robots.txt", "//[x",
)  # fmt: skip
_AGENT_VALUES = ("*", "*", "", "googlebot", "bot", "* foo", "googlebot*", "mozilla", "foo", "a", "x")
_PATH_VALUES = (
    "/",
    "/a",
    "/a*",
    "/a$",
    "/a$b",
    "/*.pdf$",
    "/index.html",
    "/a/index.html",
    "/a%2fb",
    "/a?",
    "/",
    "",
    "/%E9",
)
_ENDS = ("\n", "\n", "\n", "\r\n", "\r", "\x0c\n", "\x85", "\u2028", " \n", "\n\n", "\x0b")
SNIPPET_URLS = (
    "/", "/a", "/a/", "/ab", "/a$", "/a$b", "/a/index.html", "/index.html", "/x.pdf", "/x.pdf?y", "/robots.txt",
    "/robots.txt?x", "/robots.txt;p", "/robots%2Etxt", "/a?b", "/a%3Fb", "/caf%C3%A9", "/caf\u00e9", "/a b",
    "/a%2fb", "/a/b", "http://example.com/a", "/a;b", "/a#c", "//a", "", "a", "*", "/%", "/a*b", "/a%2Ab", "/a=b",
    "/a%3Db", "/https://example.com/a", "/%E9", "/a?", " /a", "/caf\ufffd", "http://[x/a?q",
)  # fmt: skip
SNIPPET_AGENTS = (
    "googlebot", "Googlebot", "bot", "foo", "x; foo", "Mozilla/5.0 (compatible; Googlebot/2.1)", "a", "*", " foo",
    "googlebot-image", "FOO/1.0", "mozilla", "x",
)  # fmt: skip


def snippets(seed: int, count: int) -> Iterator[tuple[str | bytes, list[tuple[str, str]]]]:
    """`count` small files (text or UTF-8 bytes, some with a BOM), each with six (agent, url) questions."""
    rng = random.Random(seed)
    for _ in range(count):
        lines = []
        for _ in range(rng.randint(0, 10)):
            # Mostly well-formed user-agent and rule lines, so that groups form and rules decide.
            plain = rng.random() < 0.6
            key = rng.choice(("User-agent", "Disallow", "Allow", "Disallow")) if plain else rng.choice(_KEYS)
            separator = ": " if plain else rng.choice(_SEPARATORS)
            value = rng.choice((_AGENT_VALUES if key == "User-agent" else _PATH_VALUES) if plain else _VALUES)
            lines.append(key + separator + value + ("\n" if plain else rng.choice(_ENDS)))
        text = "".join(lines)
        if rng.random() < 0.1:
            text = "\ufeff" + text
        data: str | bytes = text if rng.random() < 0.3 else text.encode("utf-8")
        if isinstance(data, bytes) and rng.random() < 0.05:
            data += b"Disallow: /caf\xe9\n"  # not UTF-8
        yield data, [(rng.choice(SNIPPET_AGENTS), rng.choice(SNIPPET_URLS)) for _ in range(6)]


class Tally:
    """Checks, agreements and classified disagreements of one engine's differential run."""

    def __init__(self, engine: str, codes: list[str]) -> None:
        self.engine = engine
        self.codes = codes
        self.checks = 0
        self.agreements = 0
        self.by_code: collections.Counter[str] = collections.Counter()
        self.examples: dict[str, str] = {}
        self.unexplained: list[str] = []
        self.line_checks = 0
        self.line_failures: list[str] = []
        self.files = 0

    def agree(self) -> None:
        self.checks += 1
        self.agreements += 1

    def differ(self, code: str | None, example: str) -> None:
        self.checks += 1
        if code is None:
            self.unexplained.append(example)
        else:
            self.by_code[code] += 1
            self.examples.setdefault(code, example)

    def table(self, seconds: float, note: str = "") -> str:
        share = 100 * self.agreements / self.checks if self.checks else 0.0
        rows = [
            f"{self.engine}: {self.files:,} files, {self.checks:,} checks in {seconds:.1f} s{note}",
            f"  agreements          {self.agreements:>9,}  ({share:.3f} %)",
        ]
        for code in self.codes:
            example = f"  e.g. {self.examples[code][:140]}" if code in self.examples else ""
            rows.append(f"  {code:<19} {self.by_code[code]:>9,}{example}")
        rows.append(f"  unexplained         {len(self.unexplained):>9,}")
        rows.append(f"  deciding lines checked {self.line_checks:,}, wrong {len(self.line_failures):,}")
        return "\n".join(rows)
