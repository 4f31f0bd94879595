"""The shapes alerts are sent in: plain JSON (`json_payload`) and Slack's (`slack_payload`). Pure.

Slack's incoming webhooks take `{"text": ..., "blocks": [...]}`: `text` is
the notification's fallback, `blocks` the message
(https://api.slack.com/reference/block-kit/blocks). A message holds at most
50 blocks and a section's text at most 3,000 characters; `&`, `<` and `>`
must be escaped in it (https://api.slack.com/reference/surfaces/formatting#escaping).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...messages import DEFAULT_LANG, message
from .alerts import Alert, ranked

MAX_BLOCKS = 50  # Slack's limit per message
MAX_SECTION = 3000  # characters of a section's text
SHOWN = MAX_BLOCKS - 2  # alert sections: the title and a closing "and N more" besides


def json_payload(alerts: Sequence[Alert], origin: str, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """`{"origin", "count", "worst", "alerts": [...]}`, the alerts ranked, each `Alert.as_dict`."""
    shown = ranked(alerts)
    return {
        "origin": origin,
        "count": len(shown),
        "worst": shown[0].severity.value if shown else None,
        "alerts": [a.as_dict(lang) for a in shown],
    }


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text[:MAX_SECTION]}}


def slack_payload(alerts: Sequence[Alert], origin: str, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The alerts as a Slack message: a title, one section per alert (worst first), and how many were left out."""
    shown = ranked(alerts)
    if shown:
        title = message("watch.slack.title", origin=origin, count=len(shown), top=shown[0].severity.value)
    else:
        title = message("watch.slack.none", origin=origin)
    text = _escaped(title.render(lang))
    blocks = [_section(f"*{text}*")]
    for alert in shown[:SHOWN]:
        blocks.append(_section(f"*{alert.severity.value}* `{alert.code}`\n{_escaped(alert.text(lang))}"))
    if len(shown) > SHOWN:
        more = message("watch.more", count=len(shown) - SHOWN).render(lang)
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": _escaped(more)}]})
    return {"text": text, "blocks": blocks}
