"""The proof that generated rules refuse only what the crawler's reading disallows, and the cases they cannot say.

For every server: what the generated entries refuse (first match, as each
server's rendering tries them: `simulate`) is disallowed by robotscope's
reading of the file, for any request target at all; on the targets a
server's rules can read exactly, a rule expressed exactly answers as the
rule does, and a whole group as the reading does. The rules a server
cannot express are listed by `Export.left`; `test_the_cases_not_expressed`
pins every kind.
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from robotscope import parse
from robotscope.messages import Message
from robotscope.reports.enforce import choose, plan
from robotscope.reports.enforce.decoded import expressed as decoded_rule
from robotscope.reports.enforce.entries import decoded_path, sent
from robotscope.reports.enforce.plan import Plan
from robotscope.reports.enforce.raw import MAX_STARS, REQUEST_LINE, TARGET, expressed, regex
from robotscope.syntax.model import Rule
from robotscope.syntax.patterns import compile_pattern, matches
from tests.reports.enforce.simulate import compiled, lighttpd_path, plain, refused, request_line, target_of

# Pieces of patterns and of sent targets, chosen to meet every case: escapes in both cases, escapes of
# unreserved characters, `*` and `$` sent as themselves and as escapes, hex digits that may begin inside an
# escape, UTF-8, a `?` (the query), and, in targets only, what robotscope cannot read exactly.
PATTERN_PIECES = [*"/ab.AF2-_~?=&*", "$", "%2F", "%2f", "%41", "%C3%A9", "%3D", "%2A", "%24", "%25", "%20", "é", "2F"]
TARGET_PIECES = [
    *"/ab.AF2-_~?=&*$",
    "%2F",
    "%2f",
    "%41",
    "%61",
    "%C3%A9",
    "%c3%a9",
    "%3D",
    "%3d",
    "%2A",
    "%2a",
    "%24",
    "%25",
    "%20",
    "%3F",
    "%",
    "%4",
    "#",
    "é",
    "\t",
    "..",
    "./",
]
patterns = st.lists(st.sampled_from(PATTERN_PIECES), max_size=7).map(lambda parts: "".join(parts))
targets = st.lists(st.sampled_from(TARGET_PIECES), max_size=9).map(lambda parts: "/" + "".join(parts))
AGENT = "ExampleBot"


def _rule(pattern: str, allow: bool = False) -> Rule | None:
    found = parse(f"User-agent: *\n{'Allow' if allow else 'Disallow'}: {pattern}\n").groups[0].rules
    return found[0] if found and found[0].normalised else None


def _plan(rules: list[tuple[bool, str]]) -> Plan:
    text = f"User-agent: {AGENT}\n" + "".join(f"{'Allow' if allow else 'Disallow'}: {p}\n" for allow, p in rules)
    robots = parse(text)
    return plan(robots, choose(robots, AGENT))


@given(pattern=patterns, raw=targets)
@example(pattern="/*2F", raw="/a%2f")  # a piece after `*` that begins inside an escape
@example(pattern="/*A", raw="/x*")  # ... of the escape `target` writes for a sent `*`
@example(pattern="/a*4$", raw="/a$")
def test_a_rule_regex_says_exactly_what_the_rule_says_on_plain_targets(pattern: str, raw: str) -> None:
    rule = _rule(pattern)
    if rule is None:
        return
    wanted = matches(compile_pattern(rule.normalised), target_of(raw))
    for subject, text in ((TARGET, raw), (REQUEST_LINE, request_line(raw))):
        found = regex(rule.normalised, subject)
        hit = found is not None and compiled(found).search(text) is not None
        if plain(raw):
            assert hit == wanted, (rule.normalised, raw, found)
        elif hit:
            # A rule's regex meets a target robotscope cannot read exactly only where the rule matches it.
            assert wanted or not rule.normalised.startswith("/"), (rule.normalised, raw, found)


@given(rules=st.lists(st.tuples(st.booleans(), patterns), min_size=1, max_size=5), raw=targets)
@example(rules=[(False, "/"), (True, "/*.html$")], raw="/a%zz.html")  # an allow must not fail on a lone `%`
@example(rules=[(False, "/"), (True, "/a$")], raw="/a#b")
def test_servers_that_match_the_sent_target_refuse_only_what_the_reading_disallows(
    rules: list[tuple[bool, str]], raw: str
) -> None:
    made = _plan(rules)
    robots = parse(f"User-agent: {AGENT}\n" + "".join(f"{'Allow' if a else 'Disallow'}: {p}\n" for a, p in rules))
    disallowed = not robots.can_fetch(AGENT, "http://example.com" + raw)
    for group in made.groups:
        for subject, text in ((TARGET, raw), (REQUEST_LINE, request_line(raw))):
            left: dict[int, Message] = {}
            entries = sent(made, group, subject, "nginx", left, "en")
            answer = refused(entries, text)
            if answer:
                assert disallowed, (rules, raw)
            if plain(raw) and not left:
                assert answer == disallowed, (rules, raw)
    if not made.groups:
        assert not disallowed or raw.startswith("/robots.txt")


@given(rules=st.lists(st.tuples(st.booleans(), patterns), min_size=1, max_size=5), raw=targets)
@example(rules=[(False, "/"), (True, "/*A0")], raw="/x%C3%A0")  # an allow that matches inside an escape
@example(rules=[(False, "/a=b")], raw="/a=b")
def test_lighttpd_refuses_only_what_the_reading_disallows(rules: list[tuple[bool, str]], raw: str) -> None:
    made = _plan(rules)
    robots = parse(f"User-agent: {AGENT}\n" + "".join(f"{'Allow' if a else 'Disallow'}: {p}\n" for a, p in rules))
    path = lighttpd_path(raw)
    if path is None:
        return  # a request lighttpd decodes ambiguously: `enforce.note.decoded` says so
    disallowed = not robots.can_fetch(AGENT, "http://example.com" + raw)
    for group in made.groups:
        left: dict[int, Message] = {}
        answer = refused(decoded_path(made, group, left, "en"), path)
        if answer:
            assert disallowed, (rules, raw, path)
        if not left:
            assert answer == disallowed, (rules, raw, path)


def test_the_cases_not_expressed() -> None:
    # Every kind of rule a server cannot express, and how it is made safe: the exact list.
    cases = [
        # (pattern, allow, server, regex or None, code)
        ("/" + "*a" * (MAX_STARS + 1), False, "nginx", None, "enforce.left.stars"),
        ("/x" + "*a" * (MAX_STARS + 1), True, "nginx", "^/x", "enforce.widened.stars"),
        ("/*.pdf$", False, "lighttpd", None, "enforce.left.query"),
        ("/search?q=", False, "lighttpd", None, "enforce.left.query"),
        ("/a%3Db", False, "lighttpd", None, "enforce.left.decoded"),
        ("/*2024/", False, "lighttpd", "^/.*2024/", "enforce.narrowed.path"),
        ("/search?q=", True, "lighttpd", "^/search$", "enforce.widened.equal"),
        ("/a$", True, "lighttpd", "^/a$", "enforce.widened.equal"),
        ("/*.html", True, "lighttpd", "^/", "enforce.widened.path"),
        ("/a%3Db*c", True, "lighttpd", r"^/a\x3db", "enforce.widened.path"),
    ]
    for pattern, allow, server, wanted, code in cases:
        rule = _rule(pattern, allow)
        assert rule is not None
        found = decoded_rule(rule) if server == "lighttpd" else expressed(rule, TARGET, server)
        assert not found.exact and found.why is not None
        assert (found.regex, found.why.code) == (wanted, code), pattern
    # What every server expresses exactly: prefixes with Allow exceptions, escapes, UTF-8, and for the servers
    # that match the sent target, `*`, `$` and the query string too.
    for pattern in ("/private/", "/caf%C3%A9/", "/a b", "/*"):
        rule = _rule(pattern)
        assert rule is not None and decoded_rule(rule).exact and expressed(rule, TARGET, "nginx").exact
    for pattern in ("/*.pdf$", "/search?q=", "/*2024/", "/a%3Db", "/" + "*a" * MAX_STARS):
        rule = _rule(pattern)
        assert rule is not None and expressed(rule, REQUEST_LINE, "apache").exact
