"""What a change of a site's robots.txt does, as ranked alerts; and the expectations a file must meet.

- `observation`: `Observation`, one fetch of an origin's robots.txt as one User-Agent saw it.
- `alerts`: `Alert` and `Severity`, and the one ranking of alerts.
- `flips`: verdict flips per crawler (from `compare.diff`), as alerts.
- `served`: how a response was served (failures, HTML, bot challenges, edge-injected blocks).
- `changes`: `changes(before, after)` and `variants(observations)`.
- `payload`: the JSON and Slack shapes of a list of alerts.
- `expect`: expectation files (`load_expectations`) and `check`.

Pure: no I/O, so it runs under Pyodide. This file imports nothing.
"""
