"""The reports layer: what users read about a file, built from the access layer's answers.

Rule 1: reports import syntax, access and messages, never an edge (no
fetching, no files, no network) or a front end, so they run under Pyodide.
Rule 2: reports ask `Robots` for every answer; they never decide access
themselves, so every front end says the same thing.

- `linter`: `lint` and its checks, one small function per finding code.
- `compare`: verdicts side by side (matrix, diff, bulk rows, readings).
- `views`, `render`: JSON views and text (SARIF too) for every front end.
- `analysis`, `api`: what the tester page shows, and its JSON API as pure functions.
- `audit`: server-log audits (`audit.timeline`: the robots.txt in force at each request's time).
- `generator`, `selftest`, `survey`, `indexing`: robots.txt from a spec; the
  RFC 9309 reference cases; survey rows; a page's indexing directives.
"""
