"""Everything the tester page shows, as JSON-ready data: one source for the server and the in-browser build.

`analyse` (structure, findings, verdicts, matrix), `generate_answer` (the
generator panel) and `selftest_answer` are what `POST /api/analyse`,
`POST /api/generate` and `GET /api/selftest` return, and what the static
build calls through Pyodide; `LIMITS` are the caps both apply, and the
page reads them rather than keeping a copy. Every text comes rendered in
the requested language with its message code and parameters beside it.
Pure: it only calls the core, so it runs in the browser too.
"""

from __future__ import annotations

from typing import Any

from ..access.engines.registry import DEFAULT, OPERATOR, PROFILED, choices, engine, resolve
from ..access.robots import Robots, parse
from ..messages import DEFAULT_LANG, Message, message
from ..messages import catalogue as texts
from ..syntax.crawlers import catalogue, recognise
from ..syntax.model import LineKind
from ..syntax.urls import InvalidURL, checked_url, is_checkable
from .compare.lines import differences
from .compare.matrix import matrix
from .generator import Spec, build, spec_allows
from .linter import lint
from .response import MAX_CHARS, judge
from .selftest import run_cases
from .views import origin_note, overflow_note, readings_view, split_note, verdict_view

MAX_LINE_READINGS = 200  # lines read differently sent to the page: a whole file read otherwise would be every line

# The caps of one analysis or spec, the same in every front end that takes input from a page.
LIMITS: dict[str, int] = {
    "max_body": 1024 * 1024,  # bytes of a request body: a robots.txt of up to 1 MiB, as JSON
    "max_urls": 100,  # URLs checked per analysis
    "max_paths": 20,  # matrix columns per analysis
    "max_field": 8192,  # characters of one agent, URL or path
    "max_response": MAX_CHARS,  # characters of a pasted response read (the rest is noted, not read)
    "max_blocks": 100,  # blocks of a generator spec
    "max_rules": 500,  # allow and disallow paths of a generator spec, all blocks together
    "max_sitemaps": 100,  # sitemap URLs of a generator spec
    "time_budget": 10,  # seconds of work one analyse, generate or selftest may take (then too-complex)
}

# The catalogue crawlers whose verdict on `/` every generated file is also checked for:
# the ones a site usually wants to keep (search and AI search).
KEPT_PURPOSES = ("search", "ai-search")


def page_strings(lang: str = DEFAULT_LANG) -> dict[str, str]:
    """The page's own labels (`page.*` messages) in `lang`, by key without the prefix."""
    return {code[5:]: text for code, text in texts(lang).items() if code.startswith("page.")}


def ignored_lines(robots: Robots) -> list[dict[str, Any]]:
    """Lines no crawler applies: not `key: value`, rules before any user-agent, past the size limit."""
    out: list[dict[str, Any]] = []
    for line in robots.lines:
        if line.kind is LineKind.INVALID:
            out.append({"line": line.number, "reason": "invalid", "raw": line.raw})
        elif line.kind in (LineKind.ALLOW, LineKind.DISALLOW) and line.group is None:
            out.append({"line": line.number, "reason": "outside-group", "raw": line.raw})
    out.extend({"line": line.number, "reason": "over-limit", "raw": line.raw} for line in robots.overflow)
    return out


def structure(robots: Robots) -> dict[str, Any]:
    """The parsed file without its per-line view, plus what the editor needs of each line."""
    data = robots.as_dict()
    del data["lines"], data["overflow"]
    data["line_count"] = len(robots.lines)
    data["overflow_line_count"] = robots.overflow_line_count
    data["kinds"] = [line.kind.value for line in robots.lines]
    data["ignored"] = ignored_lines(robots)
    return data


def analyse(
    text: str,
    agent: str,
    urls: list[str],
    paths: list[str],
    lang: str = DEFAULT_LANG,
    origin: str | None = None,
    engine: str = PROFILED,
    response: str = "",
) -> dict[str, Any]:
    """Everything the page shows for one file: structure, findings, verdicts, readings, the matrix,
    and what each engine's policy does with the pasted `response` that carried it (`reports.response`).

    A URL that is neither a path starting with `/` nor an http(s) URL gets
    an `invalid-url` entry with the reason instead of a verdict. `origin`
    (a robots.txt URL) flags URLs on other origins. `engine` is the reading
    the verdicts and the matrix follow (`operator`: each crawler's own);
    `readings` has every engine's verdict on each URL (`urls`) and the lines
    engines read differently (`lines`, the first `MAX_LINE_READINGS`).
    """
    robots = parse(text)
    verdicts: list[dict[str, Any]] = []
    side_by_side: list[dict[str, Any]] = []
    if agent.strip():
        chosen = resolve(engine, agent)
        for url in urls:
            try:
                checked_url(url)
            except InvalidURL as error:
                verdicts.append({"url": url, "reason": "invalid-url", "invalid": error.reason.as_dict(lang)})
                continue
            result = robots.answer(agent, url, chosen)
            notes = tuple(
                n
                for n in (
                    origin_note(url, origin),
                    overflow_note(robots, result, agent, url),
                    split_note(robots, agent, url, result.verdict, chosen),
                )
                if n is not None
            )
            view = verdict_view(result, lang, notes)
            # The readings are shown beside the default reading's usage preferences: this answer's,
            # when it is that reading.
            found = robots.readings(agent, url)
            usage = result.usage if chosen == PROFILED else robots.answer(agent, url).usage
            # The reading among them that gave the verdict shown: RFC 9309's, where no profile chose the groups.
            shown = DEFAULT if chosen == PROFILED and result.profile is None else chosen
            side_by_side.append(
                {
                    **readings_view(url, found, lang, usage),
                    "shown": shown if shown in found else None,
                    "shown_allowed": result.verdict.allowed,
                }
            )
            positions = (robots.lines[n - 1].group for n in result.verdict.group_lines if n <= len(robots.lines))
            groups = sorted({g for g in positions if g is not None})
            verdicts.append(
                {**view, "groups": groups, "agents": sorted({a for g in groups for a in robots.groups[g].agents})}
            )
    crawler = recognise(agent) if agent.strip() else None
    valid_paths = [p for p in paths if is_checkable(p)]
    rows = matrix(robots, catalogue(), valid_paths, engine) if valid_paths else []
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(row.crawler.purpose, []).append(row.as_dict(lang))
    return {
        "lang": lang,
        "structure": structure(robots),
        "findings": [f.as_dict(lang) for f in lint(robots)],
        "agent": {"input": agent, "crawler": None if crawler is None else crawler.as_dict()},
        "verdicts": verdicts,
        "engine": engine,
        "engines": engines_list(lang),
        "readings": {
            "urls": side_by_side,
            "lines": [found.as_dict() for found in differences(robots)[:MAX_LINE_READINGS]],
        },
        "matrix": {
            "paths": valid_paths,
            "invalid_paths": [p for p in paths if p not in valid_paths],
            "purposes": [{"purpose": p, "rows": r} for p, r in grouped.items()],
        },
        "response": judge(response, robots, agent, origin, lang),
    }


def engines_list(lang: str = DEFAULT_LANG) -> list[dict[str, Any]]:
    """Every reading the page may choose (the default first; `operator` aside), with its title and summary in `lang`."""
    return [engine(name).as_dict(lang) for name in choices(side_by_side=False) if name != OPERATOR]


def spec_limits(spec: Spec) -> Message | None:
    """Why a spec is over the caps of `LIMITS`, or None."""
    if len(spec.blocks) > LIMITS["max_blocks"]:
        return message("limit.blocks", limit=LIMITS["max_blocks"])
    if sum(len(b.allow) + len(b.disallow) for b in spec.blocks) > LIMITS["max_rules"]:
        return message("limit.rules", limit=LIMITS["max_rules"])
    if len(spec.sitemaps) > LIMITS["max_sitemaps"]:
        return message("limit.sitemaps", limit=LIMITS["max_sitemaps"])
    longest = max((len(v) for b in spec.blocks for v in (b.agent, b.comment, *b.allow, *b.disallow)), default=0)
    if max(longest, *(len(v) for v in spec.sitemaps), 0) > LIMITS["max_field"]:
        return message("limit.field", limit=LIMITS["max_field"])
    return None


def spec_data(spec: Spec) -> dict[str, Any]:
    return {
        "blocks": [
            {
                "agent": b.agent,
                "allow": list(b.allow),
                "disallow": list(b.disallow),
                "comment": b.comment,
                **({"content_usage": list(b.content_usage)} if b.content_usage else {}),
                **({"content_signal": b.content_signal} if b.content_signal else {}),
            }
            for b in spec.blocks
        ],
        "sitemaps": list(spec.sitemaps),
    }


def generate_answer(spec: Spec, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """Generate, parse back, verify and lint one spec; also check named agents and kept crawlers on `/`."""
    generated = build(spec)
    checks = [{"kind": "rule", **c._asdict(), "ok": c.ok} for c in generated.checks]
    seen = {(c.agent.lower(), c.url) for c in generated.checks}
    agents = [b.agent for b in spec.blocks if b.agent != "*"]
    agents += [c.token for c in catalogue() if c.purpose in KEPT_PURPOSES]
    for agent in agents:
        if (agent.lower(), "/") in seen:
            continue
        seen.add((agent.lower(), "/"))
        intended = spec_allows(spec, agent, "/")
        verdict = generated.robots.answer(agent, "/").verdict
        checks.append(
            {
                "kind": "crawler",
                "agent": agent,
                "url": "/",
                "intended": intended,
                "allowed": verdict.allowed,
                "line": verdict.line,
                "ok": intended == verdict.allowed,
            }
        )
    return {
        "text": generated.text,
        "warnings": [w.as_dict(lang) for w in generated.warnings],
        "verified": all(c["ok"] for c in checks),
        "checks": checks,
        "findings": [f.as_dict(lang) for f in generated.findings],
        "spec": spec_data(spec),
    }


def selftest_answer(lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The bundled RFC 9309 reference cases run through this engine, each with its description in `lang`."""
    results = run_cases()
    cases = [r.as_dict(lang) for r in results]
    passed = sum(1 for r in results if r.passed)
    return {"total": len(cases), "passed": passed, "failed": len(cases) - passed, "cases": cases}
