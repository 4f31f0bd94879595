"""A lint fix never makes things worse: each one that is a change of lines is proven to change no verdict.

The advice issue (22): `redundantWildcard` told users to drop a `*` that won a
tie (us.playstation.com's `Allow: /grid/` / `Disallow: /grid/*`),
`agentNotToken` dropped Bingbot from `Googlebot, Bingbot` and cut
`com.plumanalytics` to `com`, and `firstMatchOrder` gave up on WordPress's
file over an unrelated `*` rule.
"""

from __future__ import annotations

import pytest

from robotscope import Finding, lint, parse
from robotscope.reports.linter import proof
from robotscope.reports.linter.proof import apply, settle
from robotscope.syntax.model import Edit

GRID = "User-agent: *\nDisallow: /private/\nAllow: /grid/\nDisallow: /grid/*\n"
WORDPRESS = (
    "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\nDisallow: /*?s=\n\n"
    "Sitemap: https://www.example.com/wp-sitemap.xml\n"
)


def _only(code: str, text: str) -> Finding:
    (finding,) = [f for f in lint(parse(text)) if f.code == code]
    return finding


def _verdicts(text: str, agents: tuple[str, ...], urls: tuple[str, ...]) -> list[bool]:
    robots = parse(text)
    return [robots.can_fetch(a, u, engine=e) for a in agents for u in urls for e in ("rfc9309", "google")]


def test_a_star_that_wins_a_tie_is_explained_and_never_dropped() -> None:
    finding = _only("redundantWildcard", GRID)
    assert finding.message.code == "lint.redundantWildcard.tie" and finding.lines == (3, 4)
    assert finding.edit is None and "write `Disallow: /grid/`" not in finding.fix.render()
    assert "`Allow: /grid/$`" in finding.fix.render()
    # The suggested intent: `/grid/` itself allowed, everything under it still blocked.
    intent = parse(GRID.replace("Allow: /grid/\n", "Allow: /grid/$\n"))
    assert intent.can_fetch("bot", "/grid/") and not intent.can_fetch("bot", "/grid/x")
    assert not parse(GRID).can_fetch("bot", "/grid/")


def test_a_star_that_decides_nothing_is_dropped_by_a_proven_edit() -> None:
    text = "User-agent: *\nDisallow: /cart*\nAllow: /grid/\nDisallow: /grid/x\n"
    finding = _only("redundantWildcard", text)
    assert finding.edit is not None and finding.edit.changes == ((2, ("Disallow: /cart",)),)
    fixed = apply(parse(text).text, [finding.edit])
    urls = ("/cart", "/cart/x", "/cartx", "/grid/", "/grid/x", "/")
    assert _verdicts(fixed, ("bot", "googlebot"), urls) == _verdicts(text, ("bot", "googlebot"), urls)


def test_a_comma_list_of_crawlers_becomes_one_line_each_never_one_crawler() -> None:
    finding = _only("agentNotToken", "User-agent: Googlebot, Bingbot\nDisallow: /p\n")
    assert finding.fix.render().startswith(
        "write one line for each crawler: `User-agent: Googlebot`, `User-agent: Bingbot`"
    )
    assert "Bingbot obeys another group" in finding.message.render()
    assert finding.edit is None  # it changes what Bingbot may fetch: a suggestion, not an automatic fix


def test_a_dotted_crawler_name_is_explained_not_cut() -> None:
    finding = _only("agentNotToken", "User-agent: com.plumanalytics\nDisallow: /\n")
    assert "`User-agent: com`" not in finding.fix.render() and finding.edit is None
    assert "read it as `com`" in finding.message.render()
    assert finding.fix.render().startswith("leave `com.plumanalytics`")


def test_a_version_after_the_token_is_cut_by_a_proven_edit_that_keeps_the_comment() -> None:
    finding = _only("agentNotToken", "User-agent: Googlebot/2.1 # main\nDisallow: /p\n")
    assert finding.edit is not None and finding.edit.changes == ((1, ("User-agent: Googlebot # main",)),)


def test_wordpress_order_is_given_despite_an_unrelated_wildcard_rule() -> None:
    finding = _only("firstMatchOrder", WORDPRESS)
    assert finding.fix.code == "fix.firstMatchOrder" and finding.fix.params["order"] == [3, 2]
    assert finding.edit is not None
    fixed = apply(parse(WORDPRESS).text, [finding.edit])
    assert fixed.splitlines()[1:3] == ["Allow: /wp-admin/admin-ajax.php", "Disallow: /wp-admin/"]
    assert [f for f in lint(parse(fixed)) if f.code == "firstMatchOrder"] == []


def test_a_wildcard_among_the_rules_in_conflict_still_means_no_order_serves_both() -> None:
    text = "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/*.php\nAllow: /wp-admin/admin-ajax.php\n"
    findings = [f for f in lint(parse(text)) if f.code == "firstMatchOrder"]
    assert [f.line for f in findings] == [3, 4]
    assert all(f.fix.code == "fix.firstMatchOrder.wildcards" and f.edit is None for f in findings)


def test_a_fix_that_changes_a_verdict_is_dropped_and_says_which() -> None:
    # `%25` for a stray `%` is RFC 9309's reading, but Google matches the bytes as written:
    # `/100%` blocks /100%2F for Google, `/100%25` does not.
    finding = _only("invalidPercentEncoding", "User-agent: *\nDisallow: /100%\n")
    assert finding.edit is None and finding.fix.code == "fix.unproven"
    text = finding.fix.render()
    assert (
        text.startswith("write a literal `%` as `%25`")
        and "Google:" in text
        and "disallowed now, allowed after" in text
    )


def test_a_repair_may_bring_rfc9309_to_google_but_not_change_google() -> None:
    finding = _only("missingColon", "User-agent: *\nDisallow /oops\n")
    assert finding.edit is not None and finding.edit.toward == "google"
    assert finding.as_dict()["edit"] == {
        "changes": [{"line": 2, "lines": ["Disallow: /oops"]}],
        "toward": "google",
        "limited": False,
    }


def test_settle_keeps_the_edits_that_hold_and_drops_the_one_that_does_not() -> None:
    robots = parse("User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /c\nDisallow: /d\n")
    harmless = [Edit(((n, (f"Disallow: {p}  # kept",)),)) for n, p in ((2, "/a"), (4, "/c"), (5, "/d"))]
    harmful = Edit(((3, ("Disallow: /bb",)),))
    settled = settle(robots, [*harmless, harmful])
    assert list(settled.kept) == harmless and list(settled.dropped) == [harmful]
    change = settled.dropped[harmful]
    assert (change.before, change.after) == (False, True) and change.url.startswith("/b")


def test_a_second_edit_of_the_same_line_and_edits_past_the_budget_are_left_unproven() -> None:
    robots = parse("User-agent: *\nDisallow: /a\n")
    first, second = Edit(((2, ("Disallow: /a  # x",)),)), Edit(((2, ("Disallow: /a  # y",)),))
    assert settle(robots, [first, second]).unproven == (second,)
    assert settle(robots, [first], budget=0).unproven == (first,)


def test_a_huge_file_of_fixes_stays_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    proofs: list[int] = []
    real = proof.Prover.prove

    def counted(self: proof.Prover, edits: list[Edit]) -> proof.Proof | None:
        proofs.append(len(edits))
        return real(self, edits)

    monkeypatch.setattr(proof.Prover, "prove", counted)
    text = "User-agent: *\n" + "".join(f"Disallow: /p{i}/*\n" for i in range(3000))
    findings = [f for f in lint(parse(text)) if f.code == "redundantWildcard"]
    assert len(findings) == 3000 and len(proofs) == 1  # all together, once
    assert all(f.edit is None and f.fix.code == "fix.unchecked" for f in findings)  # past the budget: said so


def test_a_crawler_only_google_reads_is_asked_too() -> None:
    # www.answers.com: `UserAgent: baiduspider` is a group for Google alone; under RFC 9309 its
    # rules repeat the group above, and deleting the repeat would unblock /api/ for Baiduspider.
    text = "User-agent: a\nDisallow: /api/\n\nUserAgent: baiduspider\nDisallow: /api/\n"
    finding = _only("shadowedRule", text)
    assert finding.edit is None and finding.fix.code == "fix.unproven"
    assert finding.fix.params["agent"] == "baiduspider" and finding.fix.params["engine"] == "Google"


def test_a_fix_another_fix_undoes_is_proven_alone_too() -> None:
    # www.ohio.edu: `User-agen: crawler4j` then `Disallow: /`. Spelt right, crawler4j is blocked
    # (no engine reads it so today); the duplicate `Disallow: /` deleted too, nothing changes.
    text = "User-agent: SemrushBot\nDisallow: /\nUser-agen: crawler4j\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n"
    findings = {f.code: f for f in lint(parse(text))}
    typo = findings["unknownDirective"]
    assert typo.edit is None and typo.fix.code == "fix.unproven" and typo.fix.params["agent"] == "crawler4j"
    assert findings["shadowedRule"].edit is not None


def test_a_deletion_that_merges_groups_is_probed_on_every_rule() -> None:
    # Deleting the empty `Allow:` leaves `User-agent: a` above `User-agent: c`: one group, so `a`
    # gets `c`'s `/q`, a pattern no edit touches (and past the few others probed anyway).
    others = "".join(f"Disallow: /s{i}\n" for i in range(10))
    text = f"User-agent: *\n{others}\nUser-agent: a\nAllow:\nUser-agent: c\nDisallow: /q\n"
    finding = _only("emptyAllow", text)
    assert finding.edit is None and finding.fix.code == "fix.unproven"
    assert finding.fix.params["agent"] == "a" and finding.fix.params["url"].startswith("/q")


def test_a_repeated_rule_alone_in_its_group_goes_with_its_group() -> None:
    # www.att.com: deleting the second `Disallow: /` alone joined `User-agent: dotbot` to `*`.
    text = "User-agent: DotBot\nDisallow: /\n\nUser-agent: dotbot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n"
    finding = _only("shadowedRule", text)
    assert finding.fix.code == "fix.shadowedRule.group" and finding.fix.params["lines"] == [4, 5]
    assert finding.edit is not None and finding.edit.changes == ((4, ()), (5, ()))
    fixed = parse(apply(parse(text).text, [finding.edit]))
    assert not fixed.can_fetch("dotbot", "/y") and fixed.can_fetch("bot", "/y")


def test_lint_without_proofs_gives_the_same_findings_and_no_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    # Callers that read the codes alone (survey, the count after --fix) skip the proofs, most of lint's time.
    robots = parse("User-agent: *\nAllow: /grid/\nDisallow: /grid/*\nDisallow: /a*\n")
    proven = lint(robots)
    monkeypatch.setattr("robotscope.reports.linter.settle", lambda *_: pytest.fail("proved"))
    plain = lint(robots, prove=False)
    assert [(f.code, f.line) for f in plain] == [(f.code, f.line) for f in proven]
    assert any(f.edit is not None for f in proven) and all(f.edit is None for f in plain)
