"""`yandex`: the reading of Yandex's robots (YandexBot, YandexImages, ...), from Yandex Webmaster's help.

Behaviour by behaviour, with its source; "settled" means a Yandex page says
it, "inferred" that robotscope reads it from a Yandex page that does not say
it outright, and "not documented: RFC 9309" that no Yandex page in the
material available said anything, so RFC 9309
(https://www.rfc-editor.org/rfc/rfc9309.html) is followed.

Size limit (differs from RFC 9309)
    Settled: "Yandex robots correctly process robots.txt, if: The file size
    doesn't exceed 500 KB ... If the file doesn't meet the requirements, the
    site is considered open for indexing."
    (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html).
    So a file over the limit is not read at all: no group applies and every
    URL is allowed, where RFC 9309 reads its first 500 KiB. Inferred: 500 KB
    is 512,000 bytes, robotscope's own 500 KiB limit.
Line dialect
    Not documented: RFC 9309 (case-insensitive keys, `#` comments, a line
    without a colon ignored). The Yandex page on the `#` symbol was not
    available.
Group formation (differs from RFC 9309)
    Settled that a rule must follow a User-agent line with no empty line in
    between: "Empty line breaks aren't allowed between the User-agent,
    Disallow and Allow directives"
    (https://yandex.com/support/webmaster/robot-workings/allow-disallow.html),
    and Yandex's parser reports "No User-agent directive in front of rule ...
    Perhaps, the file contains an empty line after User-agent"
    (https://yandex.com/support/webmaster/en/error-dictionary/robots-txt.md).
    Inferred from these: an empty line (nothing but whitespace) ends a
    group, and the rules after it, up to the next User-agent line, belong to
    no group and are ignored; RFC 9309 ignores empty lines. A comment-only
    line is not empty and ends nothing (inferred). Other records (Sitemap,
    Crawl-delay, Clean-param, Host) neither end a group nor are rules, as in
    RFC 9309 (not documented otherwise); Content-Usage and Content-Signal
    are rules, as in robotscope's RFC 9309 parse (not documented by Yandex).
Agent matching
    Settled: "If the User-agent: Yandex string is detected, the User-agent: *
    string is ignored", and a group naming a robot is used by it alone:
    "User-agent: YandexBot # will be used only by the main indexing bot",
    "User-agent: Yandex # will be used by all Yandex bots # except the main
    indexing bot", "User-agent: * # will not be used by Yandex bots"
    (https://yandex.com/support/webmaster/en/robot-workings/user-agent). The
    Russian page says plainly that a robot's own directives replace both
    `Yandex` and `*` ("директивы User-agent: Yandex и User-agent: * не
    используются", https://yandex.ru/support/webmaster/robot-workings/user-agent.html;
    the English page misprints `Yandex` as `Yahoo`). So: the robot's own
    token, else `Yandex`, else `*`, else everything allowed. Which robots
    fall back to `Yandex` is the crawler catalogue's data (`fallback` =
    Yandex: YandexBot, YandexImages); YandexAdditional ignores `*`, also as
    the catalogue says. Tokens are exact product tokens, case-insensitive,
    and groups naming the same token are merged (not documented: RFC 9309).
    A token outside the catalogue is read as RFC 9309 reads it.
Matching
    Settled: "The Allow and Disallow directives from the corresponding
    User-agent block are sorted according to URL prefix length (from
    shortest to longest)" (allow-disallow page above), and, in the Russian
    page's words quoted at
    https://qna.habr.com/user/kopcap_va/tag_answers?tag=robots.txt, "робот
    выбирает последнюю в порядке появления в сортированном списке" (the
    robot picks the last matching one of the sorted list), so "порядок
    следования директив в файле robots.txt не влияет" (their order in the
    file does not matter): the longest match wins, as in RFC 9309. The tie rule (Allow wins between
    equally long prefixes) was not found in the material available: not
    documented, RFC 9309, which says the same. `*` and `$` are Yandex's only
    special characters (settled: "The file contains a special character
    other than * and $", error-dictionary page above) and `*` matches any
    sequence (settled by the examples `Disallow: /*id=`); what `$` does
    (anchors the end) is RFC 9309's (not documented). An empty `Disallow:`
    or `Allow:` matches nothing (not documented: RFC 9309).
    `/robots.txt` is always allowed (not documented: RFC 9309).
Records that are not rules
    Settled: Clean-param tells the robot which URL parameters to drop ("The
    Yandex robot will converge all the page addresses into one",
    https://yandex.ru/support/webmaster/en/robot-workings/clean-param): it
    neither allows nor disallows anything, so it is kept as a record.
    Settled: "From February 22, 2018, Yandex doesn't take into account the
    Crawl-delay directive"
    (https://www.yandex.com/support/webmaster/en/robot-workings/crawl-delay.md):
    a record with no effect on any verdict.
Not modelled
    Yandex's parser also reports more than 2,048 rules and rules longer than
    1,024 characters (error-dictionary page above), but no page says what
    the robot then does, so neither limit is applied.
Fetch policy (differs from RFC 9309)
    Settled: the file is read only when "the server that hosts the site
    responds with an HTTP code with the status 200 OK"; otherwise "the site
    is considered open for indexing" (robots-txt page above). So any answer
    but 200 OK, a 5xx or a 429 included, allows everything, where RFC 9309
    disallows everything on a 5xx. The row `yandex` of
    `robotscope.access.policy` holds it, with its sources and what is
    inferred (an HTML page, a fetch with no answer).
"""

from __future__ import annotations

from ...syntax.directives import GROUP_RULE_KEYS
from ...syntax.model import Group, LineKind, Record, Rule
from ...syntax.parsed import ParsedFile
from ...syntax.parser import MAX_BYTES
from ...syntax.tokens import group_token
from ...syntax.urls import target
from . import rfc9309 as rfc
from .base import Engine, Parsed, named_groups

OPERATOR = "Yandex"  # the crawler catalogue's operator whose profiles (the `Yandex` fallback) apply
LIMIT = MAX_BYTES  # "500 KB", read as robotscope's 500 KiB (512,000 bytes)


def read(robots: ParsedFile) -> Parsed:
    """The file as Yandex reads it: nothing at all past the size limit; an empty line ends a group."""
    if robots.size > LIMIT:
        return Parsed((), robots.size)
    found = groups(robots)
    return Parsed(found, robots.size, named=named_groups(found))


def groups(robots: ParsedFile) -> tuple[Group, ...]:
    """The groups of a file when an empty line ends a group (rules after it, before a User-agent, are dropped).

    The rules and records are RFC 9309's parse of the same lines (their
    percent-encoding and octets as the parser keeps them), regrouped.
    """
    rules: dict[int, Rule] = {rule.line: rule for group in robots.groups for rule in group.rules}
    records: dict[int, Record] = {record.line: record for group in robots.groups for record in group.records}
    built: list[tuple[list[str], list[int], list[Rule], list[Record]]] = []
    current: tuple[list[str], list[int], list[Rule], list[Record]] | None = None
    seen_rule = False
    for line in robots.lines:
        if line.kind is LineKind.USER_AGENT:
            if current is None or seen_rule:
                current = ([], [], [], [])
                built.append(current)
                seen_rule = False
            token = group_token(line.value or "")
            if token is not None:
                current[0].append(token)
            current[1].append(line.number)
        elif not line.raw.strip():
            current = None  # an empty line ends the group; a comment-only line does not
        elif current is not None:
            rule = rules.get(line.number)
            if rule is not None:
                current[2].append(rule)
                seen_rule = True
            else:
                record = records.get(line.number)
                if record is not None:
                    current[3].append(record._replace(group=len(built) - 1))
                    seen_rule = seen_rule or record.key in GROUP_RULE_KEYS  # a rule, as in RFC 9309's parse
    return tuple(
        Group(position, tuple(agents), tuple(lines), tuple(kept), tuple(others))
        for position, (agents, lines, kept, others) in enumerate(built)
    )


# The robot's own groups, else the `Yandex` groups (the catalogue's fallback), else `*`.
select = rfc.operator_select(OPERATOR)


ENGINE: Engine = Engine(
    name="yandex",
    title="Yandex",
    sources=(
        "https://yandex.com/support/webmaster/controlling-robot/robots-txt.html",
        "https://yandex.com/support/webmaster/en/robot-workings/user-agent",
        "https://yandex.ru/support/webmaster/robot-workings/user-agent.html",
        "https://yandex.com/support/webmaster/robot-workings/allow-disallow.html",
        "https://qna.habr.com/user/kopcap_va/tag_answers?tag=robots.txt",
        "https://yandex.com/support/webmaster/en/error-dictionary/robots-txt.md",
        "https://yandex.ru/support/webmaster/en/robot-workings/clean-param",
        "https://www.yandex.com/support/webmaster/en/robot-workings/crawl-delay.md",
        "https://www.rfc-editor.org/rfc/rfc9309.html",
    ),
    policy="yandex",
    read=read,
    select=select,
    match=rfc.match,
    regroup=rfc.regroup,
    target=target,
    operator=OPERATOR,
    notes=(
        "engine.yandex.note.empty-line",
        "engine.yandex.note.size",
        "engine.yandex.note.tie",
        "engine.yandex.note.empty-value",
        "engine.yandex.note.family",
        "engine.yandex.note.limits",
        "engine.yandex.note.policy",
    ),
)
