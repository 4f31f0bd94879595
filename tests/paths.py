"""Where the tests' data lives, named once: the repository, the corpus, the examples, the docs."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
CORPUS = TESTS / "corpus" / "robots"
SNAPSHOTS = TESTS / "snapshots"
EXAMPLES = ROOT / "examples"
DOCS = ROOT / "docs"
