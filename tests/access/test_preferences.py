"""AI usage preferences for a URL and crawler, each case citing the draft section it follows.

Content-Usage: draft-ietf-aipref-attach-05 (attach) with draft-ietf-aipref-vocab-08 (vocab);
Content-Signal: Cloudflare's Content Signals Policy.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope import lint, parse
from robotscope.access.preferences import usage_for
from robotscope.cli import cli
from robotscope.reports.views import verdict_view
from tests.paths import EXAMPLES

# attach §3.4's example: a path-less rule for the group, a longer path overriding it, a disallowed path.
EXAMPLE = """User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: /ai-ok/ search=y
"""


def usage(text: str, agent: str, url: str) -> dict[str, str] | None:
    robots = parse(text)
    found = usage_for(robots, robots.verdict(agent, url))
    if found is None:
        return None
    if not found.applies:
        return {"applies": "no"}
    return {key: p.value for key, p in found.usage.items()} | {f"signal:{k}": p.value for k, p in found.signals.items()}


@pytest.mark.parametrize(
    ("text", "agent", "url", "expected", "source"),
    [
        (
            EXAMPLE,
            "bot",
            "/test",
            {"train-ai": "n", "ai-use": "unknown", "search": "unknown"},
            "attach §3.4: the path-less rule",
        ),
        (
            EXAMPLE,
            "bot",
            "/ai-ok/test",
            {"train-ai": "y", "ai-use": "unknown", "search": "unknown"},
            "attach §3.1: longest path wins",
        ),
        (EXAMPLE, "bot", "/never/test", {"applies": "no"}, "attach §3: no preferences where crawling is disallowed"),
        (
            EXAMPLE,
            "ExampleBot",
            "/test",
            {},
            "attach §3.4: ExampleBot's own group states nothing for /test, * is not inherited",
        ),
        (EXAMPLE, "ExampleBot", "/ai-ok/x", {"train-ai": "unknown", "ai-use": "unknown", "search": "y"}, "attach §3.1"),
        (
            "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n",
            "bot",
            "/a/b",
            {"train-ai": "n", "ai-use": "unknown", "search": "unknown"},
            "attach §3.1 + vocab §5.1: identical paths combine, n wins",
        ),
        (
            "User-agent: *\nContent-Usage: /a train-ai=y, search=y\nContent-Usage: /a ai-use=y\n",
            "bot",
            "/a",
            {"train-ai": "y", "ai-use": "y", "search": "y"},
            "vocab §5.1: y where none says n",
        ),
        (
            "User-agent: *\nContent-Usage: / Train-AI=n\n",
            "bot",
            "/x",
            {"train-ai": "unknown", "ai-use": "unknown", "search": "unknown"},
            "vocab §6.5.1: an uppercase key fails the whole Dictionary",
        ),
        (
            "User-agent: *\nContent-Usage: / train-ai=yes, search=n\n",
            "bot",
            "/x",
            {"train-ai": "unknown", "ai-use": "unknown", "search": "n"},
            "vocab §6.2: only the tokens y and n",
        ),
        (
            "User-agent: *\nContent-Usage: / train-ai=n, train-ai=y\n",
            "bot",
            "/x",
            {"train-ai": "y", "ai-use": "unknown", "search": "unknown"},
            "vocab §6.5.2 / RFC 9651 §4.2.2: the last duplicate wins",
        ),
        (
            "User-agent: *\nContent-Usage: / train-ai=n;q=1, future-use=n\n",
            "bot",
            "/x",
            {"train-ai": "n", "ai-use": "unknown", "search": "unknown"},
            "vocab §6.4: unknown keys and parameters ignored",
        ),
        (
            "User-agent: *\nContent-Usage: /a%20b train-ai=n\n",
            "bot",
            "/a b",
            {"train-ai": "n", "ai-use": "unknown", "search": "unknown"},
            "attach §3.1: paths as encoded, spaces as %20",
        ),
        (
            "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n",
            "bot",
            "/x.pdf",
            {"train-ai": "n", "ai-use": "unknown", "search": "unknown"},
            "attach §3.1: matched as Allow and Disallow",
        ),
        (
            "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n",
            "bot",
            "/x.pdfx",
            {},
            "attach §3.1: no rule matches: nothing stated",
        ),
        (
            "User-agent: *\nAllow: /\nContent-Signal: search=yes, ai-input=no, ai-train=no\n",
            "bot",
            "/x",
            {"signal:search": "yes", "signal:ai-input": "no", "signal:ai-train": "no"},
            "Content Signals Policy",
        ),
        (
            "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\n",
            "bot",
            "/x",
            {"signal:search": "yes", "signal:ai-train": "no", "signal:use": "reference"},
            "Cloudflare's managed file (no spaces; use=)",
        ),
        (
            "User-agent: *\nContent-Signal: ai-train=yes\nContent-Signal: ai-train=no\n",
            "bot",
            "/x",
            {"signal:ai-train": "no"},
            "several lines: no wins (inferred)",
        ),
        (
            "User-agent: GPTBot\nDisallow: /\nContent-Signal: ai-train=no\n",
            "GPTBot",
            "/x",
            {"applies": "no"},
            "signals apply to fetchable content only (inferred)",
        ),
    ],
    ids=lambda value: (
        value
        if isinstance(value, str) and value.startswith(("attach", "vocab", "Content", "Cloud", "several", "signals"))
        else None
    ),
)
def test_preferences(text: str, agent: str, url: str, expected: dict[str, str] | None, source: str) -> None:
    assert usage(text, agent, url) == expected, source


def test_every_front_end_gets_the_preferences_with_the_verdict() -> None:
    robots = parse(EXAMPLE)
    view = verdict_view(robots.answer("bot", "/ai-ok/x"))
    assert view["usage"]["applies"] is True
    assert view["usage"]["content_usage"]["train-ai"] == {"value": "y", "lines": [5]}
    assert verdict_view(parse("User-agent: *\nDisallow: /x\n").answer("bot", "/y"))["usage"] is None


def test_a_misspelt_content_signals_line_is_flagged() -> None:
    (finding,) = [
        f for f in lint(parse("User-agent: *\nContent-Signals: search=yes\n")) if f.code == "unknownDirective"
    ]
    assert "Content-signal" in finding.fix.render()


def test_matrix_and_readings_show_the_preferences() -> None:
    example = str(EXAMPLES / "preferences.txt")
    env = {"COLUMNS": "160", "ROBOTSCOPE_LANG": "en"}
    matrix = CliRunner().invoke(cli, ["matrix", example, "/", "/drafts/x", "--agents", "GPTBot,CCBot"], env=env).stdout
    assert (
        "allowed L2 (1)" in matrix and "blocked L3 (" not in matrix
    )  # no preference applies where crawling is blocked
    assert (
        "(1) usage: Content-Usage train-ai=n (line 4), ai-use unknown, search unknown; "
        "Content-Signal search=yes (line 6)" in matrix
    )
    readings = CliRunner().invoke(cli, ["check", example, "GPTBot", "/blog/x", "--engine", "all"], env=env).stdout
    assert readings.splitlines()[-1].startswith("  usage: Content-Usage train-ai=y (line 5)")


def test_the_librarys_verdict_carries_the_preferences_and_the_readings_command_shows_them(tmp_path: Path) -> None:
    robots = parse(EXAMPLE)
    found = robots.verdict("bot", "/ai-ok/x")
    assert (
        found.usage is not None
        and found.usage.applies
        and found.as_dict()["usage"]["content_usage"]["train-ai"]["value"] == "y"
    )
    assert (
        parse("User-agent: *\nDisallow: /x\n").verdict("bot", "/y").usage is None
    )  # no preference line: nothing to carry
    split = tmp_path / "robots.txt"
    split.write_text("User-agent: *\nDisallow /oops\nContent-Usage: train-ai=n\n")  # Google reads line 2 as a rule
    out = CliRunner().invoke(cli, ["readings", str(split), "somebot", "--json"]).stdout
    (oops,) = [s for s in json.loads(out)["splits"] if s["url"] == "/oops"]
    assert oops["usage_text"] is not None and "train-ai=n (line 3)" in oops["usage_text"]
