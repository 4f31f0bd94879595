"""Matching: RFC 9309's choice of groups and longest match, indexed so each question meets few rules.

Rule 1: matching imports only the syntax layer, `access.verdicts` and its
own modules; it knows nothing of engines, profiles or the façade above it.
Rule 2: every decision here has a plain form that property tests compare it
with (`select_groups` = `GroupIndex.select`; `RuleSet.winner` =
`explain.candidates(...)[0]` = a naive matcher; `Rulebook` = `RuleSet`).

- `selection`: which groups apply to a crawler (Section 2.2.1).
- `precedence`: which matching rule decides (Section 2.2.2).
- `entries`: rules read once for matching (a set of a few is tried in turn).
- `parts`: a rule set's rules by the first two characters of their start,
  each part made on first use (tried in turn, or indexed when large).
- `literals`: the literal index: the literals rules need, and which a target has.
- `candidates`: candidate selection: the rules whose literals a target has,
  best first, as bit sets (`Candidates`; `CandidateRules` for other engines).
- `ruleset`: `RuleSet`, one crawler's merged rules; `winner` is the fast path.
- `explain`: every matching rule and the full verdict (`candidates`, `verdict`).
- `rulesets`: one file's rule sets, by crawler, shared and bounded.
- `rulebook`: rules filed for many crawlers at once (the linter, `diff`).
- `tuning`: every constant that trades one way of finding an answer for another.
"""
