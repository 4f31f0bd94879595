"""Watching sites' robots.txt: each origin fetched as a browser and as crawlers, recorded, judged, reported.

- `agents`: whom a watch fetches as (`browser`, catalogue crawlers, User-Agent strings).
- `run`: one watch run (`watch_once`): fetches, the history store, the alerts of `reports.watch`.
- `webhook`: the alerts POSTed to a receiver, held to a deadline.
"""
