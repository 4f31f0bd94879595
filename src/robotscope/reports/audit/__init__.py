"""Server-log audits: which robots.txt judged each logged request.

- `timeline`: `RobotsVersion` and `RobotsTimeline`, the version of each origin's file in force at a moment.

Pure: no I/O, so it runs under Pyodide. This file imports nothing.
"""
