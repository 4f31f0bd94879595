"""`robotscope ci` on a temporary git repository: flips against the base, SARIF, annotations, comment, exit codes."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.reports.ci import MARKER
from tests.ci_site import NO_COLON_LINE, PRODUCTS_LINE, git, site_repo, valid_sarif
from tests.conftest import Server

pytestmark = pytest.mark.usefixtures("isolated")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["ci", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The site's repository as the working directory; its base commit."""
    root = tmp_path / "site"
    base = site_repo(root)
    monkeypatch.chdir(root)
    return base


def test_the_flip_is_listed_with_the_deciding_line_of_each_version(repo: str) -> None:
    code, out, _ = run("--base", repo, "--urls", "urls.txt")
    flips = [line for line in out.splitlines() if "may no longer fetch" in line]
    assert flips == [
        f"public/robots.txt: googlebot may no longer fetch /products/: line {PRODUCTS_LINE}: Disallow: /products/"
        " (before: no rule matches)",
        f"public/robots.txt: googlebot may no longer fetch /products/shoes: line {PRODUCTS_LINE}: Disallow: /products/"
        " (before: no rule matches)",
    ]
    assert f"public/robots.txt:{NO_COLON_LINE}: error missingColon" in out
    assert code == 1  # the lint error


@pytest.mark.parametrize(("fail_on", "code"), [("never", 0), ("error", 0), ("flip", 1), ("warning", 1)])
def test_fail_on_decides_whether_a_flip_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_on: str, code: int
) -> None:
    root = tmp_path / "site"
    base = site_repo(root, head=b"User-agent: *\nDisallow: /cart/\n\nUser-agent: Googlebot\nDisallow: /products/\n")
    monkeypatch.chdir(root)
    assert run("--base", base, "--fail-on", fail_on, "--agents", "Googlebot")[0] == code


def test_the_sarif_log_is_valid_2_1_0_with_each_finding_on_its_line(repo: str, tmp_path: Path) -> None:
    out = tmp_path / "robotscope.sarif"
    assert run("--base", repo, "--sarif", str(out))[0] == 1
    (only,) = valid_sarif(out)["runs"]
    located = [
        (
            r["ruleId"],
            r["level"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in only["results"]
    ]
    assert ("missingColon", "error", "public/robots.txt", NO_COLON_LINE) in located
    assert all(uri == "public/robots.txt" for _, _, uri, _ in located)


def test_sarif_uris_are_the_files_paths_percent_encoded(repo: str, tmp_path: Path) -> None:
    folder = Path("site pages/100%#1")
    folder.mkdir(parents=True)
    (folder / "robots.txt").write_bytes(b"User-agent: *\nDisallow /x\n")
    out = tmp_path / "ci.sarif"
    assert run(str(folder / "robots.txt"), "--sarif", str(out))[0] == 1
    linted = tmp_path / "lint.sarif"
    linted.write_text(CliRunner().invoke(cli, ["lint", str(folder / "robots.txt"), "--format", "sarif"]).stdout)
    for log in (out, linted):
        results = valid_sarif(log)["runs"][0]["results"]
        # A URI reference: read back, it is the path (a raw `#` would end it, `%` would be read as an escape).
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
        assert uris == {"site%20pages/100%25%231/robots.txt"}


def test_a_sarif_log_the_schema_refuses_is_caught(tmp_path: Path) -> None:
    """The schema check above can fail: a result without its message is not SARIF 2.1.0."""
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "a"}]}]}
    (tmp_path / "bad.sarif").write_text(json.dumps(log))
    with pytest.raises(jsonschema.ValidationError):
        valid_sarif(tmp_path / "bad.sarif")


def test_the_comment_shows_each_flip_with_both_sides_and_the_failed_expectation(repo: str, tmp_path: Path) -> None:
    body = tmp_path / "comment.md"
    code, _, _ = run(
        "--base", repo, "--urls", "urls.txt", "--expect", "robots-expect.toml", "--comment-body", str(body)
    )
    text = body.read_text(encoding="utf-8")
    assert code == 1 and text.splitlines()[0] == MARKER
    row = (
        f"| `googlebot` | `/products/` | allowed: no rule matches | **disallowed**: line {PRODUCTS_LINE} "
        "`Disallow: /products/` |"
    )
    assert row in text.splitlines()
    assert f"2 verdicts flip against {repo[:12]}" in text
    assert "- critical `expectAllow`: expected Googlebot may fetch /products/" in text
    assert f"- line {NO_COLON_LINE}: error `missingColon`" in text
    assert text.splitlines()[-1] == "**The check fails: something at or above --fail-on error was found.**"


def test_github_format_annotates_flips_expectations_and_findings_unless_code_scanning_has_them(
    repo: str, tmp_path: Path
) -> None:
    _, out, _ = run("--base", repo, "--expect", "robots-expect.toml", "--format", "github", "--agents", "Googlebot")
    commands = runner_commands(out)
    assert commands[0].startswith(f"::error file=public/robots.txt,line={PRODUCTS_LINE},title=robotscope expectAllow::")
    assert any(
        c.startswith(f"::warning file=public/robots.txt,line={PRODUCTS_LINE},title=robotscope%3A a verdict flips::")
        and "(before: no rule matches)" in c
        for c in commands
    )
    assert any(
        c.startswith(f"::error file=public/robots.txt,line={NO_COLON_LINE},title=robotscope missingColon::")
        for c in commands
    )
    sarif = str(tmp_path / "r.sarif")
    _, out, _ = run("--base", repo, "--format", "github", "--agents", "Googlebot", "--sarif", sarif, "--code-scanning")
    assert not any("missingColon" in line for line in out.splitlines() if line.startswith("::"))
    assert any("a verdict flips" in line for line in out.splitlines() if line.startswith("::"))
    assert run("--code-scanning")[0] == 2


# The commands GitHub's runner knows (actions/runner, ActionCommandManager): the command extensions and stop-commands.
_RUNNER_COMMANDS = {
    *("add-mask", "add-matcher", "add-path", "debug", "echo", "endgroup", "error", "group", "notice"),
    *("remove-matcher", "save-state", "set-env", "set-output", "stop-commands", "warning"),
}


def runner_commands(output: str) -> list[str]:
    """The workflow commands GitHub's runner would act on in `output`, as it reads each line
    (actions/runner ActionCommand): `::name ...::data` after leading blanks, or the legacy `##[name ...]data`
    anywhere in a line; after `::stop-commands::TOKEN`, none until `::TOKEN::`."""
    acted, stopped = [], None
    for line in output.splitlines():
        trimmed, start = line.lstrip(), line.find("##[")
        if trimmed.startswith("::") and "::" in trimmed[2:]:
            info, data = trimmed[2:].split("::", 1)
        elif start >= 0 and "]" in line[start:]:
            info, data = line[start + 3 :].split("]", 1)
        else:
            continue
        name = info.split(" ", 1)[0]
        if stopped is not None:
            stopped = None if name == stopped else stopped
        elif name == "stop-commands":
            stopped = data
        elif name in _RUNNER_COMMANDS:
            acted.append(line)
    return acted


def test_text_from_the_files_starts_no_workflow_command_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "site"
    hostile = (
        b"User-agent: *\n"
        b"Disalow: /a ##[error]forged by the file\n"  # quoted by the lint finding: a legacy command mid-line
        b"Disallow: /b ##[stop-commands]silenced\n"  # a flip quotes it: robotscope's own annotations would be ignored
    )
    base = site_repo(root, head=hostile)
    monkeypatch.chdir(root)
    code, out, _ = run("--base", base, "--format", "github", "--agents", "*")
    acted = runner_commands(out)
    assert code == 1 and acted == [line for line in out.splitlines() if line.startswith("::") and "file=" in line]
    assert any("unknownDirective" in line for line in acted) and any("a verdict flips" in line for line in acted)
    assert "Disalow: /a ##[error]forged by the file" in out  # the text is still shown, just not acted on


def test_every_tracked_robots_txt_is_checked_by_default(repo: str) -> None:
    Path("docs").mkdir()
    Path("docs/robots.txt").write_bytes(b"User-agent: *\nDisallow: /x\n")
    Path("untracked").mkdir()
    Path("untracked/robots.txt").write_bytes(b"junk\n")
    git(Path.cwd(), "add", "docs")
    git(Path.cwd(), "commit", "-q", "-m", "docs")
    _, out, _ = run("--base", repo)
    assert "docs/robots.txt: no findings" in out.splitlines()
    assert "untracked" not in out
    assert out.splitlines()[-1].startswith("2 files checked: ")


def test_a_file_the_base_did_not_have_is_compared_with_none(repo: str, tmp_path: Path) -> None:
    Path("new").mkdir()
    Path("new/robots.txt").write_bytes(b"User-agent: *\nDisallow: /\n")
    body = tmp_path / "c.md"
    code, out, _ = run("new/robots.txt", "--base", repo, "--comment-body", str(body), "--fail-on", "flip")
    assert (
        code == 1
        and "new/robots.txt: * (others) may no longer fetch /: line 2: Disallow: / (before: no group applies)" in out
    )
    assert "A new file: the base revision" in body.read_text(encoding="utf-8")


def test_a_file_the_change_removes_is_compared_with_none(repo: str, tmp_path: Path) -> None:
    Path("docs").mkdir()
    Path("docs/robots.txt").write_bytes(b"User-agent: *\nDisallow: /private/\n")
    git(Path.cwd(), "add", "docs")
    git(Path.cwd(), "commit", "-q", "-m", "docs")
    base = git(Path.cwd(), "rev-parse", "HEAD").strip()
    git(Path.cwd(), "rm", "-q", "docs/robots.txt")
    git(Path.cwd(), "commit", "-q", "-m", "The docs site may be crawled whole")
    allowed = (
        "docs/robots.txt: * (others) may now fetch /private/: no group applies (before: line 2: Disallow: /private/)"
    )
    body = tmp_path / "c.md"
    for named in ((), ("docs/robots.txt", "public/robots.txt")):  # every tracked robots.txt, or the files named
        code, out, err = run(*named, "--base", base, "--fail-on", "flip", "--agents", "*", "--comment-body", str(body))
        assert (code, err) == (1, "") and allowed in out.splitlines()
        assert out.splitlines()[-1].startswith("2 files checked: 1 verdict flip, ")
        assert "Removed by this change: the base revision" in body.read_text(encoding="utf-8")
    code, _, err = run("gone/robots.txt", "--base", base)  # a file neither the base nor the change has
    assert code == 2 and err.startswith("robotscope: cannot read 'gone/robots.txt'")


def test_a_symlinked_robots_txt_is_read_through_its_link_at_the_base_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "site"
    base = site_repo(root)  # public/robots.txt, changed by the head commit
    (root / "shared").mkdir()
    (root / "shared" / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /a\n")
    (root / "linked").mkdir()
    (root / "linked" / "robots.txt").symlink_to("../shared/robots.txt")
    (root / "outside").mkdir()
    (root / "outside" / "robots.txt").symlink_to(tmp_path / "elsewhere.txt")  # out of the repository at the base
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "A robots.txt shared by link")
    linked = git(root, "rev-parse", "HEAD").strip()
    (root / "shared" / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /a\nDisallow: /b\n")
    (tmp_path / "elsewhere.txt").write_bytes(b"User-agent: *\nDisallow: /c\n")
    git(root, "commit", "-q", "-am", "Block /b too")
    monkeypatch.chdir(root)
    files = ("outside/robots.txt", "linked/robots.txt", "public/robots.txt")
    _, out, _ = run(*files, "--base", linked, "--agents", "*", "--fail-on", "never")
    flips = [line for line in out.splitlines() if "fetch" in line]
    assert flips == [
        # A link out of the repository was no file git had: as if the base had none.
        "outside/robots.txt: * (others) may no longer fetch /c: line 2: Disallow: /c (before: no group applies)",
        "linked/robots.txt: * (others) may no longer fetch /b: line 3: Disallow: /b (before: no rule matches)",
    ]
    _, out, _ = run("public/robots.txt", "--base", base, "--agents", "*", "--fail-on", "never")
    assert out.splitlines()[-1].startswith("1 file checked: 0 verdict flips")  # the file after the links read right


def test_glob_patterns_and_their_misses(repo: str) -> None:
    code, out, _ = run("public/**/robots.txt", "--fail-on", "never")
    assert code == 0 and out.splitlines()[-1].startswith("1 file checked: ")
    code, _, err = run("nowhere/**/robots.txt")
    assert code == 2 and err == "robotscope: no file matches nowhere/**/robots.txt\n"


def test_a_base_the_repository_lacks_or_no_repository_is_one_line_and_exit_2(
    repo: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run("--base", "0" * 40)
    assert code == 2 and err.startswith(f"robotscope: the revision {'0' * 40} is not in the repository")
    assert err.count("\n") == 1
    code, _, err = run("--base", "--upload-pack=evil")
    assert code == 2 and "is not in the repository" in err  # a revision, never an option of git's
    elsewhere = tmp_path / "plain"
    elsewhere.mkdir()
    (elsewhere / "robots.txt").write_bytes(b"User-agent: *\n")
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    code, _, err = run("robots.txt", "--base", "HEAD")
    assert code == 2 and err.startswith("robotscope: git cannot read .: fatal: ") and err.count("\n") == 1
    code, _, err = run()
    assert code == 2 and err.startswith("robotscope: git cannot read .: fatal: ")


def test_urls_from_a_sitemap_and_bad_lines_skipped_with_their_number(repo: str, tmp_path: Path) -> None:
    sitemap = tmp_path / "sitemap.xml.gz"
    locs = "".join(f"<url><loc>https://shop.example{p}</loc></url>" for p in ("/", "/products/a", "/about"))
    sitemap.write_bytes(
        gzip.compress(f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'.encode())
    )
    _, out, _ = run("--base", repo, "--urls", str(sitemap), "--fail-on", "never", "--agents", "Googlebot")
    assert [line for line in out.splitlines() if "may no longer" in line] == [
        "public/robots.txt: Googlebot may no longer fetch https://shop.example/products/a: "
        f"line {PRODUCTS_LINE}: Disallow: /products/ (before: no rule matches)"
    ]
    listed = tmp_path / "urls.txt"
    listed.write_bytes(b"/products/\njavascript:alert(1)\n\n# fine\n/x\n")
    code, out, err = run("--base", repo, "--urls", str(listed), "--fail-on", "never")
    assert code == 1  # incomplete: a URL was skipped
    assert f"robotscope: warning: {listed}: URL 2 skipped: " in err and "incomplete" in err
    assert "may no longer fetch /products/" in out
    index = tmp_path / "index.xml"
    index.write_bytes(
        b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://x/s.xml</loc></sitemap></sitemapindex>'
    )
    code, _, err = run("--base", repo, "--urls", str(index))
    assert code == 2 and err.startswith(f"robotscope: {index} is not a sitemap of pages: ")
    code, _, err = run("--base", repo, "--urls", str(tmp_path / "missing.txt"))
    assert code == 2 and err.startswith("robotscope: cannot read ")


def test_lint_takes_several_files_in_text_json_and_sarif(repo: str, tmp_path: Path) -> None:
    Path("ok.txt").write_bytes(b"User-agent: *\nDisallow: /x\n")
    runner = CliRunner()
    text = runner.invoke(cli, ["lint", "ok.txt", "public/robots.txt"])
    assert text.exit_code == 1 and "ok.txt: no findings" in text.stdout
    assert f"public/robots.txt:{NO_COLON_LINE}: error missingColon" in text.stdout
    found = json.loads(runner.invoke(cli, ["lint", "ok.txt", "public/robots.txt", "--json"]).stdout)
    assert {(f["file"], f["code"]) for f in found} >= {("public/robots.txt", "missingColon")}
    out = tmp_path / "lint.sarif"
    out.write_text(runner.invoke(cli, ["lint", "ok.txt", "public/robots.txt", "--format", "sarif"]).stdout)
    results = valid_sarif(out)["runs"][0]["results"]
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {"public/robots.txt"}
    refused = runner.invoke(cli, ["lint", "ok.txt", "public/robots.txt", "--fix"])
    assert refused.exit_code == 2 and refused.stderr.startswith("robotscope: --fix takes one file")


@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_lint_json_and_sarif_stay_json_when_a_fetched_file_has_nothing_to_lint(
    repo: str, server: Server, output_format: str
) -> None:
    server.serve("/robots.txt", status=503)
    done = CliRunner().invoke(
        cli, ["lint", "public/robots.txt", server.url("/"), "--format", output_format, "--no-cache"]
    )
    assert done.exit_code == 1
    said = json.loads(done.stdout)  # the unreachable file is said on stderr, not in the middle of the JSON
    found = said if output_format == "json" else said["runs"][0]["results"]
    assert len(found) == 1 and "disallow-all: nothing to lint" in done.stderr
    alone = CliRunner().invoke(cli, ["lint", server.url("/"), "--format", output_format, "--no-cache"])
    nothing = json.loads(alone.stdout)
    assert alone.exit_code == 1 and (nothing if output_format == "json" else nothing["runs"][0]["results"]) == []


def test_generate_check_passes_in_sync_and_fails_with_a_diff(tmp_path: Path) -> None:
    spec = tmp_path / "robots.toml"
    spec.write_text('[[block]]\nagent = "*"\ndisallow = ["/cart/"]\n')
    target = tmp_path / "robots.txt"
    runner = CliRunner()
    assert runner.invoke(cli, ["generate", "--spec", str(spec), "-o", str(target)]).exit_code == 0
    same = runner.invoke(cli, ["generate", "--spec", str(spec), "-o", str(target), "--check"])
    assert same.exit_code == 0 and same.stdout == "" and f"{target} is what the spec generates" in same.stderr
    target.write_bytes(target.read_bytes() + b"Disallow: /hand-edited/\n")
    before = target.read_bytes()
    differs = runner.invoke(cli, ["generate", "--spec", str(spec), "-o", str(target), "--check"])
    assert differs.exit_code == 1 and "-Disallow: /hand-edited/" in differs.stdout.splitlines()
    assert target.read_bytes() == before  # --check writes nothing
    target.unlink()
    missing = runner.invoke(cli, ["generate", "--spec", str(spec), "-o", str(target), "--check"])
    assert missing.exit_code == 1 and "+Disallow: /cart/" in missing.stdout.splitlines() and not target.exists()
    alone = runner.invoke(cli, ["generate", "--spec", str(spec), "--check"])
    assert alone.exit_code == 2 and alone.stderr.startswith("robotscope: --check needs -o FILE")
    target.write_bytes(b"hand-written\n")
    as_json = runner.invoke(cli, ["generate", "--spec", str(spec), "-o", str(target), "--check", "--json"])
    assert as_json.exit_code == 2 and as_json.stderr.startswith("robotscope: --check takes no --json")
