"""`variants`: content served differently to different User-Agents in one run."""

from __future__ import annotations

from robotscope.reports.watch.alerts import Severity
from robotscope.reports.watch.changes import variants
from tests.reports.watch.samples import GOOD, STAGING, seen

GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot"
GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


def test_a_file_served_differently_to_gptbot_is_flagged_with_its_effect_on_gptbot() -> None:
    alerts = variants([seen(GOOD), seen(STAGING, agent=GPTBOT), seen(GOOD, agent=GOOGLEBOT)])
    assert len(alerts) == 1  # Googlebot got the browser's file
    found = alerts[0]
    assert found.code == "servedDifferently" and found.agents == ("browser", GPTBOT)
    # Asked for GPTBot alone: its own file shuts it out of the whole site.
    assert [(d.code, d.agents) for d in found.details][:1] == [("aiBlocked", ("GPTBot",))]
    assert found.severity is Severity.MAJOR and found.details[0].after[0].text == "Disallow: /"
    assert "GPTBot" in found.text()


def test_a_403_for_one_crawler_only() -> None:
    alerts = variants([seen(GOOD), seen(b"Forbidden", 403, agent=GOOGLEBOT, content_type="text/html")])
    assert [a.code for a in alerts] == ["servedDifferently"]
    assert "fileMissing" in [d.code for d in alerts[0].details]


def test_the_same_file_to_everyone_and_a_single_fetch_say_nothing() -> None:
    assert variants([seen(GOOD), seen(GOOD, agent=GPTBOT)]) == []
    assert variants([seen(GOOD)]) == []


def test_two_failures_with_other_bodies_say_nothing() -> None:
    # A 503 page that names the crawler it answers is still a 503 for both: nothing differs for a crawler.
    assert variants([seen(b"down for browser", 503), seen(b"down for GPTBot", 503, agent=GPTBOT)]) == []
