"""The access layer: who may fetch what, and why; every verdict robotscope gives is decided here.

Rule 1: access imports only the syntax layer and `robotscope.messages`;
within it, `verdicts` < `matching` < `profiles`, `preferences`, `policy` <
`engines` < `robots`, and nothing imports `robots`, the façade on top.
Rule 2: each decision has one home: a verdict is built only in `verdicts`;
"the rules apply after this fetch" is `policy.Action.rules_apply`; the
choice of groups is `matching.selection`'s (and an engine's own, for its
reading); a crawler's documented profile is `profiles`'.

- `verdicts`: the one reading of a match, and the one builder of a `Verdict`.
- `matching`: RFC 9309's groups and longest match, indexed.
- `engines`: the seven readings and `rfc9309+profiles`, by name.
- `profiles`: operators' documented crawler profiles; `preferences`: AI usage
  preferences; `policy`: what a fetch's HTTP outcome means.
- `robots`: `Robots`, the façade that answers every question about a file.
- `build`: which build is running, compiled (mypyc) or pure Python.
"""
