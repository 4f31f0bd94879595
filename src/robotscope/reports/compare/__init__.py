"""Verdicts side by side: across crawlers (`matrix`), across file versions (`diff`), for many URLs (`bulk`),
across engines (`readings`, `lines`).

Every answer here is the one all front ends give (`Robots.answer`, by
default the `rfc9309+profiles` reading: RFC 9309 with the operators'
documented crawler profiles), so `matrix`, `check`, `diff` and `bulk`
never disagree on the same crawler, URL and file. `diff` answers "which
crawler/URL pairs flip between allowed and disallowed?", not "which lines
changed?": reordering, comments and equivalent rewrites flip nothing. Pure:
it only calls the core. This file imports nothing, so the linter can use
`lines` without loading the rest.
"""
