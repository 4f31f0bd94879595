"""Server-log audits: which robots.txt judged each logged request, who broke it, who only claimed to be a crawler.

- `timeline`: `RobotsVersion` and `RobotsTimeline`, the version of each origin's file in force at a moment.
- `classes`: the class of a request (`allowed`, `violation`, `exempt`, `spoofed`, `unverified`, `unjudged`)
  and which wins when several apply.
- `judge`: `Judge`, one request judged into a `Row`.
- `sessions`: a crawler's visits to an origin cut into sessions (robots.txt first? Crawl-delay kept?).
- `summary`: `Summary`, the counts of an audit per crawler, merged piece by piece.
- `run`: `audit`, a stream of log lines read, judged and counted.

Pure: no I/O, so it runs under Pyodide. This file imports nothing.
"""
