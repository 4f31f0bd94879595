"""Server-log audits' I/O: where the robots.txt versions that judge each request come from.

- `sources`: `from_robots` (a file or URL), `from_history` (the watch store), `from_dir` (dated
  snapshots) and `from_git` (a repository's history of the file), each giving `Loaded` versions and problems.
"""
