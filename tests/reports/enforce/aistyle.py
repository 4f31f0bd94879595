"""Server configurations in the shapes ai.robots.txt publishes, written for the tests from the shapes alone.

The shapes are those the project's research notes record of ai.robots.txt's
generated files (`/work/shared/research/server-rules.md`, section 3A): each
name escaped for a regex (`-` and `/` left bare), joined with `|` and
wrapped in `\\b(...)\\b` (`boundary=False`: the form before its word
boundaries, which #208 was about); `.htaccess` with `RewriteCond ... [NC]`
and a `RewriteRule` that spares `/robots.txt`; nginx with `~` (case-sensitive)
and an exemption of the exact URI; a Caddy matcher (with the `abort` its
README asks for, or without, as published); HAProxy's plain list read with
`hdr_sub(user-agent) -i -f`; lighttpd with or without the
`$HTTP["url"] != "/robots.txt"` wrapper. No file of that project is copied.
"""

from __future__ import annotations

import re
from pathlib import Path

# Names of the kinds the list has: crawlers, generic words (Spider, LCC, Code, Cursor), a control token,
# names that are no product token (a space, a version), and one in lower case.
NAMES = (
    "GPTBot",
    "ClaudeBot",
    "Bytespider",
    "CCBot",
    "PerplexityBot",
    "ChatGPT-User",
    "Google-Extended",
    "meta-externalagent",
    "Spider",
    "LCC",
    "Code",
    "Cursor",
    "Kangaroo Bot",
    "iaskspider/2.0",
)
# The robots.txt such a list comes with: every name, then one `Disallow: /` (names that are no product token left
# out: robots.txt cannot name them).
ROBOTS = "".join(f"User-agent: {name}\n" for name in NAMES if re.fullmatch(r"[A-Za-z_-]+", name)) + "Disallow: /\n"


def pattern(names: tuple[str, ...] = NAMES, boundary: bool = True) -> str:
    alternatives = "|".join(re.escape(name).replace("\\-", "-") for name in names)
    return rf"\b({alternatives})\b" if boundary else f"({alternatives})"


def htaccess(boundary: bool = True) -> str:
    return (
        "RewriteEngine On\n"
        f"RewriteCond %{{HTTP_USER_AGENT}} ({pattern(boundary=boundary)}) [NC]\n"
        "RewriteRule !^/?robots\\.txt$ - [F]\n"
    )


def nginx() -> str:
    quoted = pattern().replace("\\", "\\\\")  # nginx reads `\\` in a quoted word as one backslash
    return (
        "set $block 0;\n\n"
        f"if ($http_user_agent ~ '{quoted}') {{\n    set $block 1;\n}}\n\n"
        "if ($request_uri = '/robots.txt') {\n    set $block 0;\n}\n\n"
        "if ($block) {\n    return 403;\n}\n"
    )


def caddy(abort: bool = True) -> str:
    matcher = f'@aibots {{\n    header_regexp User-Agent "{pattern()}"\n}}\n'
    return matcher + ("abort @aibots\n" if abort else "")


def haproxy(list_file: Path) -> tuple[str, str]:
    """The frontend lines, and the list file's text (to be written at `list_file`)."""
    fragment = f"acl ai_robot hdr_sub(user-agent) -i -f {list_file}\nhttp-request deny if ai_robot\n"
    return fragment, "".join(f"{name}\n" for name in NAMES)


def lighttpd(wrapper: bool = True) -> str:
    inner = f'$HTTP["user-agent"] =~ "{pattern()}" {{ url.access-deny = ( "" ) }}'
    return f'$HTTP["url"] != "/robots.txt" {{ {inner} }}\n' if wrapper else inner + "\n"
