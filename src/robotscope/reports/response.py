"""The HTTP response that carried a robots.txt, pasted as text: what each engine's policy does with it. Pure.

The static page fetches nothing, so a user pastes what `curl -sI` (or a
browser's network panel) showed: a status line and its header lines, or a
whole redirect chain (`curl -sIL`, one block per response). `read_response`
reads that text, never raising on any input: a line that is neither a status
line nor a header is reported with its number and skipped; a body after the
headers is ignored; past `MAX_CHARS`, `MAX_FIELDS` or `MAX_RESPONSES` the
rest is not read, and the answer says so. `judge` turns it into what each
policy of `access.policy` does (parse, allow all, disallow all, or follow the
redirect), the notes a careful reader needs (the media type RFC 9309 asks
for) and the `X-Robots-Tag` directives for each crawler
(`reports.indexing.robots_tags`).
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..access.policy import MAX_REDIRECTS, POLICIES, REDIRECTS, Outcome, Policy, decide, redirect_target
from ..access.served import charset, mislabelled
from ..messages import DEFAULT_LANG, Message, message
from ..syntax.html import looks_like_html
from ..syntax.parsed import ParsedFile
from ..syntax.tokens import product_token
from .indexing import robots_tags

MAX_CHARS = 64 * 1024  # of pasted text read: a chain of responses' headers is a few KB
MAX_FIELDS = 200  # header lines read per response
MAX_RESPONSES = 2 * MAX_REDIRECTS  # responses of a chain read: the crawlers follow five redirects
MAX_LINE = 8 * 1024  # characters of one header line (servers refuse longer fields)
MAX_PROBLEMS = 20  # bad lines reported one by one; the rest are counted
SHOWN = 200  # characters of a bad line or a value quoted back

# `HTTP/1.1 503 Service Unavailable`, `HTTP/2 200`; a bare `503 ...` only as the very first line.
_STATUS = re.compile(r"HTTP/\d(?:\.\d)?[ \t]+(\d{3})(?:[ \t]+([^\x00-\x08\x0a-\x1f\x7f]*))?[ \t]*", re.IGNORECASE)
_BARE_STATUS = re.compile(r"(\d{3})(?:[ \t]+([^\x00-\x08\x0a-\x1f\x7f]*))?[ \t]*")
# RFC 9110, Section 5.1 (a token) and 5.5 (a value: no control characters but tab).
_FIELD = re.compile(r"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\x00-\x08\x0a-\x1f\x7f]*?)[ \t]*")
_LINES = re.compile(r"\r\n|\r|\n")


class Response(NamedTuple):
    """One response of the pasted text: its status line's number, status and header lines."""

    line: int
    status: int
    reason: str
    fields: list[tuple[str, str]]

    def field(self, name: str) -> str | None:
        """The first value of header `name` (case-insensitive), or None."""
        return next((value for key, value in self.fields if key.lower() == name), None)


class Pasted(NamedTuple):
    """The pasted text as read: its responses in order, the lines skipped and what was not read."""

    responses: list[Response]
    headers_only: list[tuple[str, str]]  # header lines pasted without any status line
    problems: list[tuple[int, Message]]  # (line number, why it was skipped)
    notes: list[Message]  # what was not read at all (a body, the text past a limit)


def read_response(text: str) -> Pasted:
    """The responses of `text` (see the module's description); any string is read, none raises."""
    responses: list[Response] = []
    loose: list[tuple[str, str]] = []
    problems: list[tuple[int, Message]] = []
    notes: list[Message] = []
    if len(text) > MAX_CHARS:
        notes.append(message("response.cut", limit=MAX_CHARS))
        text = text[:MAX_CHARS]
    current: list[tuple[str, str]] | None = None  # header lines of the response being read
    blank = False  # a blank line ended the headers of the current response
    for number, raw in enumerate(_LINES.split(text), start=1):
        line = _curl(raw)
        if line is None:
            continue
        if not line.strip():
            blank = blank or current is not None or bool(loose)
            continue
        status = _STATUS.fullmatch(line) or (_BARE_STATUS.fullmatch(line) if number == 1 else None)
        if status is not None:
            if len(responses) == MAX_RESPONSES:
                notes.append(message("response.tooMany", limit=MAX_RESPONSES, line=number))
                break
            current = []
            responses.append(Response(number, int(status[1]), (status[2] or "").strip()[:SHOWN], current))
            blank = False
            continue
        if blank:  # a line after the headers that starts no response: the body, which the editor holds
            notes.append(message("response.body", line=number))
            break
        target = loose if current is None else current
        if line[:1] in (" ", "\t") and target:  # obs-fold (RFC 9112, Section 5.2): the value goes on
            name, value = target[-1]
            target[-1] = (name, (value + " " + line.strip())[:MAX_LINE])
            continue
        field = _FIELD.fullmatch(line) if len(line) <= MAX_LINE else None
        if field is None:
            problems.append((number, _bad_line(line)))
        elif len(target) == MAX_FIELDS:
            problems.append((number, message("response.tooManyFields", limit=MAX_FIELDS)))
        else:
            target.append((field[1], field[2]))
    return Pasted(responses, loose, problems, notes)


def _curl(line: str) -> str | None:
    """A line of `curl -v` output as a response line: `< ` marks the response, `>` and `*` lines
    (the request, curl's own notes) are not part of it (None)."""
    if line.startswith("< ") or line == "<":
        return line[2:]
    if line.startswith((">", "* ")):
        return None
    return line


def _bad_line(line: str) -> Message:
    if len(line) > MAX_LINE:
        return message("response.longLine", length=len(line), limit=MAX_LINE)
    shown = "".join(c if c.isprintable() else "\ufffd" for c in line[:SHOWN])
    return message("response.badLine", raw=shown)


def judge(
    text: str,
    robots: ParsedFile,
    agent: str = "",
    origin: str | None = None,
    lang: str = DEFAULT_LANG,
) -> dict[str, Any] | None:
    """What the page shows for the pasted response `text` beside the file `robots` (the editor's):
    None when the part of `text` read is blank.

    `origin` (the robots.txt URL, when known) resolves a relative Location;
    `agent` (the page's crawler) always gets a row of `X-Robots-Tag` directives.
    """
    if not text[:MAX_CHARS].strip():  # only the part read: a huge paste is never copied whole
        return None
    pasted = read_response(text)
    # A 1xx before another response is interim (100 Continue, 103 Early Hints): not part of the chain.
    chain = [r for i, r in enumerate(pasted.responses) if r.status >= 200 or i == len(pasted.responses) - 1]
    final = chain[-1] if chain else None
    fields = final.fields if final is not None else pasted.headers_only
    notes = list(pasted.notes)
    decisions: dict[str, Any] = {}
    if final is None:
        notes.insert(0, message("response.noStatus"))
    else:
        decisions = _decisions(chain, robots, origin, lang)
    media = _media_note(final, fields)
    if media is not None:
        notes.append(media)
    tags = _tags(fields, agent)
    if tags:
        notes.append(message("response.robotsTagMeaning"))
    return {
        "chain": [
            {"line": r.line, "status": r.status, "reason": r.reason, "location": r.field("location")} for r in chain
        ],
        "status": None if final is None else final.status,
        "content_type": _field(fields, "content-type"),
        "decisions": decisions,
        "robots_tags": tags,
        "notes": [n.as_dict(lang) for n in notes],
        "problems": [{"line": n, "message": m.as_dict(lang)} for n, m in pasted.problems[:MAX_PROBLEMS]],
        "problem_count": len(pasted.problems),
    }


def _field(fields: list[tuple[str, str]], name: str) -> str | None:
    return next((value for key, value in fields if key.lower() == name), None)


def _decisions(chain: list[Response], robots: ParsedFile, origin: str | None, lang: str) -> dict[str, dict[str, Any]]:
    """Each policy's reading of the chain's last response, after the redirects before it."""
    final = chain[-1]
    before = [r for r in chain[:-1] if r.status in REDIRECTS]
    locations = [(r.field("location") or "").strip() for r in before]
    location = final.field("location")
    # A relative Location is checked against a stand-in origin when the file's is not known.
    target, why = redirect_target(origin or "https://origin.invalid/robots.txt", location)
    shown = target if origin is not None else (location or "").strip()[:SHOWN]
    loop = location is not None and location.strip() in locations
    redirects = len(before)
    if final.status in REDIRECTS and target is not None and not loop and redirects < MAX_REDIRECTS:
        follow = message("response.follow", target=shown, limit=MAX_REDIRECTS)
        return {name: _follow(row, final.status, follow, lang) for name, row in POLICIES.items()}
    html = 200 <= final.status < 300 and looks_like_html(robots)
    outcome = Outcome(status=final.status, redirects=redirects, loop=loop, html=html, unfollowable=why)
    return {name: decide(outcome, name).as_dict(lang) for name in POLICIES}


def _follow(row: Policy, status: int, follow: Message, lang: str) -> dict[str, Any]:
    """A redirect every policy follows, said the way `access.policy` says its decisions."""
    cause = message("cause.status", status=status)
    reason = message("decision", policy=row.title, source=row.sources[0], cause=cause, rule=follow)
    return {"policy": row.name, "action": "follow", "explanation": reason.render(lang), "reason": reason.as_dict(lang)}


def _media_note(final: Response | None, fields: list[tuple[str, str]]) -> Message | None:
    """RFC 9309, Section 2.3: the file MUST be UTF-8 and text/plain; a 2xx served otherwise is noted."""
    value = _field(fields, "content-type")
    if final is None and value is None:
        return None  # neither a status nor a type was pasted: nothing to judge
    wrong = mislabelled(200 if final is None else final.status, value)
    if wrong == "missing":
        return message("response.noType")
    if wrong == "charset":
        return message("response.charset", charset=(charset(value) or "")[:SHOWN])
    if wrong is not None:
        return message("response.type", type=(value or "").split(";")[0].strip()[:SHOWN])
    return None


def _tags(fields: list[tuple[str, str]], agent: str) -> list[dict[str, Any]]:
    """The `X-Robots-Tag` directives for each crawler a line names, the page's crawler, and the rest."""
    lines = robots_tags(fields)
    if not lines:
        return []
    common = [d for aimed, found in lines if aimed is None for d in found]
    token = product_token(agent) if agent.strip() else ""
    named = dict.fromkeys([token] if token else []) | dict.fromkeys(a for a, _ in lines if a is not None)
    rows = [
        {"crawler": name, "directives": common + [d for aimed, found in lines if aimed == name for d in found]}
        for name in named
    ]
    return [*rows, {"crawler": None, "directives": common}]
