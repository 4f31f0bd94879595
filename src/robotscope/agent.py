"""May an AI agent fetch this URL? The gate agent frameworks call before every fetch (the MCP tool `may_fetch`).

`gate(url, user_agent, initiated_by="model")` fetches the origin's
robots.txt (deadline, size bounds, the cache; private and loopback targets
refused unless `allow_private=True`) and answers with the verdict by the
crawler's own reading, the deciding line, the evidence (robots.txt URL,
status, fetch time, SHA-256), RFC 9309's decision for anything but a 2xx (a
5xx or an unreachable file allows nothing), the usage preferences and RSL
licenses that apply, and whether the agent's operator says robots.txt
applies to a fetch the model or a user started (docs/mcp.md).

>>> from robotscope.agent import gate
>>> answer = gate("http://127.0.0.1/admin", "MyAgent/1.0")
>>> answer.allowed, answer.reason
(False, 'refused-target')
>>> answer.as_dict()["operator_scope"]["robots_txt_applies"]
'yes'
"""

from __future__ import annotations

from .access.scope import INITIATORS, Scope
from .gating import gate, gate_async
from .reports.gate import Evidence, GateAnswer, InvalidRequest

__all__ = ["INITIATORS", "Evidence", "GateAnswer", "InvalidRequest", "Scope", "gate", "gate_async"]
