"""Expectations: what a site's robots.txt must keep doing, stated in a TOML file and checked in CI or at every watch.

- `load`: the file's format (docs/expectations.md), `load_expectations` and its one-line errors.
- `check`: `check(expectations, observation_or_robots)`, each failed statement an alert naming the deciding line.

Pure (stdlib `tomllib` only). This file imports nothing.
"""
