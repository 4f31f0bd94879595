"""Each server's files: a comment naming the line of every rule, safe text whatever the robots.txt, the layout."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope import parse
from robotscope.reports.enforce import TARGETS, choose, export, export_view, plan, render
from robotscope.reports.enforce.agents import MAX_TOKEN, agent_regexes, token_problem
from robotscope.reports.enforce.entries import decoded_path, safe, sent
from robotscope.reports.enforce.expressed import MAX_REGEX
from robotscope.reports.enforce.raw import REQUEST_LINE, TARGET

ROBOTS = """\
User-agent: GPTBot
User-agent: ClaudeBot
Disallow: /private/
Allow: /private/open/
Disallow: /*.pdf$
Disallow: /search?q=

User-agent: *
Disallow: /admin/
"""
# What a generated regex may hold: no space, quote, `#`, brace or backtick, which some configuration reads.
REGEX_CHARACTERS = re.compile(r"[A-Za-z0-9/_\-\\.?^$()|*+%\[\]:,;~]*")


@pytest.mark.parametrize("target", TARGETS)
def test_every_rule_has_a_comment_naming_its_robots_txt_line(target: str) -> None:
    _, result = export(parse(ROBOTS), target, agents="GPTBot,ClaudeBot,Amazonbot", acl_dir="/etc/haproxy")
    text = result.files[0][1]
    lines = text.splitlines()
    named = {int(found) for found in re.findall(r"# robots\.txt line (\d+): ", text)}
    expressed = {3, 4, 5, 6, 9} - ({5, 6} if target == "lighttpd" else set())  # lighttpd leaves those out
    assert named == expressed
    for at, line in enumerate(lines):
        if "robots.txt line " in line:
            assert lines[at + 1].strip() and not lines[at + 1].lstrip().startswith("#")  # the rule follows
    assert "/robots.txt is always reachable" in text
    assert text.startswith(f"# {target} rules made by robotscope export from robots.txt\n")


def test_the_layout_of_each_server() -> None:
    robots = parse(ROBOTS)
    files = {target: export(robots, target, agents="GPTBot", acl_dir="/srv/acl x")[1].files for target in TARGETS}
    assert [name for name, _ in files["nginx"]] == ["robotscope.conf"]
    assert "map $request_uri $robotscope_path_1 {" in files["nginx"][0][1]
    assert 'map "$robotscope_deny_1" $robotscope_deny {' in files["nginx"][0][1]
    apache = files["apache"][0][1]
    assert "%{THE_REQUEST} =~ m#^[^\\x20]+\\x20/private/open/#" in apache
    assert apache.endswith("<If \"-n reqenv('robotscope_deny')\">\n    Require all denied\n</If>\n")
    assert "map {http.request.orig_uri} {robotscope_path_1} {" in files["caddy"][0][1]
    assert "respond @robotscope_deny_1 403" in files["caddy"][0][1]
    haproxy = files["haproxy"]
    assert [name for name, _ in haproxy] == ["robotscope.cfg", "robotscope-agents-1.regex"]
    assert "req.fhdr(user-agent) -m reg -i -f '/srv/acl x/robotscope-agents-1.regex'" in haproxy[0][1]
    assert haproxy[1][1].splitlines()[1] == "(?:^|[\\x09\\x20(,;])(?:GPTBot)(?:[\\x09\\x20),/;]|$)"
    lighttpd = files["lighttpd"][0][1]
    assert '    else $HTTP["url"] =~ "^/private/" { url.access-deny = ("") }' in lighttpd


def test_with_no_crawler_to_refuse_nginx_still_defines_the_variable() -> None:
    made, result = export(parse("User-agent: *\nAllow: /\n"), "nginx", agents="GPTBot")
    assert made.groups == ()
    text = result.files[0][1]
    assert "# robots.txt disallows nothing to the crawlers chosen: nothing is refused" in text
    assert text.endswith('map $request_uri $robotscope_deny {\n    default "";\n}\n')


def test_comments_hold_one_line_of_safe_text_whatever_the_file_holds() -> None:
    robots = parse("User-agent: GPTBot\nDisallow: /a\x0bb\\\nDisallow: /" + "x" * 500 + "\n")
    for target in TARGETS:
        text = export(robots, target, agents="GPTBot", acl_dir="/x")[1].files[0][1]
        for line in text.splitlines():
            assert line.replace("\t", "").isprintable() and not line.endswith("\\")
        assert "Disallow: /a\\x0bb\\x5c" in text
    assert len(safe("y" * 1000)) == 200 and safe("a\u2028b\udc8c") == "a\\u2028b\\udc8c"


@given(st.lists(st.text(max_size=12), max_size=6))
def test_every_regex_holds_only_characters_every_configuration_reads_as_they_are(patterns: list[str]) -> None:
    text = "User-agent: GPTBot\n" + "".join(f"Disallow: /{p}\nAllow: {p}*x\n" for p in patterns)
    robots = parse(text)
    made = plan(robots, choose(robots, "GPTBot"))
    for group in made.groups:
        for entry in [
            *sent(made, group, TARGET, "nginx", {}, "en"),
            *sent(made, group, REQUEST_LINE, "apache", {}, "en"),
            *decoded_path(made, group, {}, "en"),
        ]:
            assert REGEX_CHARACTERS.fullmatch(re.sub(r"\\x\{[0-9a-f]+\}", "", entry.regex)), entry.regex
            assert len(entry.regex) <= MAX_REGEX
            re.compile(re.sub(r"\\x\{([0-9a-f]+)\}", lambda m: chr(int(m.group(1), 16)), entry.regex))


def test_the_view_is_the_plan_and_the_files_as_data() -> None:
    made, result = export(parse(ROBOTS), "lighttpd", agents="GPTBot,Google-Extended")
    view = export_view(made, result, "ko")
    assert view["target"] == "lighttpd" and view["complete"] is False
    assert view["files"][0]["name"] == "robotscope.conf"
    assert view["groups"][0]["rules"][0] == {"line": 4, "allow": True, "pattern": "/private/open/"}
    assert [item["code"] for item in view["left"]] == ["enforce.left.query", "enforce.left.query"]
    assert view["skipped"][0]["code"] == "enforce.skipped.control" and "요청" in view["skipped"][0]["text"]
    assert render(made, "nginx").left == ()


def test_an_unknown_target_is_refused() -> None:
    robots = parse(ROBOTS)
    with pytest.raises(ValueError, match="unknown target 'iis'"):
        render(plan(robots, choose(robots, "GPTBot")), "iis")


@given(st.lists(st.sampled_from(["/", "/a", "/*.html", "/a$", "/a*", "/a?b", "/%41"]), min_size=1, max_size=8))
def test_a_regex_is_written_once_in_a_group(patterns: list[str]) -> None:
    # Caddy refuses a map whose input repeats, lighttpd an `else` condition it cannot reach: the second of two
    # equal regexes decides nothing anyway.
    rules = "".join(f"{'Allow' if n % 2 else 'Disallow'}: {p}\n" for n, p in enumerate(patterns))
    text = "User-agent: GPTBot\n" + rules
    robots = parse(text)
    made = plan(robots, choose(robots, "GPTBot"))
    for group in made.groups:
        for entries in (sent(made, group, TARGET, "caddy", {}, "en"), decoded_path(made, group, {}, "en")):
            regexes = [entry.regex for entry in entries]
            assert len(regexes) == len(set(regexes)), regexes


def test_a_common_file_gives_no_repeated_condition() -> None:
    robots = parse("User-agent: GPTBot\nDisallow: /\nAllow: /*.html\nAllow: /*.css\nDisallow: /a\nAllow: /a\n")
    lighttpd = export(robots, "lighttpd", agents="GPTBot")[1].files[0][1]
    assert lighttpd.count('$HTTP["url"] =~ "^/" {') == 1  # both allows widened to every path: the first decides
    caddy = export(robots, "caddy", agents="GPTBot")[1].files[0][1]
    assert caddy.count("\t~^/a ") == 1


LONG = "/" + "%C3%A9" * 2000
MANY = [f"ExampleCrawlerNumber{n}" for n in range(600)]


def test_long_rules_and_many_names_stay_within_what_every_server_reads() -> None:
    # nginx reads a parameter of at most 4 KiB, Apache an expression's regex of about 8 KiB.
    text = f"User-agent: GPTBot\nDisallow: {LONG}\nDisallow: /x/\nAllow: /x{LONG}\n\n"
    robots = parse(text + "".join(f"User-agent: {t}\n" for t in MANY) + "Disallow: /\n")
    for target in TARGETS:
        _, result = export(robots, target, agents=",".join(["GPTBot", *MANY]), acl_dir="/x")
        lines = [line for _, text in result.files for line in text.splitlines()]
        # lighttpd reads a group's User-Agent match of any length (tests/reports/enforce/test_servers.py).
        assert max(len(line) for line in lines if not line.startswith('$HTTP["user-agent"]')) < 4096, target
        codes = sorted(item.code for item in result.left)
        assert codes == ["enforce.left.long", "enforce.widened.long"], target
    assert len(agent_regexes(tuple(MANY))) > 1 and all(len(r) <= MAX_REGEX for r in agent_regexes(tuple(MANY)))
    allow = export(robots, "nginx", agents="GPTBot")[1]
    said = next(item for item in allow.left if item.code == "enforce.widened.long").render()
    assert "lets every path starting `/x/%C3%A9" in said and len(said) < 400


def test_a_name_longer_than_any_crawlers_is_no_token() -> None:
    problem = token_problem("B" * (MAX_TOKEN + 1))
    assert problem is not None and problem.code == "enforce.token.long"
    assert token_problem("B" * MAX_TOKEN) is None
    robots = parse(f"User-agent: {'B' * 5000}\nDisallow: /\n")
    assert [item.code for item in choose(robots, "all-named").skipped] == ["enforce.skipped.not-a-token"]
