"""Alerts about what the file says besides verdicts: sitemap lines, usage preferences, a change with no effect.

Usage preferences (Content-Usage, Content-Signal) are compared by effect,
as `Robots.answer` attaches them to each verdict: for every crawler and URL
asked that both versions allow, the preferences that apply before and after.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...access.robots import Robots
from ...messages import message
from ...syntax.model import Usage
from .alerts import MAX_EXAMPLES, Alert, Evidence, Severity
from .flips import crawlers_asked, urls_asked
from .observation import Reading

MAX_PREFERENCE_URLS = 200  # URLs asked about preferences: each costs a verdict per crawler and version


def sitemap_alerts(before: Reading, after: Reading) -> list[Alert]:
    """Sitemap lines added (`sitemapAdded`) or removed (`sitemapRemoved`)."""
    then = {record.value: record.line for record in before.robots.sitemaps}
    now = {record.value: record.line for record in after.robots.sitemaps}
    added = _sitemaps("sitemapAdded", Severity.INFO, after, [u for u in now if u not in then], now)
    removed = _sitemaps("sitemapRemoved", Severity.MINOR, before, [u for u in then if u not in now], then)
    return [alert for alert in (added, removed) if alert is not None]


def _sitemaps(code: str, severity: Severity, side: Reading, urls: list[str], lines: dict[str, int]) -> Alert | None:
    """The alert for sitemap `urls` only one version lists (`side`, at `lines`); None when there are none."""
    if not urls:
        return None
    shown = tuple(urls[:MAX_EXAMPLES])
    said = message(f"watch.{code}", count=len(urls), examples=list(shown))
    evidence = tuple(Evidence(lines[u], side.robots.line(lines[u]).raw.strip()) for u in urls)
    before, after = (evidence, ()) if code == "sitemapRemoved" else ((), evidence)
    return Alert(code, severity, said, (), shown, len(urls), before, after)


def _said(usage: Usage | None) -> tuple[tuple[str, str, int], ...]:
    """The preferences that apply, as (category, value, first line) sorted; none when no preference applies."""
    if usage is None or not usage.applies:
        return ()
    pairs = [*usage.usage.items(), *usage.signals.items()]
    return tuple(sorted((key, p.value, min(p.lines, default=0)) for key, p in pairs))


def preference_alerts(
    before: Reading, after: Reading, urls: Sequence[str] = (), agents: Sequence[str] | None = None
) -> list[Alert]:
    """Where the usage preferences that apply change (`preferencesChanged`), crawlers with the same change together."""
    old, new = before.robots, after.robots
    if not (old.states_preferences or new.states_preferences):
        return []  # most files: nothing to compare
    files = [old, new]
    changed: dict[tuple[tuple[tuple[str, str, int], ...], ...], tuple[list[str], list[str]]] = {}
    asked = urls_asked(files, urls)[:MAX_PREFERENCE_URLS]  # the same for every crawler
    for agent in crawlers_asked(files, agents):
        for url in asked:
            then, now = old.answer(agent, url).verdict, new.answer(agent, url).verdict
            if not (then.allowed and now.allowed):
                continue  # preferences apply only where the crawler may fetch; a flip says the rest
            said = (_said(then.usage), _said(now.usage))
            if [(k, v) for k, v, _ in said[0]] != [(k, v) for k, v, _ in said[1]]:
                crawlers_, urls_ = changed.setdefault(said, ([], []))
                if agent not in crawlers_:
                    crawlers_.append(agent)
                if url not in urls_:
                    urls_.append(url)
    return [_preference_alert(old, new, said, agents_, urls_) for said, (agents_, urls_) in changed.items()]


def _preference_alert(
    old: Robots, new: Robots, said: tuple[tuple[tuple[str, str, int], ...], ...], agents: list[str], urls: list[str]
) -> Alert:
    texts = [", ".join(f"{k}={v}" for k, v, _ in side) or message("watch.preferences.none") for side in said]
    lines = [
        tuple(sorted({Evidence(n, robots.line(n).raw.strip()) for _, _, n in side if n}))
        for robots, side in zip((old, new), said, strict=True)
    ]
    params = {"agents": agents, "count": len(urls), "examples": urls[:MAX_EXAMPLES]}
    params |= {"before": texts[0], "after": texts[1]}
    return Alert(
        "preferencesChanged",
        Severity.MINOR,
        message("watch.preferencesChanged", **params),
        tuple(agents),
        tuple(urls[:MAX_EXAMPLES]),
        len(urls),
        lines[0],
        lines[1],
    )


def no_effect(before: Reading, after: Reading) -> Alert:
    """The text changed, and nothing any crawler asked does changed (`noEffect`)."""
    params = {"before": len(before.robots.lines), "after": len(after.robots.lines)}
    return Alert("noEffect", Severity.INFO, message("watch.noEffect", **params))
