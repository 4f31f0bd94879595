"""The JSON API as pure functions: what each endpoint checks of a request and answers.

One home for both back ends of the tester page: `robotscope serve` (the
Starlette app in `robotscope.web`, which adds reading bodies, worker
processes, time budgets and fetching) and the static build (`robotscope
build-site`), which calls `call` in Pyodide. A request is the decoded JSON
object (or the query's parameters); a bad one raises `RequestError` with the
status, code and message the API document gives. Imports only the core.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .._version import __version__
from ..access.build import build_kind
from ..access.engines.registry import PROFILED as DEFAULT_ENGINE
from ..access.engines.registry import choices
from ..access.policy import POLICIES
from ..access.robots import parse
from ..messages import DEFAULT_LANG, LANGS, language, message
from ..syntax.crawlers import PURPOSES, catalogue
from ..syntax.urls import InvalidURL, robots_url
from .analysis import (
    LIMITS,
    analyse,
    engines_list,
    generate_answer,
    page_strings,
    selftest_answer,
    spec_limits,
)
from .enforce import AI, ALL_NAMED, TARGETS, export, export_view, token_problem
from .generator import DEFAULT_SPEC, PRESETS, InvalidSpec, Spec, preset

MAX_FIELD = LIMITS["max_field"]
EXPORT_ACL_DIR = "/etc/haproxy/robotscope"  # where the page's HAProxy fragment names its ACL files


class RequestError(Exception):
    """A request the API refuses: answered as {"error": {"code", "message", ...extra}} with `status`."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra

    def as_dict(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def lang_of(value: object) -> str:
    """The language a request asks for (`lang`: en or ko); anything else is the default."""
    return language(value) if isinstance(value, str) else DEFAULT_LANG


def string_field(data: Mapping[str, Any], key: str, default: str = "", limit: int = MAX_FIELD) -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise RequestError(422, "bad-field", f"`{key}` must be a string")
    if len(value) > limit:
        raise RequestError(422, "bad-field", f"`{key}` is longer than {limit} characters")
    return value


def strings_field(data: Mapping[str, Any], key: str, limit: int) -> list[str]:
    value = data.get(key) or []
    if isinstance(value, str):
        value = value.splitlines()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RequestError(422, "bad-field", f"`{key}` must be a list of strings")
    items = [v.strip() for v in value if v.strip()]
    if len(items) > limit:
        raise RequestError(422, "bad-field", f"`{key}` holds more than {limit} entries")
    if any(len(v) > MAX_FIELD for v in items):
        raise RequestError(422, "bad-field", f"an entry of `{key}` is longer than {MAX_FIELD} characters")
    return items


def analyse_args(data: Mapping[str, Any]) -> tuple[str, str, list[str], list[str], str, str | None, str, str]:
    """The arguments of `analysis.analyse` for a `POST /api/analyse` body.

    `origin` (optional) is where the file came from, a site or its
    robots.txt URL: URLs on other origins are then noted, as `check --origin` does.
    `response` (optional) is the status line and headers that carried the file, as pasted.
    """
    text = string_field(data, "text", limit=LIMITS["max_body"])
    agent = string_field(data, "agent")
    urls = strings_field(data, "urls", LIMITS["max_urls"])
    paths = strings_field(data, "paths", LIMITS["max_paths"])
    engine = string_field(data, "engine", DEFAULT_ENGINE)
    if engine not in choices(side_by_side=False):
        raise RequestError(422, "bad-field", f"`engine` must be one of {', '.join(choices(side_by_side=False))}")
    origin = string_field(data, "origin").strip() or None
    if origin is not None:
        try:
            origin = robots_url(origin if "://" in origin else "https://" + origin)
        except InvalidURL as error:
            raise RequestError(422, "bad-field", f"`origin` is no site: {error}") from None
    response = string_field(data, "response", limit=LIMITS["max_body"])
    return text, agent, urls, paths, lang_of(data.get("lang")), origin, engine, response


def generate_args(data: Mapping[str, Any]) -> tuple[Spec, str]:
    """The spec and language of a `POST /api/generate` body (`preset` or `spec`)."""
    name = string_field(data, "preset")
    agent = string_field(data, "agent").strip()
    lang = lang_of(data.get("lang"))
    raw = data.get("spec")
    if raw is not None and name:
        raise RequestError(422, "bad-field", "give either `preset` or `spec`, not both")
    try:
        if raw is not None:
            if not isinstance(raw, dict):
                raise RequestError(422, "bad-spec", '`spec` must be an object: {"blocks": [...], "sitemaps": [...]}')
            spec = Spec.from_data(raw)
        else:
            spec = preset(name, agent or None) if name else DEFAULT_SPEC
    except InvalidSpec as error:
        raise RequestError(422, "bad-spec", error.reason.render(lang), key=error.key, block=error.block) from None
    over = spec_limits(spec)
    if over is not None:
        raise RequestError(422, "bad-spec", over.render(lang))
    return spec, lang


def export_args(data: Mapping[str, Any]) -> tuple[str, str, str, str]:
    """The robots.txt, target, crawlers and language of a `POST /api/export` body; a name that is no product
    token is refused here (422 `bad-field`, with the reason), before any work."""
    text = string_field(data, "text", limit=LIMITS["max_body"])
    target = string_field(data, "target", TARGETS[0])
    if target not in TARGETS:
        raise RequestError(422, "bad-field", f"`target` must be one of {', '.join(TARGETS)}")
    agents = string_field(data, "agents", AI).strip() or AI
    lang = lang_of(data.get("lang"))
    if agents not in (AI, ALL_NAMED):
        for token in agents.split(","):
            problem = token_problem(token.strip())
            if problem is not None:
                reason = message("enforce.not-a-token", value=token.strip(), reason=problem)
                raise RequestError(422, "bad-field", reason.render(lang), value=token.strip())
    return text, target, agents, lang


def export_answer(text: str, target: str, agents: str, lang: str) -> dict[str, Any]:
    """`POST /api/export`: the server rules the robots.txt implies for `target`, as `export --json` shows them."""
    made, result = export(parse(text), target, agents, source="robots.txt", lang=lang, acl_dir=EXPORT_ACL_DIR)
    return export_view(made, result, lang)


def crawlers_answer() -> dict[str, Any]:
    """`GET /api/crawlers`."""
    return {"purposes": list(PURPOSES), "crawlers": [c.as_dict() for c in catalogue()]}


def policies_answer(lang: str) -> dict[str, Any]:
    """`GET /api/policies`."""
    return {"policies": [p.as_dict(lang) for p in POLICIES.values()]}


def info_answer(lang: str, fetch: bool, guarded_fetch: bool, build: str, history: bool = False) -> dict[str, Any]:
    """`GET /api/info`: `fetch` says the page can fetch a live robots.txt (not in the static build),
    `history` that it can show a history store (`robotscope serve --store`; never in the static build).

    `build` is the running build's kind (`access.build.build_kind`: "compiled" or "pure").
    """
    return {
        "version": __version__,
        "build": build,
        "guarded_fetch": guarded_fetch,
        "fetch": fetch,
        "history": history,
        "languages": list(LANGS),
        "presets": list(PRESETS),
        "export_targets": list(TARGETS),
        "engines": engines_list(lang),
        **LIMITS,
    }


def strings_answer(lang: str) -> dict[str, Any]:
    """`GET /api/strings`."""
    return {"lang": lang, "strings": page_strings(lang)}


def call(endpoint: str, request: str) -> str:
    """One API call of the static build, JSON in and out: what the server would answer, with its status.

    `endpoint` is the path after `/api/` (`analyse`, `generate`, `export`, `selftest`,
    `crawlers`, `policies`, `info`, `strings`); `request` is the body, or for
    a GET the query's parameters, as a JSON object. The answer is
    {"status": 200, "body": ...} or {"status": N, "body": {"error": ...}}.
    Fetching is not available here: nothing leaves the page.
    """
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise RequestError(400, "bad-json", "the request body must be a JSON object")
        body = _answer(endpoint, data)
    except RequestError as error:
        return json.dumps({"status": error.status, "body": error.as_dict()})
    except (ValueError, RecursionError):
        return json.dumps(
            {"status": 400, "body": RequestError(400, "bad-json", "the request body is not valid JSON").as_dict()}
        )
    return json.dumps({"status": 200, "body": body})


def _answer(endpoint: str, data: dict[str, Any]) -> dict[str, Any]:
    lang = lang_of(data.get("lang"))
    if endpoint == "analyse":
        return analyse(*analyse_args(data))
    if endpoint == "generate":
        return generate_answer(*generate_args(data))
    if endpoint == "export":
        return export_answer(*export_args(data))
    if endpoint == "selftest":
        return selftest_answer(lang)
    if endpoint == "crawlers":
        return crawlers_answer()
    if endpoint == "policies":
        return policies_answer(lang)
    if endpoint == "info":
        return info_answer(lang, fetch=False, guarded_fetch=False, build=build_kind())
    if endpoint == "strings":
        return strings_answer(lang)
    raise RequestError(404, "not-found", f"no API endpoint /api/{endpoint}")
