"""`export --check` on ai.robots.txt-style configurations (each known bug found), on robotscope's own (nothing
found), and on configurations that refuse what robots.txt allows (the line said)."""

from __future__ import annotations

from pathlib import Path

import pytest

from robotscope import parse
from robotscope.reports.enforce import TARGETS, choose, plan, render
from robotscope.reports.enforce.check import MAX_WORK, Finding, Report, check, check_view
from tests.paths import EXAMPLES
from tests.reports.enforce import aistyle

ROBOTS = parse(aistyle.ROBOTS)
GITLAB_GIT = "git/2.54.0.windows.1 (Windows 11 Pro 10.0.26200; win32 arm64) vscode/1.123.0 (Visual Studio Code)"


def checked(
    target: str, text: str, name: str = "conf", robots: str = aistyle.ROBOTS, agents: str = "all-named"
) -> Report:
    return check(parse(robots), target, text, agents, name, load=lambda path: FILES.get(path))


FILES: dict[str, str] = {"/etc/haproxy/haproxy-block-ai-bots.txt": aistyle.haproxy(Path("/"))[1]}


def found(report: Report, kind: str, who: str, variant: str | None = None) -> Finding:
    hits = [f for f in report.findings if f.kind == kind and f.probe.who.startswith(who)]
    hits = [f for f in hits if variant is None or f.probe.kind == variant]
    assert len(hits) == 1, [f.message.render() for f in report.findings]
    return hits[0]


def kinds(report: Report) -> set[tuple[str, str, str]]:
    return {(f.kind, f.probe.who, f.probe.kind) for f in report.findings}


def test_htaccess_spider_refuses_baiduspider_by_the_url_in_its_user_agent() -> None:
    report = checked("apache", aistyle.htaccess(), ".htaccess")
    assert report.unreadable == ()
    baidu = found(report, "innocent", "Baiduspider")
    assert baidu.paths == ("/",) and baidu.decision.line == 3
    assert [(hit.line, hit.matched) for hit in baidu.decision.hits] == [(2, "spider")]  # `[NC]`: /search/spider.html
    assert "robots.txt allows (no group names it)" in baidu.message.render()
    # `\b` takes `-` for a boundary: a made-up Not-Cursor is refused as Cursor; VS Code's Git as `Code`.
    assert found(report, "innocent", "Not-Cursor").decision.hits[0].matched == "Cursor"
    assert found(report, "innocent", "Git for Windows run by Visual Studio Code").decision.hits[0].matched == "Code"
    # Case-insensitive, and /robots.txt spared: no crawler chosen is let through, none refused its robots.txt.
    assert not [f for f in report.findings if f.kind in ("let-through", "robots-txt")]


def test_htaccess_without_word_boundaries_refuses_internet_explorer_for_lcc() -> None:
    report = checked("apache", aistyle.htaccess(boundary=False), ".htaccess")
    explorer = found(report, "innocent", "Internet Explorer 8")
    assert explorer.decision.hits[0].matched == "LCC"  # inside SLCC2, case-insensitively (#208)
    assert ("innocent", "Visual Studio Code's GitLab Workflow extension", "innocent") in kinds(report)  # VSCode/


def test_nginx_tilde_is_case_sensitive_and_lets_gptbot_in_lower_case_through() -> None:
    report = checked("nginx", aistyle.nginx())
    assert report.unreadable == ()
    lower = found(report, "let-through", "GPTBot", "case")
    assert lower.paths == ("/",) and "GPTBot written `gptbot`" in lower.message.render()
    assert "line 1: User-agent: GPTBot" not in lower.message.render()
    assert lower.verdict is not None and lower.verdict.line == len(aistyle.ROBOTS.splitlines())  # the Disallow: /
    assert ("let-through", "GPTBot", "crawler") not in kinds(report)  # its real User-Agent is refused
    assert any(note.code == "enforce.check.note.case" for note in report.notes)
    # Case-sensitive `\bSpider\b` misses Baiduspider's lower-case `spider`; the exact-URI exemption holds.
    assert not [f for f in report.findings if f.probe.who == "Baiduspider" or f.kind == "robots-txt"]


@pytest.mark.parametrize("abort", [True, False])
def test_caddy_refuses_robots_txt_and_lets_lower_case_through(abort: bool) -> None:
    report = checked("caddy", aistyle.caddy(abort=abort))
    assert report.unreadable == ()
    refused = found(report, "robots-txt", "GPTBot", "crawler")
    assert refused.decision.line == (4 if abort else 1) and refused.decision.hits[0].matched == "GPTBot"
    assert "refuses /robots.txt (by line" in refused.message.render()
    found(report, "let-through", "ClaudeBot", "case")
    unused = [note for note in report.notes if note.code == "enforce.check.note.unused-matcher"]
    assert len(unused) == (0 if abort else 1)


def test_haproxy_hdr_sub_matches_substrings_and_spares_no_robots_txt() -> None:
    report = checked("haproxy", aistyle.haproxy(Path("/etc/haproxy/haproxy-block-ai-bots.txt"))[0])
    assert report.unreadable == ()
    hit = found(report, "innocent", "Baiduspider").decision.hits[0]
    assert (hit.matched, hit.file, hit.line) == ("spider", "/etc/haproxy/haproxy-block-ai-bots.txt", 9)
    assert "line 9 of /etc/haproxy/haproxy-block-ai-bots.txt" in found(report, "innocent", "Baidu").message.render()
    assert found(report, "innocent", "Internet Explorer 8").decision.hits[0].matched == "LCC"
    assert found(report, "innocent", "Visual Studio Code's GitLab").decision.hits[0].matched == "code"  # vs-code
    found(report, "robots-txt", "GPTBot", "crawler")
    assert not [f for f in report.findings if f.kind == "let-through"]  # -i: every case refused


def test_lighttpd_with_and_without_its_robots_txt_wrapper() -> None:
    wrapped = checked("lighttpd", aistyle.lighttpd())
    bare = checked("lighttpd", aistyle.lighttpd(wrapper=False))
    assert wrapped.unreadable == bare.unreadable == ()
    found(wrapped, "let-through", "CCBot", "case")  # PCRE without (?i): case-sensitive
    assert not [f for f in wrapped.findings if f.kind == "robots-txt"]
    assert found(bare, "robots-txt", "CCBot", "crawler").paths == ("/robots.txt",)


ROBOTS_FILES = {
    "example": (EXAMPLES / "robots.txt").read_text(encoding="utf-8"),
    "paths": "User-agent: GPTBot\nDisallow: /private/\nAllow: /private/open/\n\nUser-agent: *\nDisallow: /admin/\n",
    "ai": aistyle.ROBOTS + "\nUser-agent: PerplexityBot\nDisallow: /private/\nAllow: /private/open/\n",
    "escapes": "User-agent: ClaudeBot\nDisallow: /caf%C3%A9/\nDisallow: /a b\nAllow: /a b/ok\n",
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("robots", sorted(ROBOTS_FILES))
@pytest.mark.parametrize("agents", ["ai", "all-named"])
def test_robotscopes_own_export_is_consistent(target: str, robots: str, agents: str) -> None:
    parsed = parse(ROBOTS_FILES[robots])
    result = render(plan(parsed, choose(parsed, agents)), target, "robots.txt", "en", "/acl")
    files = {f"/acl/{name}": text for name, text in result.files[1:]}
    report = check(parsed, target, result.files[0][1], agents, result.files[0][0], load=files.get)
    assert report.unreadable == ()
    # What export says of the file is all the check finds: the rules it leaves to robots.txt (lighttpd, for rules
    # it cannot see), and the innocent agents a chosen name also matches (`Code` and Visual Studio Code).
    left = {item.params["line"] for item in result.left}
    warned = {item.params["token"] for item in plan(parsed, choose(parsed, agents)).warnings}
    for finding in report.findings:
        if finding.kind == "let-through":
            assert finding.verdict is not None and finding.verdict.line in left, finding.message.render()
        else:
            matched = finding.decision.hits[0].matched.strip(" \t(),;/")
            assert finding.kind == "innocent" and matched in warned, finding.message.render()
    assert bool(report.findings) == bool(left or warned)


def test_a_configuration_refusing_what_robots_txt_allows_is_reported_with_the_line() -> None:
    robots = "User-agent: GPTBot\nAllow: /\nDisallow: /private/\n\nUser-agent: CCBot\nDisallow: /private/\n"
    config = (
        'map $http_user_agent $bad {\n    default 0;\n    "~*(GPTBot|ClaudeBot|CCBot)" 1;\n}\n'
        "server {\n    listen 80;\n    if ($bad) { return 403; }\n}\n"
    )
    report = checked("nginx", config, robots=robots, agents="GPTBot,CCBot")
    assert report.unreadable == () and not report.consistent
    gptbot = found(report, "refused", "GPTBot", "crawler")
    assert gptbot.paths == ("/", "/robots.txt") or gptbot.paths == ("/",)
    assert gptbot.message.render() == (
        "GPTBot: the server refuses / (by line 7, its User-Agent test at line 3 matching `GPTBot`), "
        "which robots.txt allows (line 2: Allow: /)"
    )
    claude = found(report, "refused", "ClaudeBot", "crawler")  # not chosen, and named by no group
    assert claude.message.render().endswith("which robots.txt allows (no group names it)")
    ccbot = found(report, "refused", "CCBot", "crawler")  # its group has no rule for /
    assert ccbot.message.render().endswith("which robots.txt allows (no rule of its group matches)")
    assert {f.kind for f in report.findings if f.probe.who == "GPTBot"} == {"refused", "robots-txt"}


def test_each_server_of_a_file_is_a_scope_of_its_own() -> None:
    config = "server { server_name a; if ($http_user_agent ~* gptbot) { return 403; } }\nserver { server_name b; }\n"
    report = checked("nginx", config, robots="User-agent: GPTBot\nDisallow: /\n", agents="GPTBot")
    assert {(f.kind, f.scope) for f in report.findings if f.probe.who == "GPTBot"} == {
        ("robots-txt", "server"),
        ("let-through", "server"),
    }
    texts = [f.message.render() for f in report.findings]
    assert any(text.startswith("server (line 2): GPTBot: robots.txt disallows /") for text in texts), texts


@pytest.mark.parametrize(
    ("target", "text", "line", "code"),
    [
        ("nginx", "rewrite ^/x /y last;\nif ($http_user_agent ~ 'GPTBot') { return 403; }\n", 1, "directive"),
        ("nginx", "include /etc/nginx/bots.conf;\n", 1, "include"),
        ("nginx", "if ($http_user_agent ~ '(a|a)*x') { return 403; }\n", 1, "regex.overlap"),
        ("nginx", "if ($foo) { return 403; }\n", 1, "variable"),
        ("nginx", "if ($http_user_agent ~ 'x') { return 403;\n", 1, "syntax"),
        ("apache", "RewriteEngine On\nRewriteRule ^bots$ /blocked.html [L]\n", 2, "directive"),
        ("apache", "<If \"%{HTTP_USER_AGENT} -foo 'x'\">\nRequire all denied\n</If>\n", 1, "expression"),
        ("apache", "SetEnvIf User-Agent (.*)*x bad\n", 1, "regex.nested"),
        ("caddy", '@b header_regexp User-Agent "(?<!Not-)Cursor"\nabort @b\n', 1, "regex.re2"),
        ("caddy", "import bots.caddy\n", 1, "include"),
        ("haproxy", "acl bad hdr_sub(user-agent) -i -f /missing.lst\nhttp-request deny if bad\n", 1, "pattern-file"),
        ("haproxy", "use_backend bots if { hdr_sub(user-agent) bot }\n", 1, "directive"),
        ("haproxy", "acl bot hdr_sub(user-agent) bot\nhttp-request deny if bots !METH_POST\n", 2, "acl"),
        ("lighttpd", 'include "bots.conf"\n', 1, "include"),
        ("lighttpd", '$HTTP["user-agent"] =~ "a.*b.*c.*d.*e" { url.access-deny = ("") }\n', 1, "regex.repeats"),
    ],
)
def test_what_is_not_evaluated_is_said_with_its_line(target: str, text: str, line: int, code: str) -> None:
    report = checked(target, text, robots="User-agent: GPTBot\nDisallow: /\n", agents="GPTBot")
    assert (report.unreadable[0].line, report.unreadable[0].reason.code) == (line, f"enforce.check.{code}")
    assert not report.consistent
    view = check_view(report, "ko")
    assert view["unreadable"][0]["line"] == line and view["unreadable"][0]["text"]


def test_the_view_is_json_ready_and_korean() -> None:
    report = checked("nginx", aistyle.nginx())
    view = check_view(report, "ko")
    assert view["server"] == "nginx" and view["consistent"] is False
    lower = next(f for f in view["findings"] if f["variant"] == "case" and f["agent"] == "GPTBot")
    assert lower["kind"] == "let-through" and lower["config_line"] is None
    assert "robots.txt는 /를 금지하지만" in lower["message"]["text"] and "`gptbot` 표기" in lower["message"]["text"]


def test_a_configuration_too_large_to_ask_every_request_says_how_many_were_decided() -> None:
    # Every request walks 20,000 patterns: all the requests together would take past MAX_WORK steps.
    acls = "".join(f"acl bot hdr_sub(user-agent) -i bot{n}\n" for n in range(20_000))
    report = checked("haproxy", acls + "http-request deny if bot\n", robots="User-agent: GPTBot\nDisallow: /\n")
    assert report.unreadable == () and report.findings and not report.consistent
    assert 0 < report.decided < report.requests and report.decided * 20_000 <= MAX_WORK
    assert report.cut is not None
    assert report.cut.render() == (
        f"deciding every request would take more than {MAX_WORK:,} steps: {report.decided:,} of "
        f"{report.requests:,} requests decided, and only their findings listed"
    )
    assert check_view(report)["decided"] == report.decided
