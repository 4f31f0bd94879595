"""Real User-Agent strings of agents a server rule must not refuse by accident. Pure data.

Browsers, tools and libraries, and crawlers robotscope's catalogue has no
entry for, each as it sends itself (the two strings of Visual Studio Code's
GitLab Workflow extension as reported in ai.robots.txt issue #233). A name chosen for refusal is checked
against them and against the catalogue's own User-Agent strings
(`agents.collateral`): `Code` refuses Visual Studio Code, `Scrapy` every
crawler built with Scrapy that keeps its default, `Mozilla` every browser.
`token` is the crawler an entry is (None for a browser, a tool or a
library's default): refusing that very crawler hits nothing innocent.
"""

from __future__ import annotations

from typing import NamedTuple


class Agent(NamedTuple):
    """One real agent: what it is, the crawler it is (None: no crawler of its own), the User-Agent it sends."""

    name: str
    token: str | None
    user_agent: str


AGENTS = (
    Agent(
        "Chrome on Windows",
        None,
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
        "Safari/537.36",
    ),
    Agent(
        "Edge on Windows",
        None,
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
        "Safari/537.36 Edg/131.0.0.0",
    ),
    Agent("Firefox on Linux", None, "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"),
    Agent(
        "Safari on iPhone",
        None,
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        "Version/17.5 Mobile/15E148 Safari/604.1",
    ),
    Agent(
        "Samsung Internet on Android",
        None,
        "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 "
        "Chrome/121.0.0.0 Mobile Safari/537.36",
    ),
    Agent(
        "Internet Explorer 8 on Windows 7",
        None,
        "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727; "
        ".NET CLR 3.5.30729; .NET CLR 3.0.30729; Media Center PC 6.0)",
    ),
    Agent(
        "Visual Studio Code",
        None,
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Code/1.90.0 Chrome/122.0.6261.156 "
        "Electron/29.4.0 Safari/537.36",
    ),
    Agent(
        "Visual Studio Code's GitLab Workflow extension",
        None,
        "vs-code-gitlab-workflow/6.81.0 VSCode/1.123.0 Node.js/24.15.0 (linux; x64)",
    ),
    Agent(
        "Git for Windows run by Visual Studio Code",
        None,
        "git/2.54.0.windows.1 (Windows 11 Pro 10.0.26200; win32 arm64) vscode/1.123.0 (Visual Studio Code)",
    ),
    Agent("curl", None, "curl/8.5.0"),
    Agent("Wget", None, "Wget/1.21.4"),
    Agent("Python requests", None, "python-requests/2.32.3"),
    Agent("Go's net/http", None, "Go-http-client/1.1"),
    Agent("OkHttp", None, "okhttp/4.12.0"),
    Agent("Scrapy's default", None, "Scrapy/2.11.2 (+https://scrapy.org)"),
    Agent(
        "Baiduspider",
        "Baiduspider",
        "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
    ),
    Agent("Mastodon", None, "http.rb/5.1.1 (Mastodon/4.2.10; +https://mastodon.social/)"),
    Agent(
        "Slack link previews", "Slackbot-LinkExpanding", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
    ),
    Agent("Discord link previews", "Discordbot", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"),
    Agent("Majestic", "MJ12bot", "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)"),
    Agent("Semrush", "SemrushBot", "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)"),
)

# Made up, as ai.robots.txt's own tests make them: a name that is no listed crawler but differs from one only
# across a character `\b` takes for a word boundary (`-` belongs to a product token). `export --check` sends it.
BOUNDARY = (Agent("Not-Cursor (made up: `-` belongs to the token)", None, "Not-Cursor/1.0"),)
