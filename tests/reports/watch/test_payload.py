"""The JSON and Slack shapes of alerts."""

from __future__ import annotations

import json

from robotscope.reports.watch.alerts import Alert, Severity
from robotscope.reports.watch.changes import changes
from robotscope.reports.watch.payload import MAX_BLOCKS, json_payload, slack_payload
from tests.reports.watch.samples import GOOD, STAGING, seen


def test_slack_payload_leads_with_the_worst_alert_and_escapes() -> None:
    alerts = changes(seen(GOOD), seen(STAGING))
    payload = slack_payload(alerts, "https://shop.example", "en")
    json.dumps(payload)
    assert "https://shop.example" in payload["text"] and "critical" in payload["text"]
    first = payload["blocks"][1]["text"]["text"]
    assert first.startswith("*critical* `siteBlocked`") and "Googlebot" in first
    said = alerts[0].message
    odd = slack_payload([Alert("x", Severity.INFO, said._replace(params={**said.params, "agents": ["<a&b>"]}))], "o")
    assert "&lt;a&amp;b&gt;" in odd["blocks"][1]["text"]["text"]


def test_slack_payload_stays_within_slacks_block_limit() -> None:
    said = changes(seen(GOOD), seen(STAGING))[0].message
    payload = slack_payload([Alert(f"c{i}", Severity.MINOR, said) for i in range(200)], "o", "ko")
    assert len(payload["blocks"]) == MAX_BLOCKS
    assert "152" in payload["blocks"][-1]["elements"][0]["text"]


def test_no_alerts_and_the_json_shape() -> None:
    assert slack_payload([], "o")["blocks"][0]["text"]["text"] == "*robots.txt of o: no change that matters*"
    data = json_payload(changes(seen(GOOD), seen(STAGING)), "https://shop.example", "ko")
    assert data["worst"] == "critical" and data["count"] == len(data["alerts"])
    assert data["alerts"][0]["code"] == "siteBlocked"
