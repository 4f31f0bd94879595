"""The configuration readers: regexes read as PCRE and RE2 read them (and bounded), every reader total on any text,
and the server rules read as each server runs them (cases the real-server tests do not send)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.reports.enforce.configs import MAX_CHARS, Request, read_config
from robotscope.reports.enforce.configs.haproxy import split
from robotscope.reports.enforce.configs.regex import PCRE, RE2, Unsupported, read

TARGETS = ("nginx", "apache", "caddy", "haproxy", "lighttpd")
ALPHABET = "ab-/ "


def _regex(depth: int) -> st.SearchStrategy[str]:
    atom = st.sampled_from(["a", "b", "-", "/", " ", "[ab]", "[^a]", ".", "\\d", "\\w", "\\b", "[a-b/]"])
    if depth:
        group = _regex(depth - 1).flatmap(lambda inner: st.sampled_from([f"({inner})", f"(?:{inner})"]))
        atom = st.one_of(atom, group)
    piece = st.tuples(atom, st.sampled_from(["", "", "?", "*", "+", "{1,2}"])).map(
        lambda pair: pair[0] + (pair[1] if pair[0] != "\\b" else "")
    )
    branch = st.lists(piece, min_size=1, max_size=4).map("".join)
    return st.lists(branch, min_size=1, max_size=3).map("|".join)


REGEXES = st.tuples(st.sampled_from(["", "^"]), _regex(2), st.sampled_from(["", "$"])).map("".join)


@settings(max_examples=300, deadline=None)
@given(
    REGEXES,
    st.lists(st.text(ALPHABET, max_size=12), min_size=1, max_size=6),
    st.booleans(),
    st.sampled_from([PCRE, RE2]),
)
def test_a_regex_read_matches_as_the_server_reads_it(
    pattern: str, subjects: list[str], icase: bool, flavour: str
) -> None:
    # On this syntax PCRE, RE2 and Python's re (ASCII) agree: a translation must not change what matches.
    try:
        regex = read(pattern, flavour, icase)
    except Unsupported:
        return  # refused: too costly to evaluate, said so
    expected = re.compile(pattern, re.ASCII | (re.IGNORECASE if icase else 0))
    for subject in subjects:
        assert (regex.search(subject) is not None) == (expected.search(subject) is not None), (pattern, subject)


@pytest.mark.parametrize(
    ("pattern", "flavour", "matches", "misses"),
    [
        ("\\x{263a}x", PCRE, ["a\u263ax"], ["ax"]),
        ("ab\\z", PCRE, ["ab"], ["ab\n"]),
        ("ab\\Z", PCRE, ["ab", "ab\n"], ["ab\nc"]),
        ("ab$", PCRE, ["ab", "ab\n"], ["abc"]),
        ("ab$", RE2, ["ab"], ["ab\n"]),  # RE2's $ is the end of the text
        ("(?<name>a)b", PCRE, ["ab"], ["b"]),
        ("[[:digit:]]x", PCRE, ["1x"], ["ax"]),
        ("[[:^alpha:]]x", PCRE, ["1x"], ["ax"]),
        ("a(?i)b", PCRE, ["aB"], ["AB"]),  # the flag holds from where it is set
        ("(a(?i)b|c)", PCRE, ["C"], ["AB"]),  # ... to the end of its group, later alternatives included
        ("\\bCursor\\b", PCRE, ["Not-Cursor/1.0"], ["NotCursor/1.0"]),  # `-` is a boundary for \b
        ("\\Q.*\\Ex", PCRE, [".*x"], ["abx"]),
        ("\\h", PCRE, ["a b"], ["ab"]),
        ("\\bé", PCRE, ["aé"], [" é"]),  # \b over ASCII words: é is no word character
        ("(?i)gptbot", RE2, ["GPTBot/1.0"], ["GPTBo"]),
    ],
)
def test_spellings_each_flavour_reads_its_own_way(
    pattern: str, flavour: str, matches: list[str], misses: list[str]
) -> None:
    regex = read(pattern, flavour)
    assert [subject for subject in matches if regex.search(subject) is None] == []
    assert [subject for subject in misses if regex.search(subject) is not None] == []


@pytest.mark.parametrize(
    ("pattern", "flavour", "code"),
    [
        ("(a|a)*x", PCRE, "overlap"),  # 2**n ways to fail
        ("(?:a|ab)+c", PCRE, "overlap"),
        ("(a*)*x", PCRE, "nested"),
        ("(a{1,20}){1,20}", PCRE, "nested"),
        ("a.*b.*c.*d.*e", PCRE, "repeats"),
        ("(a)\\1", PCRE, "construct"),  # a backreference
        ("\\p{L}", PCRE, "construct"),
        ("(?<!Not-)Cursor", RE2, "re2"),
        ("a++", RE2, "re2"),
        ("ab\\Z", RE2, "construct"),
        ("(?x) a", PCRE, "flag"),
        ("(" * 60 + ")" * 60, PCRE, "deep"),
        ("(?<=a+)b", PCRE, "python"),  # variable-length lookbehind: PCRE2 10.43 reads it, Python does not
        ("[b-a]", PCRE, "syntax"),
        ("a{3,2}", PCRE, "syntax"),
        ("x" * 70_000, PCRE, "long"),
    ],
)
def test_what_a_regex_is_not_evaluated_for(pattern: str, flavour: str, code: str) -> None:
    with pytest.raises(Unsupported) as raised:
        read(pattern, flavour)
    assert raised.value.reason.code == f"enforce.check.regex.{code}"


@pytest.mark.parametrize(
    "pattern",
    [
        "(?:[^%\\x20]|%[0-9A-Fa-f][0-9A-Fa-f])*x",  # robotscope's own: alternatives that start apart
        "^(?:/(?:[^%\\x20]|%[0-9A-Fa-f][0-9A-Fa-f])*)?/a(?:[^%\\x20]|%[0-9A-Fa-f][0-9A-Fa-f])*b",
        "(?:bot|crawler|spider)+",
        "(\\d{1,3}\\.){3}\\d{1,3}",
        "\\b(" + "|".join(f"Bot{n}" for n in range(400)) + ")\\b",
    ],
)
def test_costly_looking_regexes_that_are_bounded_are_read(pattern: str) -> None:
    read(pattern, PCRE)


CONFIG_WORDS = st.sampled_from(
    [
        "{",
        "}",
        ";",
        "\n",
        " ",
        '"',
        "'",
        "\\",
        "(",
        ")",
        "#",
        "$",
        "@aibots",
        "if",
        "set",
        "return 403",
        "map",
        "location",
        "server",
        "~",
        "~*",
        "=",
        "!=",
        "=~",
        "$http_user_agent",
        "$block",
        "RewriteEngine On",
        "RewriteCond",
        "RewriteRule",
        "%{HTTP_USER_AGENT}",
        "[NC]",
        "[F]",
        "<If",
        "</If>",
        ">",
        "Require",
        "SetEnvIf",
        "header_regexp",
        "User-Agent",
        "abort",
        "respond",
        "not",
        "path",
        "acl",
        "http-request",
        "deny",
        "hdr_sub(user-agent)",
        "-i",
        "-f",
        "-m",
        "reg",
        "frontend",
        '$HTTP["user-agent"]',
        '$HTTP["url"]',
        "else",
        "url.access-deny",
        "=",
        '("")',
        "(GPTBot|Spider)",
        "\\b",
        "(?i)",
        "\u00e9",
        "\x00",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(TARGETS), st.lists(CONFIG_WORDS, max_size=60).map("".join))
def test_every_reader_reads_any_text_and_decides_any_request(target: str, text: str) -> None:
    config = read_config(target, text, "conf", lambda _: "GPTBot\n")
    lines = max(1, len(text.splitlines()))
    assert all(1 <= item.line <= lines for item in config.unreadable if item.file is None), config.unreadable
    assert all("\n" not in item.as_message("conf").render() for item in config.unreadable)
    for scope in config.scopes:
        for user_agent in ("Mozilla/5.0 (compatible; GPTBot/1.2)", "", "x" * 300):
            decision = scope.decide(Request(user_agent, "/a%2Fb/../c?x=1"))
            assert decision.refused in (True, False)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    "junk",
    [
        "{" * 5000,
        "}" * 5000,
        "(" * 5000,
        "<If " * 5000,
        "\x00\xff\ud7ff" * 1000,
        "a" * 2_000_000,
        'if ($http_user_agent ~ "' + "(" * 3000 + '") { return 403; }',
        "\n".join(f"acl a{n} hdr_sub(user-agent) -i x{n}" for n in range(20_000)),
    ],
    ids=["braces", "closings", "parens", "containers", "bytes", "long", "regex", "many"],
)
def test_hostile_configurations_give_a_bounded_answer(target: str, junk: str) -> None:
    config = read_config(target, junk)
    for scope in config.scopes:
        scope.decide(Request("GPTBot/1.0", "/"))
    if len(junk) > MAX_CHARS:
        assert any(item.reason.code == "enforce.check.cut" for item in config.unreadable)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("acl a hdr_sub(user-agent) -i GPTBot # comment", ["acl", "a", "hdr_sub(user-agent)", "-i", "GPTBot"]),
        ("acl a path_reg '^/a\\.b$'", ["acl", "a", "path_reg", "^/a\\.b$"]),
        ('acl a hdr(user-agent) "a\\"b" c\\ d \\x41', ["acl", "a", "hdr(user-agent)", 'a"b', "c d", "A"]),
        ("acl a x '' \"\"", ["acl", "a", "x", "", ""]),
    ],
)
def test_haproxy_lines_split_as_haproxy_splits_them(line: str, words: list[str]) -> None:
    assert split(line) == words


@pytest.mark.parametrize("line", ["acl a '", 'acl a "${HOME}"', "acl a \\xZZ"])
def test_haproxy_lines_haproxy_refuses(line: str) -> None:
    with pytest.raises(ValueError):
        split(line)


def decide(target: str, text: str, user_agent: str, target_path: str = "/", name: str = "") -> bool:
    config = read_config(target, text, name)
    assert config.unreadable == (), config.unreadable
    return config.scopes[0].decide(Request(user_agent, target_path)).refused


def test_nginx_locations_are_chosen_as_nginx_chooses_them() -> None:
    config = (
        "server {\n"
        "  location = /robots.txt { }\n"
        "  location ^~ /static/ { }\n"
        "  location ~* \\.php$ { if ($http_user_agent ~* bot) { return 403; } }\n"
        "  location / { if ($http_user_agent ~* bot) { return 444; } }\n"
        "  location /open/ { deny all; }\n"
        "}\n"
    )
    assert decide("nginx", config, "GPTBot", "/x")
    assert not decide("nginx", config, "GPTBot", "/robots.txt")
    assert not decide("nginx", config, "GPTBot", "/static/a.php")  # ^~ stops before the regexes
    assert decide("nginx", config, "GPTBot", "/a.PHP")
    assert decide("nginx", config, "Mozilla", "/open/a")
    assert not decide("nginx", config, "Mozilla", "/x")


def test_nginx_maps_answer_exact_keys_case_insensitively_then_regexes_then_default() -> None:
    config = (
        'map $http_user_agent $bad { default 0; "GPTBot" 1; "~^Claude" 1; }\n'
        "map $bad $verdict { 1 refuse; default ''; }\n"
        'server { if ($verdict = "refuse") { return 403; } }\n'
    )
    assert decide("nginx", config, "gptbot")  # exact keys: case-insensitive
    assert decide("nginx", config, "ClaudeBot/1.0")
    assert not decide("nginx", config, "claudebot/1.0")  # `~`: case-sensitive
    assert not decide("nginx", config, "GPTBot/1.2")


def test_apache_access_control_and_require_sections() -> None:
    old = "SetEnvIfNoCase User-Agent gptbot bad\nOrder Allow,Deny\nAllow from all\nDeny from env=bad\n"
    assert decide("apache", old, "GPTBot/1.2")
    assert not decide("apache", old, "Mozilla/5.0")
    reversed_order = "BrowserMatch GPTBot bad\nOrder Deny,Allow\nDeny from env=bad\nAllow from all\n"
    assert not decide("apache", reversed_order, "GPTBot/1.2")  # Deny,Allow: a matching Allow wins
    modern = (
        "SetEnvIfNoCase User-Agent gptbot bad\n<RequireAll>\n  Require all granted\n  Require not env bad\n"
        '</RequireAll>\n<Files "robots.txt">\n  Require all granted\n</Files>\n'
    )
    assert decide("apache", modern, "GPTBot/1.2", "/x")
    assert not decide("apache", modern, "GPTBot/1.2", "/robots.txt")  # a later section's Require replaces
    expression = (
        "<If \"%{HTTP_USER_AGENT} =~ /gptbot/i && %{REQUEST_URI} != '/robots.txt'\">\nRequire all denied\n</If>\n"
    )
    assert decide("apache", expression, "GPTBot/1.2", "/x")
    assert not decide("apache", expression, "GPTBot/1.2", "/robots.txt")


def test_apache_rewrite_conditions_or_and_negation() -> None:
    rules = (
        "RewriteEngine On\n"
        "RewriteCond %{HTTP_USER_AGENT} GPTBot [OR]\n"
        "RewriteCond %{HTTP_USER_AGENT} ClaudeBot\n"
        "RewriteCond %{REQUEST_URI} !^/robots\\.txt$\n"
        "RewriteRule ^ - [F]\n"
    )
    assert decide("apache", rules, "ClaudeBot/1.0", "/a")
    assert not decide("apache", rules, "ClaudeBot/1.0", "/robots.txt")
    assert not decide("apache", rules, "claudebot/1.0", "/a")  # no [NC]
    off = rules.replace("RewriteEngine On", "RewriteEngine Off")
    assert not decide("apache", off, "ClaudeBot/1.0", "/a")
    vhost = f"<VirtualHost *:80>\n{rules}</VirtualHost>\n"
    assert decide("apache", vhost, "GPTBot", "/a")
    assert not decide(
        "apache", "RewriteEngine On\nRewriteRule !^/?robots\\.txt$ - [F]\n", "x", "/robots.txt", ".htaccess"
    )


def test_caddy_order_handle_and_header_wildcards() -> None:
    config = (
        "example.com {\n"
        "  @bots {\n    header User-Agent *GPTBot*\n    header User-Agent *ClaudeBot*\n  }\n"
        "  respond /robots.txt 200\n"
        "  handle /api/* {\n    respond 200\n  }\n"
        "  abort @bots\n"
        "}\n"
    )
    assert decide("caddy", config, "Mozilla/5.0 (compatible; GPTBot/1.2)", "/robots.txt")  # abort before respond
    assert not decide("caddy", config, "GPTBot/1.2", "/api/x")  # handle comes first, and answers
    assert not decide("caddy", config, "gptbot/1.2", "/x")  # header values: case-sensitive
    paths = "@bots {\n  header_regexp User-Agent (?i)gptbot\n  not path /ROBOTS.txt\n}\nrespond @bots 403\n"
    assert decide("caddy", paths, "GPTBot/1.2", "/x")
    assert not decide("caddy", paths, "GPTBot/1.2", "/robots.txt")  # the path matcher: case-insensitive


def test_haproxy_header_values_split_at_commas_unless_fhdr() -> None:
    split_ua = "Mozilla/5.0 (KHTML, like Gecko) Chrome/1"
    by_value = "acl b hdr(user-agent) -m reg ^like\nhttp-request deny if b\n"
    assert decide("haproxy", by_value, split_ua)
    assert not decide("haproxy", by_value.replace("hdr(", "req.fhdr("), split_ua)
    unless = "acl r path /robots.txt\nhttp-request deny unless r\n"
    assert decide("haproxy", unless, "x", "/a") and not decide("haproxy", unless, "x", "/robots.txt")


def test_lighttpd_else_chains_and_access_allow() -> None:
    config = (
        '$HTTP["url"] =^ "/open/" { }\n'
        'else $HTTP["user-agent"] =~ "(?i)gptbot" { url.access-deny = ("") }\n'
        'else { url.access-allow = (".html") }\n'
    )
    assert not decide("lighttpd", config, "GPTBot", "/open/x")
    assert decide("lighttpd", config, "GPTBot", "/x")
    assert decide("lighttpd", config, "Mozilla", "/x.txt")
    assert not decide("lighttpd", config, "Mozilla", "/x.html")
    assert not decide("lighttpd", 'server.modules = ("mod_rewrite")\n' + config, "GPTBot", "/x")
