"""`changes(before, after)`: what a new version of a site's robots.txt does, as ranked alerts;
`variants(observations)`: what serving crawlers different files does.

`before` is best the last version whose rules applied (the watch command
keeps it): verdict flips are not computed across an outage (the failure's
own alert says what crawlers do then), and a version read after one is
compared with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...messages import message
from ...syntax import crawlers
from .alerts import Alert, Severity, ranked
from .content import no_effect, preference_alerts, sitemap_alerts
from .flips import ROOT, crawlers_asked, flip_alerts
from .observation import RULES_POLICY, Observation, Reading, read
from .served import edge_alerts, fetch_alerts, page_alerts, size_alerts


def changes(
    before: Observation | None,
    after: Observation,
    urls: Sequence[str] = (),
    agents: Sequence[str] | None = None,
) -> list[Alert]:
    """What changed from `before` to `after`, ranked by effect (`alerts.ranked`); never raises on any bytes.

    `urls` are asked besides `/` and those the files' rules give; `agents`
    (`*` among them for every crawler no group names) replace the crawlers
    asked: by default every crawler either file names, each operator's main
    one, the catalogue's AI crawlers, and `*`.
    `before` None: the first version ever, summarised (`firstSeen`).
    """
    now = read(after)
    then = None if before is None else read(before)
    found = [*fetch_alerts(then, now), *page_alerts(then, now), *size_alerts(then, now), *edge_alerts(then, now)]
    if then is None:
        return ranked([*found, first_seen(now, agents)])
    if then.reachable and now.reachable:
        found.extend(flip_alerts(then, now, urls, agents))
    if then.rules_apply and now.rules_apply:
        found.extend([*sitemap_alerts(then, now), *preference_alerts(then, now, urls, agents)])
        if not found and then.seen.body != now.seen.body:
            found.append(no_effect(then, now))
    return ranked(found)


def first_seen(now: Reading, agents: Sequence[str] | None = None) -> Alert:
    """The first version ever: its groups and sitemaps, and which crawlers asked are blocked at `/`."""
    if not now.rules_apply:
        cause = now.decisions[RULES_POLICY].reason
        return Alert("firstSeen", Severity.INFO, message("watch.firstSeen.none", decision=cause))
    robots = now.robots
    blocked = [a for a in crawlers_asked([robots], agents) if not robots.answer(a, ROOT).verdict.allowed]
    params = {
        "groups": len(robots.groups),
        "sitemaps": len(robots.sitemaps),
        "size": robots.size,
        "blocked": blocked or message("watch.firstSeen.nobody"),
    }
    return Alert("firstSeen", Severity.INFO, message("watch.firstSeen", **params), tuple(blocked), (ROOT,), 1)


def variants(observations: Sequence[Observation]) -> list[Alert]:
    """Content served differently to different User-Agents in one run, ranked.

    The first observation is the reference (the watch command fetches as a
    browser first). Each other one that got another status, failure or body
    gives one `servedDifferently` alert when that changes anything: its
    `details` are `changes` from the reference to it, asked for the crawler
    its User-Agent names (every crawler when it names none), and it is as
    severe as the worst of them.
    """
    if len(observations) < 2:
        return []
    reference, *others = observations
    found = []
    for other in others:
        if (other.status, other.failure, other.body) == (reference.status, reference.failure, reference.body):
            continue
        known = crawlers.recognise(other.agent)
        inner = changes(reference, other, agents=None if known is None else [known.token])
        if not inner:
            continue  # two failures with other bodies, say: nothing a crawler does differs
        severity = inner[0].severity
        params = {
            "agent": other.agent,
            "reference": reference.agent,
            "count": len(inner),
            "top": inner[0].message,
        }
        said = message("watch.servedDifferently", **params)
        found.append(Alert("servedDifferently", severity, said, (reference.agent, other.agent), details=tuple(inner)))
    return ranked(found)
