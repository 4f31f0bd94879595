"""`rfc9309`: RFC 9309 exactly, nothing added; and `rfc9309+profiles`, RFC 9309 with the crawlers' documented profiles.

Every behaviour is RFC 9309's (https://www.rfc-editor.org/rfc/rfc9309.html),
as README's "What robotscope implements" states it: Section 2.2 (records,
case-insensitive keys, a line without a colon ignored), 2.2.1 (groups,
exact product tokens, merged groups, `*` otherwise), 2.2.2 (longest match,
Allow on ties, percent-encoding, /robots.txt implicitly allowed), 2.2.3
(`*` and `$`), 2.5 (the first 500 KiB). Product tokens keep digits
(`MJ12bot`), as every crawler's own name does.

`rfc9309+profiles` (`PROFILED`) adds the crawler catalogue's operator
profiles (Googlebot-Image obeys a Googlebot group when no group names it;
AdsBot-Google ignores `*`): what the front ends show by default, with a note
whenever a profile changes RFC 9309's answer. These steps are the generic
form of what `Robots.verdict` answers from its indexed rule sets for
speed; a property test keeps the two equal.
"""

from __future__ import annotations

from ...syntax.model import Group
from ...syntax.parsed import ParsedFile
from ...syntax.tokens import product_token
from ...syntax.urls import target
from ..matching.explain import candidates
from ..matching.ruleset import RuleSet
from ..verdicts import is_robots_txt
from .base import Engine, Match, Parsed, Selection, Selector, applying, named_groups, profiled

NAME = "rfc9309"
PROFILED_NAME = "rfc9309+profiles"


def read(parsed: ParsedFile) -> Parsed:
    return Parsed(parsed.groups, parsed.size, named=named_groups(parsed.groups))


class _Indexed:
    """The rule set of a selection, indexed on first match (a selection made only to compare rules needs none)."""

    __slots__ = ("_groups", "_ruleset", "_token")

    def __init__(self, token: str, groups: tuple[Group, ...]) -> None:
        self._token, self._groups = token, groups
        self._ruleset: RuleSet | None = None

    def ruleset(self) -> RuleSet:
        if self._ruleset is None:
            self._ruleset = RuleSet(self._token, self._groups)
        return self._ruleset


def selection(token: str, groups: tuple[Group, ...]) -> Selection:
    """The groups chosen for `token`, their rules indexed once, on the first match."""
    return Selection(token, groups, _Indexed(token, groups))


def regroup(parsed: Parsed, groups: tuple[Group, ...]) -> Selection:
    """`groups` (some of those a crawler chose) as one rule set, indexed on the first match."""
    return selection("", groups)


def select(parsed: Parsed, agent: str) -> Selection:
    """RFC 9309's choice of groups: those naming the crawler's token, else `*`."""
    token = product_token(agent)
    return selection(token, applying(parsed, token))


def operator_select(operator: str) -> Selector:
    """`select` for one operator's engine: the catalogue's profiles for its own crawlers, RFC 9309's choice
    alone for every other crawler (another operator's profile is not this engine's to apply)."""
    return profiled(select, operator)


def match(selection: Selection, path: str) -> Match:
    indexed = selection.prepared
    # A selection made elsewhere (a profile's empty one): index it now.
    ruleset = indexed.ruleset() if isinstance(indexed, _Indexed) else RuleSet(selection.token, selection.groups)
    found = candidates(ruleset, path)
    return Match(found[0] if found else None, found, implicit=is_robots_txt(path))


_SOURCES = ("https://www.rfc-editor.org/rfc/rfc9309.html",)

ENGINE: Engine = Engine(
    name=NAME,
    title="RFC 9309",
    sources=_SOURCES,
    policy="rfc9309",
    read=read,
    select=select,
    match=match,
    regroup=regroup,
    target=target,
)

# The operators' pages the catalogue's profile rows cite (a test keeps this list and crawlers.csv in step;
# the catalogue itself is read on first use, not when the engines are imported).
_PROFILE_SOURCES = (
    "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers",
    "https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers",
    "https://support.apple.com/en-us/119829",
    "https://yandex.com/support/webmaster/en/robot-workings/user-agent",
    "https://yandex.com/support/webmaster/en/robot-workings/check-yandex-robots",
)


# Not one of the readings `readings()` compares: RFC 9309's, with each crawler's documented profile.
PROFILED: Engine = Engine(
    name=PROFILED_NAME,
    title="RFC 9309 + crawler profiles",
    sources=(*_SOURCES, *_PROFILE_SOURCES),
    policy="rfc9309",
    read=read,
    select=profiled(select),
    match=match,
    regroup=regroup,
    target=target,
    notes=("engine.rfc9309+profiles.note.catalogue",),
)

__all__ = ["ENGINE", "NAME", "PROFILED", "PROFILED_NAME", "match", "operator_select", "read", "select", "selection"]
