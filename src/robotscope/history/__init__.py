"""The history of robots.txt files: every version of each origin's file and every fetch of it (`HistoryStore`);
and every version of the operators' IP lists (`ListVersion`, kept by `robotscope verify --update`).

- `model`: `Version`, `Fetch`, `Recorded`, and how a `FetchResult` is read into them.
- `schema`: the SQLite schema as numbered migrations.
- `store`: `HistoryStore`, on the cache's SQLite guarantees (`sqlite_file`).
"""

from .model import Fetch, ListVersion, Recorded, Version, failure_of, origin_of
from .store import HistoryStore, default_path

__all__ = ["Fetch", "HistoryStore", "ListVersion", "Recorded", "Version", "default_path", "failure_of", "origin_of"]
