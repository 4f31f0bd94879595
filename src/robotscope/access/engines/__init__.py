"""Readings: how each engine reads the same file, side by side.

Rule 1: an engine reads a `ParsedFile` and answers through the steps of
`base.Engine` (read, select, match, target); it never imports the `Robots`
façade, which alone calls the engines (`registry.run`).
Rule 2: this package's `__init__` imports nothing, so that a module below
the registry (the profiles, the engines themselves) can import `base`
without importing every engine.

- `base`: what an engine is, `assemble` (through `access.verdicts`) and
  `profiled` (the crawler catalogue's profiles over a selection).
- `rfc9309` (RFC 9309 exactly, and `rfc9309+profiles`), `google`, `bing`,
  `naver`, `yandex`, `legacy`, `protego`: one module per reading, each
  citing its sources behaviour by behaviour; `tests/access/engines/` proves each
  against the real engine it names.
- `registry`: the readings by name, the `operator` choice, `run`.
- `split`: which URLs the crawler's operator's reading might answer otherwise.
"""
