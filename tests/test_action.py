"""The GitHub Action (action.yml): its own `run:` lines, run as a runner would on a temporary repository.

`run_action` reads action.yml, puts each input (given, else its default) and the contexts the steps use in
place of their `${{ ... }}` expressions, and runs every `run:` step in order with bash as GitHub runs it
(`bash --noprofile --norc -eo pipefail`), with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP and
GITHUB_ACTION_PATH set; each step's `if:` is evaluated for the few forms the action uses. An expression or a
condition it does not know fails the test, so a changed action.yml is run as it is, or not at all. `uses:`
steps are not run: the setup-python step's output is this Python, and the upload step's inputs are checked
(the SARIF file it names, the category). `gh` is tests/fake_gh.py, which keeps the pull request's comments.
The fast tests put a stand-in for the installed robotscope where the install step puts it; the slow one runs
the install step too (a virtualenv, pip install of this checkout).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from robotscope.reports.ci import MARKER
from tests.ci_site import NO_COLON_LINE, PRODUCTS_LINE, git, site_repo, valid_sarif
from tests.paths import DOCS, ROOT, TESTS

ACTION = ROOT / "action.yml"
WORKFLOW = DOCS / "github-action.yml"
REPOSITORY = "octo/shop"
PULL_REQUEST = "7"
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Run:
    """One run of the action on `repo`: the context its expressions read, each step's result, the files."""

    def __init__(self, repo: Path, scratch: Path, base: str, inputs: dict[str, str], install: bool) -> None:
        self.repo, self.scratch = repo, scratch
        self.temp = scratch / "runner-temp"
        self.temp.mkdir(parents=True, exist_ok=True)
        self.summary = scratch / "step-summary.md"
        self.context: dict[str, str] = {
            "github.event.pull_request.base.sha": base,
            "github.event.pull_request.number": PULL_REQUEST,
            "github.token": "token-of-the-job",
            "runner.temp": str(self.temp),
            "steps.python.outputs.python-path": sys.executable,
        }
        action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
        for name, spec in action["inputs"].items():
            self.context[f"inputs.{name}"] = self.evaluate(str(inputs.get(name, spec.get("default", ""))))
        self.results: dict[str, subprocess.CompletedProcess[str]] = {}
        self.uploads: list[dict[str, str]] = []
        if not install:
            shim = self.temp / "robotscope" / "bin" / "robotscope"
            shim.parent.mkdir(parents=True, exist_ok=True)
            shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m robotscope "$@"\n')
            shim.chmod(0o755)
        for step in action["runs"]["steps"]:
            if not install and step.get("id") == "install":
                continue
            if "if" in step and not self.condition(step["if"]):
                continue
            if "uses" in step:
                self.uses(step)
            else:
                self.results[step["id"]] = self.run(step)

    def evaluate(self, text: str) -> str:
        def value(found: re.Match[str]) -> str:
            expression = found[1]
            if expression not in self.context:
                pytest.fail(f"action.yml uses ${{{{ {expression} }}}}, which this test does not provide")
            return self.context[expression]

        return _EXPRESSION.sub(value, text)

    def condition(self, text: str) -> bool:
        """An `if:`: terms joined by `&&`, each `NAME == 'value'`, `NAME != 'value'` or a context's truth."""
        results = []
        for term in (t.strip() for t in text.removeprefix("${{").removesuffix("}}").split("&&")):
            compared = re.fullmatch(r"([\w.-]+) (==|!=) '([^']*)'", term)
            if compared is not None:
                name, operator, wanted = compared.groups()
                known = self.context.get(name, "")  # an output no step set is empty
                results.append((known == wanted) == (operator == "=="))
            elif term == "github.event.pull_request":
                results.append("github.event.pull_request.number" in self.context)
            else:
                pytest.fail(f"action.yml has the condition {term!r}, which this test cannot evaluate")
        return all(results)

    def uses(self, step: dict[str, Any]) -> None:
        if step["uses"].startswith("github/codeql-action/upload-sarif@"):
            self.uploads.append({k: self.evaluate(str(v)) for k, v in step["with"].items()})
        else:
            assert step["uses"].startswith("actions/setup-python@"), step["uses"]

    def run(self, step: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        script = self.scratch / f"{step['id']}.sh"
        script.write_text(self.evaluate(step["run"]), encoding="utf-8")
        outputs = self.scratch / f"{step['id']}.outputs"
        outputs.write_text("")
        env = {
            "PATH": f"{self.scratch / 'bin'}{os.pathsep}{os.environ['PATH']}",
            "HOME": str(self.scratch),
            "XDG_CACHE_HOME": str(self.scratch / "cache"),
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GITHUB_ACTION_PATH": str(ROOT),
            "GITHUB_OUTPUT": str(outputs),
            "GITHUB_REPOSITORY": REPOSITORY,
            "GITHUB_STEP_SUMMARY": str(self.summary),
            "GITHUB_WORKSPACE": str(self.repo),
            "RUNNER_TEMP": str(self.temp),
            "FAKE_GH_STATE": str(self.scratch / "pull-request.json"),
            "FAKE_GH_REPO": REPOSITORY,
            **{k: os.environ[k] for k in ("PYTHONPATH", "LANG", "PIP_FIND_LINKS") if k in os.environ},
            **{k: self.evaluate(str(v)) for k, v in step.get("env", {}).items()},
        }
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=self.repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        for line in outputs.read_text().splitlines():
            name, _, value = line.partition("=")
            self.context[f"steps.{step['id']}.outputs.{name}"] = value
        return done


@pytest.fixture
def site(tmp_path: Path) -> tuple[Path, str, Path]:
    """The site's repository, its base commit, and a scratch folder with `gh` and a pull request of 3 comments."""
    repo = tmp_path / "site"
    base = site_repo(repo)
    scratch = tmp_path / "runner"
    (scratch / "bin").mkdir(parents=True)
    gh = scratch / "bin" / "gh"
    gh.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{TESTS / "fake_gh.py"}" "$@"\n')
    gh.chmod(0o755)
    others = [{"id": n, "body": f"a reviewer's comment {n}", "user": {"login": "someone"}} for n in (1, 2, 3)]
    (scratch / "pull-request.json").write_text(json.dumps({"comments": others, "calls": []}))
    return repo, base, scratch


def pull_request(scratch: Path) -> dict[str, Any]:
    state: dict[str, Any] = json.loads((scratch / "pull-request.json").read_text())
    return state


INPUTS = {"urls": "urls.txt", "expect": "robots-expect.toml", "comment": "true", "sarif": "true"}


def test_a_pull_request_that_blocks_googlebot_gets_sarif_one_comment_and_fails(site: tuple[Path, str, Path]) -> None:
    repo, base, scratch = site
    first = Run(repo, scratch, base, INPUTS, install=False)
    check = first.results["check"]
    assert check.returncode == 0, check.stderr  # the step keeps robotscope's status for the last step
    assert first.context["steps.check.outputs.status"] == "1"
    assert first.results["result"].returncode == 1  # the action fails: a failed expectation, a lint error
    # Annotations for the flips and the failed expectation; the lint findings went to code scanning.
    commands = [line for line in check.stdout.splitlines() if line.startswith("::")]
    assert f"::error file=public/robots.txt,line={PRODUCTS_LINE},title=robotscope expectAllow::" in "\n".join(commands)
    assert not any("missingColon" in c for c in commands)
    # The SARIF log the upload step names: valid 2.1.0, the findings on their lines, category robotscope.
    (upload,) = first.uploads
    assert upload["category"] == "robotscope"
    results = valid_sarif(Path(upload["sarif_file"]))["runs"][0]["results"]
    assert {(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results} == {
        ("missingColon", NO_COLON_LINE)
    }
    # One comment, found by its marker on the second page of the pull request's comments.
    comments = pull_request(scratch)["comments"]
    ours = [c for c in comments if c["body"].startswith(MARKER)]
    assert len(comments) == 4 and len(ours) == 1
    rows = ours[0]["body"].splitlines()
    assert (
        f"| `googlebot` | `/products/` | allowed: no rule matches | **disallowed**: line {PRODUCTS_LINE} "
        "`Disallow: /products/` |"
    ) in rows
    assert any("`/products/shoes`" in row for row in rows)
    assert first.summary.read_text(encoding="utf-8").startswith(MARKER)

    # The next push: the change now blocks /products/ for every crawler. The same comment is edited.
    head = (
        (repo / "public" / "robots.txt")
        .read_bytes()
        .replace(b"User-agent: *\nDisallow: /cart/\n", b"User-agent: *\nDisallow: /cart/\nDisallow: /products/\n")
    )
    (repo / "public" / "robots.txt").write_bytes(head)
    git(repo, "commit", "-q", "-am", "Block the product pages for everyone")
    Run(repo, scratch, base, INPUTS, install=False)
    state = pull_request(scratch)
    ours = [c for c in state["comments"] if c["body"].startswith(MARKER)]
    assert len(state["comments"]) == 4 and len(ours) == 1 and ours[0]["id"] == 1003
    assert "| `* (others)` | `/products/` | allowed: no rule matches |" in ours[0]["body"]
    methods = [call[2] for call in state["calls"] if call[1] == "--method"]
    assert methods == ["POST", "PATCH"]


def test_a_comment_someone_else_starts_with_the_marker_is_left_alone(site: tuple[Path, str, Path]) -> None:
    repo, base, scratch = site
    state = pull_request(scratch)
    planted = {"id": 4, "body": f"{MARKER}\nrobotscope: the check passes", "user": {"login": "mallory"}}
    state["comments"].append(planted)
    (scratch / "pull-request.json").write_text(json.dumps(state))
    Run(repo, scratch, base, INPUTS, install=False)
    Run(repo, scratch, base, INPUTS, install=False)  # the next push edits robotscope's own comment
    comments = pull_request(scratch)["comments"]
    assert planted in comments  # neither edited nor taken for robotscope's
    (ours,) = [c for c in comments if c["body"].startswith(MARKER) and c["user"]["login"] == "github-actions[bot]"]
    assert "`Disallow: /products/`" in ours["body"]
    methods = [call[2] for call in pull_request(scratch)["calls"] if call[1] == "--method"]
    assert methods == ["POST", "PATCH"]


def test_without_code_scanning_the_findings_are_annotations_and_fail_on_never_passes(
    site: tuple[Path, str, Path],
) -> None:
    repo, base, scratch = site
    done = Run(repo, scratch, base, {"fail-on": "never"}, install=False)
    commands = [line for line in done.results["check"].stdout.splitlines() if line.startswith("::")]
    assert f"::error file=public/robots.txt,line={NO_COLON_LINE},title=robotscope missingColon::" in "\n".join(commands)
    assert any("a verdict flips" in c and f"line={PRODUCTS_LINE}" in c for c in commands)
    assert done.context["steps.check.outputs.status"] == "0" and done.results["result"].returncode == 0
    assert done.uploads == [] and "comment" not in done.results and pull_request(scratch)["calls"] == []


def test_bad_input_fails_with_exit_2_and_neither_uploads_nor_comments(site: tuple[Path, str, Path]) -> None:
    repo, base, scratch = site
    done = Run(repo, scratch, base, {**INPUTS, "expect": "missing.toml"}, install=False)
    assert done.context["steps.check.outputs.status"] == "2" and done.results["result"].returncode == 2
    assert done.results["check"].stderr.startswith("robotscope: cannot read missing.toml: ")
    assert done.uploads == [] and "comment" not in done.results


@pytest.mark.slow
def test_the_install_step_installs_this_checkout_and_the_check_runs_from_it(site: tuple[Path, str, Path]) -> None:
    repo, base, scratch = site
    done = Run(repo, scratch, base, INPUTS, install=True)
    assert done.results["install"].returncode == 0, done.results["install"].stderr
    assert (done.temp / "robotscope" / "bin" / "robotscope").exists()
    assert done.context["steps.check.outputs.status"] == "1" and done.results["result"].returncode == 1
    assert len([c for c in pull_request(scratch)["comments"] if c["body"].startswith(MARKER)]) == 1


def schema_check(schema: str, path: Path) -> subprocess.CompletedProcess[str]:
    """check-jsonschema with its vendored copy of SchemaStore's schema (`vendor.github-actions`, ...)."""
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_action_yml_and_the_docs_workflow_meet_github_s_schemas(tmp_path: Path) -> None:
    done = schema_check("vendor.github-actions", ACTION)
    assert done.returncode == 0, done.stdout + done.stderr
    done = schema_check("vendor.github-workflows", WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr
    # The check can fail: a run step without its shell is not a composite action's step.
    broken = tmp_path / "action.yml"
    broken.write_text(ACTION.read_text(encoding="utf-8").replace("      shell: bash\n", "", 1), encoding="utf-8")
    assert schema_check("vendor.github-actions", broken).returncode == 1


def test_the_docs_workflow_uses_this_action_with_the_permissions_it_needs() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    (job,) = workflow["jobs"].values()
    assert job["permissions"] == {"contents": "read", "pull-requests": "write", "security-events": "write"}
    checkout, action = job["steps"][0], job["steps"][1]
    assert checkout["uses"].startswith("actions/checkout@") and checkout["with"]["fetch-depth"] == 0
    assert action["uses"].endswith("/robotscope@v1")
    assert set(action["with"]) <= set(yaml.safe_load(ACTION.read_text(encoding="utf-8"))["inputs"])
