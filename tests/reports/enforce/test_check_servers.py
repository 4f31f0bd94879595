"""The proof that `export --check` reads a configuration as its server does: the real server answers alike.

For each ai.robots.txt-style configuration (`aistyle.py`) and for
robotscope's own export, the server from Debian is started on 127.0.0.1 with
it and sent every request the check sends (each User-Agent on each path);
every answer, refused (403, or the connection closed) or not, is asserted
to be the one `configs.read_config` decides.
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

ROBOTS = aistyle.ROBOTS + "\nUser-agent: PerplexityBot\nDisallow: /private/\nAllow: /private/open/\n"
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


def _exported(target: str, folder: Path) -> tuple[str, str, bool]:
    robots = parse(ROBOTS)
    result = render(plan(robots, choose(robots, "all-named")), target, "robots.txt", "en", str(folder))
    for name, text in result.files[1:]:
        (folder / name).write_text(text, encoding="utf-8")
    return result.files[0][1], result.files[0][0], False


@pytest.mark.parametrize("layout", [_aistyle, _exported], ids=["ai.robots.txt-style", "robotscope's export"])
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
