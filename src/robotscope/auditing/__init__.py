"""Server-log audits' I/O: where the robots.txt versions that judge each request come from, and the logs in pieces.

- `sources`: `from_robots` (a file or URL), `from_history` (the watch store), `from_dir` (dated
  snapshots) and `from_git` (a repository's history of the file), each giving `Loaded` versions and problems.
- `pieces`: log files cut into pieces of whole lines and audited in one process or in worker processes
  (`robotscope logs --jobs`, `integrations.duckdb.audit`).
"""
