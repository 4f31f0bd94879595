"""The history of robots.txt files: every version of each origin's file and every fetch of it (`HistoryStore`).

- `model`: `Version`, `Fetch`, `Recorded`, and how a `FetchResult` is read into them.
- `schema`: the SQLite schema as numbered migrations.
- `store`: `HistoryStore`, on the cache's SQLite guarantees (`sqlite_file`).
"""

from .model import Fetch, Recorded, Version, failure_of, origin_of
from .store import HistoryStore, default_path

__all__ = ["Fetch", "HistoryStore", "Recorded", "Version", "default_path", "failure_of", "origin_of"]
