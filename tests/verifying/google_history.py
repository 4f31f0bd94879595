"""Two real consecutive versions of Google's common-crawlers list, and a history store that holds them.

Byte for byte as github.com/aminvakil/google-ip-list fetched them from developers.google.com
(its `googlebot.json`): commit b99e17b73e17f431128cd8cb93fe5dd7d70d3a10 holds the version of
2025-09-03 (307 prefixes), commit 91eea88c917f0cf682221fef9a64adcc2bf68cbf the next, of 2025-09-04
(305): Google dropped 66.249.72.96/27 and 2001:4860:4801:11::/64 between them (and listed both
again on 2026-05-06, after these versions).
"""

from __future__ import annotations

import json
from pathlib import Path

from robotscope.history import HistoryStore
from tests.clock import Clock
from tests.clock import moment as at

NAME = "google-common-crawlers.json"
FOLDER = Path(__file__).parent / "google_lists"
VERSIONS = ("common-crawlers-2025-09-03.json", "common-crawlers-2025-09-04.json")
DROPPED = "66.249.72.100"  # in 66.249.72.96/27: in the first version, not in the second
KEPT = "66.249.66.1"  # in 66.249.66.0/27, in both


def google_store(path: Path) -> Path:
    """A store at `path` holding both versions, as `verify --update` would have kept them."""
    with HistoryStore(path, now=Clock(at("2025-09-05"))) as store:
        for file in VERSIONS:
            body = (FOLDER / file).read_bytes()
            created = json.loads(body)["creationTime"]
            assert store.record_list(NAME, created, body, f"https://mirror.example/{file}").new
    return path
