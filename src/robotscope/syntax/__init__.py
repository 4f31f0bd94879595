"""The syntax layer: what a robots.txt file says, read once and losslessly, deciding nothing.

Rule 1: syntax imports only the standard library's pure modules and
`robotscope.messages`; nothing here knows of crawlers' access, engines,
reports or I/O.
Rule 2: a parse never raises on any input; problems in the content are data
(each line keeps its kind).

- `model`: the vocabulary as plain data (lines, rules, groups, verdicts, findings).
- `urls`, `patterns`, `tokens`: targets and percent-encoding, rule patterns,
  product tokens.
- `parser`: bytes or text to groups and lines; `parsed`: `ParsedFile`, the
  lossless result and its bounded memo.
- `directives`: which keys exist and how Google's parser spells them; `html`:
  whether a body is an HTML page; `structured`: RFC 9651 fields; `sitemap`:
  XML sitemaps; `crawlers`: the crawler catalogue (crawlers.csv).
"""
