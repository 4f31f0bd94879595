"""The proof that `export --check` reads a configuration as its server does: the real server answers alike.

For each ai.robots.txt-style configuration (`aistyle.py`), for robotscope's
own export, and for a configuration of other constructs per server
(`VARIETY`: nginx locations, `return 444` and `deny all`; Apache sections,
`Require` and mod_rewrite; Caddy's `header` wildcards, `path`, `handle` and
`error`; HAProxy's comma-split `hdr()`, `allow`, variables and `return`;
lighttpd's `else` chains and suffixes), the server from Debian is started
on 127.0.0.1 with it and sent every request the check sends (each
User-Agent on each path); every answer, refused (403, or the connection
closed) or not, is asserted to be the one `configs.read_config` decides.
"""

from __future__ import annotations

import http.client
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from robotscope import parse
from robotscope.reports.enforce import choose, plan, render
from robotscope.reports.enforce.check import probe_paths, probes
from robotscope.reports.enforce.configs import Request, read_config
from tests.conftest import Server, respond
from tests.reports.enforce import aistyle
from tests.reports.enforce.servers import site, start, stop

pytestmark = pytest.mark.slow  # real servers

ROBOTS = (
    aistyle.ROBOTS
    + "\nUser-agent: PerplexityBot\nDisallow: /private/\nAllow: /private/open/\nDisallow: /static/*.pdf\n"
    + "\nUser-agent: *\nDisallow: /*.pdf\n"
)
VARIETY = {
    "nginx": (
        "location = /robots.txt { }\n"
        "location ^~ /static/ { }\n"
        "location ~* \\.pdf$ {\n    if ($http_user_agent ~* 'gptbot|claudebot') { return 403; }\n}\n"
        "location / {\n    if ($http_user_agent ~ Bytespider) { return 444; }\n"
        "    set $who $http_user_agent;\n    if ($who ~* '(^|[^a-z])ccbot') { return 403; }\n}\n"
        "location /private/ { deny all; }\n"
    ),
    "apache": (
        'SetEnvIfNoCase User-Agent "(gptbot|claudebot)" bad\n'
        'BrowserMatch "compatible; PerplexityBot" bad\n'
        '<Location "/">\n    <RequireAll>\n        Require all granted\n        Require not env bad\n'
        "    </RequireAll>\n</Location>\n"
        '<LocationMatch "^/robots\\.txt$">\n    Require all granted\n</LocationMatch>\n'
        "RewriteEngine On\nRewriteCond %{HTTP_USER_AGENT} Bytespider [OR]\nRewriteCond %{HTTP_USER_AGENT} CCBot\n"
        "RewriteRule ^/private/ - [F]\n"
    ),
    "caddy": (
        "@bots {\n    header User-Agent *GPTBot*\n    header User-Agent *ClaudeBot*\n    not path /robots.txt\n}\n"
        "@pdf {\n    path *.pdf\n    header_regexp ua User-Agent (?i)perplexity\n}\n"
        "handle /static/* {\n    error @pdf 403\n    file_server\n}\n"
        "abort @bots\nrespond @pdf 403\n"
    ),
    "haproxy": (
        "acl ua_gpt req.hdr(user-agent) -m sub -i gptbot\n"
        "acl ua_like hdr(user-agent) -m beg like\n"
        "acl robots path /robots.txt\nacl private path_beg /private/\nacl open path_beg /private/open/\n"
        "http-request allow if robots\n"
        "http-request set-var(txn.bot) str(yes) if { hdr_reg(user-agent) -i (claudebot|ccbot) }\n"
        "http-request deny deny_status 403 if { var(txn.bot) -m str yes } private !open\n"
        "http-request deny if ua_gpt || ua_like\n"
        "http-request return status 403 if METH_GET { hdr_sub(user-agent) Bytespider }\n"
    ),
    "lighttpd": (
        '$HTTP["url"] =^ "/robots.txt" { }\n'
        'else $HTTP["useragent"] =~ "(?i)gptbot" { url.access-deny = ("") }\n'
        'else $HTTP["url"] =~ "^/private/" {\n'
        '    $HTTP["user-agent"] =~ "ClaudeBot|CCBot" { url.access-deny = ("") }\n}\n'
        '$HTTP["user-agent"] =~ "Bytespider" { url.access-deny = (".pdf", "/") }\n'
    ),
}
# The file each server's wrapper (servers.py) reads the configuration from.
WRAPPED = {
    "nginx": "robotscope.conf",
    "apache": "robotscope.conf",
    "caddy": "robotscope.caddy",
    "haproxy": "robotscope.cfg",
    "lighttpd": "robotscope.conf",
}


def refused(port: int, user_agent: str, path: str) -> bool:
    """Whether the server refuses the request: 403, or the connection closed without an answer (Caddy's abort)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1", "User-Agent": user_agent, "Connection": "close"})
        answer = connection.getresponse()
        answer.read()
    except (ConnectionError, http.client.RemoteDisconnected):
        return True
    finally:
        connection.close()
    assert answer.status in (200, 403, 404), (user_agent, path, answer.status)
    return answer.status == 403


def _aistyle(target: str, folder: Path) -> tuple[str, str, bool]:
    """(the configuration's text, the name it is read under, whether the server includes it as a snippet), its
    other files written into `folder`."""
    if target == "haproxy":
        fragment, listed = aistyle.haproxy(folder / "haproxy-block-ai-bots.txt")
        (folder / "haproxy-block-ai-bots.txt").write_text(listed, encoding="utf-8")
        return fragment, "haproxy.cfg", False
    if target == "apache":
        return aistyle.htaccess(), ".htaccess", True
    if target == "nginx":
        return aistyle.nginx(), "ai.conf", True
    return (aistyle.caddy() if target == "caddy" else aistyle.lighttpd()), "ai.conf", False


def _variety(target: str, folder: Path) -> tuple[str, str, bool]:
    return VARIETY[target], "variety.conf", target == "nginx"


def _exported(target: str, folder: Path) -> tuple[str, str, bool]:
    robots = parse(ROBOTS)
    result = render(plan(robots, choose(robots, "all-named")), target, "robots.txt", "en", str(folder))
    for name, text in result.files[1:]:
        (folder / name).write_text(text, encoding="utf-8")
    return result.files[0][1], result.files[0][0], False


@pytest.mark.parametrize(
    "layout", [_aistyle, _exported, _variety], ids=["ai.robots.txt-style", "robotscope's export", "variety"]
)
@pytest.mark.parametrize("target", ["nginx", "apache", "caddy", "haproxy", "lighttpd"])
def test_the_server_refuses_exactly_what_the_check_reads(
    target: str, layout: Callable[[str, Path], tuple[str, str, bool]], tmp_path: Path
) -> None:
    text, name, snippet = layout(target, tmp_path)
    (tmp_path / WRAPPED[target]).write_text(text, encoding="utf-8")
    robots = parse(ROBOTS)
    config = read_config(target, text, name, lambda path: Path(path).read_text(encoding="utf-8"))
    assert config.unreadable == ()
    paths, _ = probe_paths(robots)
    agents = sorted({probe.user_agent for probe in probes(robots, "all-named")})
    backend = Server()
    for path in paths:
        backend.routes[path] = lambda handler: respond(handler, 200, b"ok\n")
    root = site(paths)
    try:
        running = start(target, tmp_path, root, backend.port, snippet)
        try:
            decided = {
                (agent, path): config.scopes[0].decide(Request(agent, path)).refused
                for agent in agents
                for path in paths
            }
            wrong = [(*asked, said) for asked, said in decided.items() if said != refused(running.port, *asked)]
        finally:
            stop(running.process)
    finally:
        backend.close()
        shutil.rmtree(root)
    assert wrong == [], f"{len(wrong)} of {len(agents) * len(paths)} answers read otherwise, first: {wrong[:5]}"
    assert len(decided) > 200 and 10 < sum(decided.values()) < len(decided) - 10
