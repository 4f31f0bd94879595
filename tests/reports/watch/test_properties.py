"""Properties of `changes`: a version compared with itself flips nothing, whatever its bytes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.reports.watch.changes import changes
from robotscope.reports.watch.flips import crawlers_asked
from tests.reports.watch.samples import seen

FLIPS = frozenset(
    {"siteBlocked", "searchLost", "searchGained", "aiBlocked", "aiUnblocked", "crawlerLost", "crawlerGained"}
)
LINES = st.sampled_from(
    [
        b"User-agent: *",
        b"User-agent: GPTBot",
        b"User-agent: Googlebot",
        b"Disallow: /",
        b"Allow: /a",
        b"Disallow: /a*b$",
        b"Sitemap: https://x/s.xml",
        b"Content-Usage: train-ai=n",
        b"Content-Signal: ai-train=no",
        b"# c",
        b"",
        b"<html>",
    ]
)
BODIES = st.one_of(st.binary(max_size=300), st.lists(LINES, max_size=12).map(b"\n".join))


def test_the_flip_codes_are_every_code_classify_gives() -> None:
    from robotscope.reports.watch.flips import classify

    found = {
        classify(a, g, w)[0]
        for a in ("*", "Googlebot", "Yeti", "GPTBot", "quxbot")
        for g in (True, False)
        for w in (True, False)
    }
    assert found == FLIPS
    assert crawlers_asked([])[-1] == "*"


@settings(max_examples=150, deadline=None)
@given(body=BODIES, status=st.sampled_from([200, 200, 404, 503, None]))
def test_a_version_against_itself_has_no_flip_alerts(body: bytes, status: int | None) -> None:
    same = seen(body, status)
    found = {a.code for a in changes(same, same)}
    assert not found & FLIPS
    assert found == set()  # nothing changed at all


@settings(max_examples=150, deadline=None)
@given(old=BODIES, new=BODIES)
def test_any_two_versions_give_ranked_renderable_alerts(old: bytes, new: bytes) -> None:
    alerts = changes(seen(old), seen(new))
    ranks = [a.severity.rank for a in alerts]
    assert ranks == sorted(ranks)
    for alert in alerts:
        assert alert.text("ko") and alert.as_dict("en")["code"] == alert.code
