"""The JSON Schemas (draft 2020-12) of every tool's input and output: the contract clients read from tools/list.

Inputs are closed (`additionalProperties: false`) and bounded: a URL or
user agent of at most `MAX_FIELD` characters, a robots.txt text of at most
`MAX_TEXT`, at most `MAX_ITEMS` URLs or agents, all in a message of at
most `MAX_MESSAGE` bytes (either transport refuses a longer one unread).
The server checks every call against its input schema before a tool runs;
the outputs are the views of `reports.gate` and `reports.tool_views`, and a
test checks each answer against its schema, as the SDK's client does on
every call.
"""

from __future__ import annotations

from typing import Any

from ..access.engines.registry import PROFILED, choices
from ..access.scope import INITIATORS
from ..messages import LANGS
from ..reports.gate import MAX_FIELD
from ..syntax.crawlers import PURPOSES

Schema = dict[str, Any]

MAX_TEXT = 1024 * 1024  # characters of a robots.txt given as text: twice what crawlers read of a file
MAX_ITEMS = 100  # URLs or agents one diff compares (the web API's cap on URLs)
# Bytes of one JSON-RPC message, over stdio (a line) and streamable HTTP (a request body): room for the two
# texts of a diff_robots call at MAX_TEXT (ASCII; non-ASCII text takes up to 3 bytes a character).
MAX_MESSAGE = 4 * 1024 * 1024

STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
BOOLEAN: Schema = {"type": "boolean"}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def closed(properties: dict[str, Schema], required: tuple[str, ...] | None = None) -> Schema:
    """An object with exactly these properties, all required unless `required` names some."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else list(required),
        "additionalProperties": False,
    }


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


# --- Inputs -----------------------------------------------------------------------------------

URL: Schema = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_FIELD,
    "description": "An absolute http(s) URL.",
}
USER_AGENT: Schema = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_FIELD,
    "description": "The agent's product token (ChatGPT-User) or its full User-Agent string.",
}
LANG: Schema = {"type": "string", "enum": list(LANGS), "description": "Language of the texts (default: the server's)."}
ROBOTS_TXT: Schema = {"type": "string", "maxLength": MAX_TEXT, "description": "The text of a robots.txt file."}


def _input(properties: dict[str, Schema], required: tuple[str, ...]) -> Schema:
    return closed({**properties, "lang": LANG}, required)


MAY_FETCH_INPUT = _input(
    {
        "url": {**URL, "description": "The URL the agent wants to fetch (absolute http or https)."},
        "user_agent": USER_AGENT,
        "initiated_by": {
            "type": "string",
            "enum": list(INITIATORS),
            "default": "model",
            "description": "Who started the fetch: the model on its own (`model`) or a user who asked for the URL.",
        },
    },
    ("url", "user_agent"),
)
EXPLAIN_INPUT = _input(
    {
        "url": {**URL, "description": "The URL to explain: absolute, or a path when robots_txt is given."},
        "user_agent": USER_AGENT,
        "robots_txt": {**ROBOTS_TXT, "description": "Explain against this text instead of fetching the site's."},
        "engine": {
            "type": "string",
            "enum": choices(side_by_side=False),
            "default": PROFILED,
            "description": "The reading: RFC 9309 with the crawlers' documented profiles (default), one engine, "
            "or `operator` (the crawler's own operator's).",
        },
    },
    ("url", "user_agent"),
)
LINT_INPUT = _input(
    {
        "robots_txt": {**ROBOTS_TXT, "description": "The file to lint (give this or url)."},
        "url": {**URL, "description": "A URL of the site whose robots.txt to fetch and lint (or give robots_txt)."},
    },
    (),
)
DIFF_INPUT = _input(
    {
        "old_robots_txt": {**ROBOTS_TXT, "description": "The file as it is."},
        "new_robots_txt": {**ROBOTS_TXT, "description": "The file as it would be."},
        "urls": {
            **array({**URL, "description": "A path starting with / or an absolute http(s) URL."}),
            "maxItems": MAX_ITEMS,
            "description": "URLs to compare (default: those the files' rules cover).",
        },
        "agents": {
            **array(USER_AGENT),
            "maxItems": MAX_ITEMS,
            "description": "Crawlers to compare (default: every crawler either file names, and * for the others).",
        },
    },
    ("old_robots_txt", "new_robots_txt"),
)
VERIFY_INPUT = _input(
    {
        "address": {"type": "string", "minLength": 1, "maxLength": 64, "description": "The IPv4 or IPv6 address."},
        "user_agent": {**USER_AGENT, "description": "The User-Agent the request claimed."},
    },
    ("address", "user_agent"),
)

# --- Outputs ----------------------------------------------------------------------------------

MESSAGE = closed({"code": STRING, "params": {"type": "object"}, "text": STRING})
REASON: Schema = {
    "type": "string",
    "enum": [
        "rule",
        "no-matching-rule",
        "no-group",
        "robots-txt",
        "robots-txt-unavailable",
        "robots-txt-unreachable",
    ],
}
RULE = closed({"kind": STRING, "pattern": STRING, "line": INTEGER, "normalised": STRING, "length": INTEGER})
PREFERENCES: Schema = {
    "type": "object",
    "additionalProperties": closed({"value": STRING, "lines": array(INTEGER)}),
}
USAGE = closed({"applies": BOOLEAN, "content_usage": PREFERENCES, "content_signal": PREFERENCES})
VERDICT = closed(
    {
        "allowed": BOOLEAN,
        "rule": nullable(RULE),
        "line": nullable(INTEGER),
        "reason": REASON,
        "agent_token": STRING,
        "group_lines": array(INTEGER),
        "candidates": array(RULE),
        "url": STRING,
        "target": STRING,
        "usage": nullable(USAGE),
        "engine": STRING,
        "explanation": MESSAGE,
        "notes": array(MESSAGE),
        "rfc": closed({"allowed": BOOLEAN, "line": nullable(INTEGER), "reason": REASON}),
        "profile": nullable(MESSAGE),
        "usage_text": nullable(STRING),
    }
)
POLICY = closed(
    {"name": STRING, "action": {"enum": ["parse", "allow-all", "disallow-all", "cached-copy"]}, "explanation": MESSAGE}
)
ROBOTS_FETCH = closed(
    {
        "url": STRING,
        "status": nullable(INTEGER),
        "fetched_at": nullable({**STRING, "description": "UTC, ISO 8601"}),
        "from_cache": BOOLEAN,
        "sha256": nullable({"type": "string", "pattern": "^[0-9a-f]{64}$"}),
        "hops": array(closed({"url": STRING, "status": INTEGER})),
        "error": nullable(closed({"kind": STRING, "message": STRING})),
    }
)
SCOPE = closed(
    {
        "initiated_by": {"enum": list(INITIATORS)},
        "robots_txt_applies": {"enum": ["yes", "no", "partial", "unknown"]},
        "crawler": nullable(STRING),
        "operator": nullable(STRING),
        "source": nullable(STRING),
        "explanation": MESSAGE,
    }
)
MAY_FETCH_OUTPUT = closed(
    {
        "url": STRING,
        "user_agent": STRING,
        "allowed": BOOLEAN,
        "reason": {"enum": [*REASON["enum"], "refused-target"]},
        "line": nullable(INTEGER),
        "rule": nullable(STRING),
        "explanation": MESSAGE,
        "reading": nullable(STRING),
        "robots_txt": ROBOTS_FETCH,
        "policy": nullable(POLICY),
        "usage": nullable(USAGE),
        "usage_text": nullable(STRING),
        "licenses": array(closed({"url": STRING, "line": INTEGER})),
        "operator_scope": SCOPE,
        "verdict": nullable(VERDICT),
    }
)
READING = closed(
    {
        "allowed": BOOLEAN,
        "line": nullable(INTEGER),
        "reason": REASON,
        "rule": nullable(STRING),
        "agent_token": STRING,
        "explanation": MESSAGE,
    }
)
CRAWLER = closed(
    {
        "token": STRING,
        "name": STRING,
        "operator": STRING,
        "purpose": {"enum": list(PURPOSES)},
        "obeys_robots": STRING,
        "fallback": nullable(STRING),
        "ignores_global": BOOLEAN,
        "user_agent": STRING,
        "confidence": STRING,
        "source": STRING,
        "notes": STRING,
    }
)
EXPLAIN_OUTPUT = closed(
    {
        "url": STRING,
        "user_agent": STRING,
        "engine": STRING,
        "robots_txt": nullable(ROBOTS_FETCH),
        "policy": nullable(POLICY),
        "verdict": VERDICT,
        "readings": closed(
            {
                "url": STRING,
                "usage_text": nullable(STRING),
                "split": BOOLEAN,
                "readings": {"type": "object", "additionalProperties": READING},
            }
        ),
        "crawler": nullable(CRAWLER),
    }
)
FINDING = closed(
    {
        "code": STRING,
        "severity": {"enum": ["error", "warning", "info"]},
        "line": nullable(INTEGER),
        "message": MESSAGE,
        "fix": MESSAGE,
        "lines": array(INTEGER),
        "edit": nullable({"type": "object"}),
    }
)
LINT_OUTPUT = closed(
    {
        "robots_txt": nullable(ROBOTS_FETCH),
        "policy": nullable(POLICY),
        "linted": BOOLEAN,
        "findings": array(FINDING),
        "counts": closed({"error": INTEGER, "warning": INTEGER, "info": INTEGER}),
    }
)
DIFF_OUTPUT = closed(
    {
        "urls": INTEGER,
        "agents": array(STRING),
        "flips": array(
            closed(
                {
                    "agent": STRING,
                    "url": STRING,
                    "engine": STRING,
                    "old": {"type": "object", "required": ["allowed", "line", "reason"]},
                    "new": {"type": "object", "required": ["allowed", "line", "reason"]},
                }
            )
        ),
        "truncated": BOOLEAN,
        "summary": MESSAGE,
    }
)
VERIFY_OUTPUT = closed(
    {
        "address": STRING,
        "agent": STRING,
        "token": nullable(STRING),
        "operator": nullable(STRING),
        "status": STRING,
        "method": nullable(STRING),
        "reason": STRING,
        "message": MESSAGE,
        "covering": array(closed({"list": STRING, "creation_time": nullable(STRING)})),
        "signature": nullable({"type": "object"}),
    }
)
