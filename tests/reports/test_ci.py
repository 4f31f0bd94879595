"""`reports.ci`: what fails by --fail-on, the workflow commands, the pull-request comment, their escapes and bounds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.access.robots import parse
from robotscope.reports.ci import (
    FAIL_ON,
    MARKER,
    MAX_ANNOTATIONS,
    MAX_COMMENT,
    MAX_ROWS,
    Change,
    comment,
    fails,
    summary,
    workflow_commands,
)
from robotscope.reports.compare.diff import agents_named, diff, probe_urls
from robotscope.reports.linter import lint
from tests.fuzz.fuzz_ci import SEEDS, check
from tests.fuzz.harness import run_briefly

BASE = parse(b"User-agent: *\nDisallow: /cart/\n")
NEW = parse(b"User-agent: *\nDisallow: /cart/\n\nUser-agent: Googlebot\nDisallow: /cart/\nDisallow: /products/\n")


def change(old: bytes | None, new: bytes, path: str = "public/robots.txt", urls: list[str] | None = None) -> Change:
    robots = parse(new)
    done = Change(path, robots, tuple(lint(robots)))
    if old is None:
        return done
    base = parse(old)
    asked = urls if urls is not None else probe_urls(base, robots)
    tokens = agents_named(base, robots)
    flips = tuple(diff(base, robots, asked, tokens))
    return done._replace(base=base, flips=flips, compared=(len(tokens), len(asked)))


PRODUCTS = change(
    b"User-agent: *\nDisallow: /cart/\n",
    b"User-agent: *\nDisallow: /cart/\n\nUser-agent: Googlebot\nDisallow: /cart/\nDisallow: /products/\n",
    urls=["/", "/products/"],
)
LINT_ERROR = change(None, b"User-agent: *\nDisallow /x\n")
LINT_WARNING = change(None, b"User-agent: *\nDisallow: /x\n\nUser-agent: Googlebot\nDisallow: /y\n")


@pytest.mark.parametrize(
    ("changes", "failing"),
    [
        ([PRODUCTS], {"flip", "warning", "info"}),
        ([LINT_ERROR], {"error", "flip", "warning", "info"}),
        ([LINT_WARNING], {"warning", "info"}),
        ([change(None, b"User-agent: *\nDisallow: /x\n")], set()),
    ],
)
def test_fail_on_is_a_ladder(changes: list[Change], failing: set[str]) -> None:
    assert {level for level in FAIL_ON if fails(changes, level)} == failing


def test_a_flip_is_annotated_on_the_deciding_line_with_both_sides() -> None:
    (command,) = workflow_commands([PRODUCTS], "error", lint=False)
    assert command == (
        "::warning file=public/robots.txt,line=6,title=robotscope%3A a verdict flips::"
        "googlebot may no longer fetch /products/: line 6: Disallow: /products/ (before: no rule matches)"
    )
    (failing,) = workflow_commands([PRODUCTS], "flip", lint=False)
    assert failing.startswith("::error ")


def test_a_crawler_freed_by_its_own_group_is_annotated_on_that_group() -> None:
    freed = change(
        b"User-agent: *\nDisallow: /cart/\n",
        b"User-agent: *\nDisallow: /cart/\n\nUser-agent: Bingbot\nDisallow: /private/\n",
        urls=["/cart/"],
    )
    (command,) = workflow_commands([freed], "error", lint=False)
    assert command.startswith("::warning file=public/robots.txt,line=4,") and "bingbot may now fetch /cart/" in command


def test_text_from_the_file_cannot_start_or_break_a_workflow_command() -> None:
    hostile = change(
        b"User-agent: *\nDisallow: /a\n",
        b"User-agent: *\nDisallow: /a%0A\rDisallow: /b\n::error::x\n",
        path="odd,name:\n.txt",
    )
    commands = workflow_commands([hostile], "info")
    assert all("\n" not in c and "\r" not in c for c in commands)
    assert all(c.startswith("::") and c.split("::")[1].count(",") <= 2 for c in commands)
    assert all("file=odd%2Cname%3A%0A.txt" in c for c in commands)
    percent = change(b"User-agent: *\n", b"User-agent: *\nDisallow: /100%0Aoff\n")
    (flip,) = workflow_commands([percent], "error", lint=False)
    assert flip.endswith("line 2: Disallow: /100%250Aoff (before: no rule matches)")  # a `%` is not an escape


def test_annotations_are_bounded_with_a_notice_of_the_rest() -> None:
    many = change(b"User-agent: *\n", b"User-agent: *\n" + b"".join(b"Disallow: /p%d/\n" % i for i in range(300)))
    commands = workflow_commands([many], "error")
    assert len(commands) == MAX_ANNOTATIONS + 1
    more = f"{300 - MAX_ANNOTATIONS} more annotations were left out (GitHub shows 50 a job)"
    assert commands[-1] == f"::notice::{more}: the job's log and the pull-request comment have them all"


def test_the_comment_lists_flips_with_both_deciding_lines_then_the_result() -> None:
    body = comment([PRODUCTS], "error", "0123456789ab")
    lines = body.splitlines()
    assert lines[0] == MARKER and "1 verdict flips against 0123456789ab" in body
    assert (
        "| `googlebot` | `/products/` | allowed: no rule matches | **disallowed**: line 6 `Disallow: /products/` |"
        in lines
    )
    assert lines[-1] == "**The check passes: nothing at or above --fail-on error.**"
    assert "#### `public/robots.txt`" in lines


def test_markdown_and_html_in_rules_stay_text() -> None:
    hostile = change(
        b"User-agent: *\n",
        b"User-agent: *\nDisallow: /a|b`c\nDisallow: /<!--\nDisallow: /@team\n",
        urls=["/a|b`c", "/<!--", "/@team"],
    )
    body = comment([hostile], "error", "HEAD~1")
    rows = [line for line in body.splitlines() if line.startswith("| `")]
    assert len(rows) == 3 and all(len(re.split(r"(?<!\\)\|", row)) == 6 for row in rows)
    assert "``/a\\|b`c``" in body  # a code span fenced by more backticks than it holds, its pipe escaped
    assert body.count("<!--") == 3  # the marker; the URL and the rule, each inside its code span
    assert "HEAD\\~1" in body


def test_the_comment_is_bounded_in_rows_and_characters() -> None:
    rules = b"".join(b"Disallow: /p%d/\n" % i for i in range(2 * MAX_ROWS))
    many = change(b"User-agent: *\n", b"User-agent: *\n" + rules)
    body = comment([many], "flip", "base")
    rows = [line for line in body.splitlines() if line.startswith("| `")]
    assert len(rows) == MAX_ROWS and f"{2 * MAX_ROWS - MAX_ROWS} more flips are not listed here" in body
    one = change(None, b"User-agent: *\nDisallow /x\n")
    body = comment([one._replace(path=f"site{i}/robots.txt") for i in range(600)], "error", None)
    assert len(body) <= MAX_COMMENT + 200 and body.endswith(
        "The comment is cut at 60,000 characters: the job's log has everything.\n"
    )


def test_korean() -> None:
    body = comment([PRODUCTS], "error", "abc", "ko")
    assert (
        "| `googlebot` | `/products/` | 허용: 일치하는 규칙 없음 | **차단**: 6번째 줄 `Disallow: /products/` |" in body
    )
    assert summary([PRODUCTS], "flip").render("ko").startswith("파일 1개 검사: 뒤바뀐 판정 1개")


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400), st.binary(max_size=400))
def test_any_pair_of_files_is_said_safely(old: bytes, new: bytes) -> None:
    check(old.replace(b"\0", b"") + b"\0" + new)


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_ci", SEEDS, tmp_path, 300)
