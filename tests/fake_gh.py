"""A stand-in for the GitHub CLI's `gh api`, for the action's comment step: the calls that step makes, on a
pull request's comments kept in a JSON file (FAKE_GH_STATE), each call recorded there.

Only what the step uses is accepted (anything else exits 1, so a changed step fails its test):

    gh api graphql -f query=QUERY --jq EXPR                           the token's own login (the viewer) through jq -r
    gh api --paginate repos/OWNER/REPO/issues/N/comments --jq EXPR   each page of two comments through jq -r
    gh api --method POST repos/OWNER/REPO/issues/N/comments -F body=@FILE
    gh api --method PATCH repos/OWNER/REPO/issues/comments/ID -F body=@FILE

`--jq` is run by the real jq, as `gh` runs its own on each page. GH_TOKEN must be set, as gh needs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

PAGE = 2  # comments a page: more than one page exercises --paginate
# Whose token it is: GitHub's REST API names the job token's bot `github-actions[bot]`, its GraphQL viewer
# `github-actions`.
BOT = "github-actions"


def main(args: list[str]) -> int:
    if not os.environ.get("GH_TOKEN"):
        print("gh: no GH_TOKEN", file=sys.stderr)
        return 4
    state_file = Path(os.environ["FAKE_GH_STATE"])
    state: dict[str, Any] = json.loads(state_file.read_text(encoding="utf-8"))
    state["calls"].append(args)
    try:
        return _api(args, state)
    finally:
        state_file.write_text(json.dumps(state), encoding="utf-8")


def _api(args: list[str], state: dict[str, Any]) -> int:
    repo = re.escape(os.environ["FAKE_GH_REPO"])
    match args:
        case ["api", "graphql", "-f", query, "--jq", expression] if re.fullmatch(
            r"query=(query)?\s*\{\s*viewer\s*\{\s*login\s*\}\s*\}", query
        ):
            return _jq(expression, json.dumps({"data": {"viewer": {"login": BOT}}}))
        case ["api", "--paginate", path, "--jq", expression] if re.fullmatch(
            rf"repos/{repo}/issues/\d+/comments", path
        ):
            comments = state["comments"]
            for start in range(0, max(len(comments), 1), PAGE):
                if _jq(expression, json.dumps(comments[start : start + PAGE])):
                    return 1
            return 0
        case ["api", "--method", "POST", path, "-F", field] if re.fullmatch(rf"repos/{repo}/issues/\d+/comments", path):
            body = _body(field)
            state["comments"].append(
                {"id": 1000 + len(state["comments"]), "body": body, "user": {"login": f"{BOT}[bot]"}}
            )
            return 0
        case ["api", "--method", "PATCH", path, "-F", field] if found := re.fullmatch(
            rf"repos/{repo}/issues/comments/(\d+)", path
        ):
            for comment in state["comments"]:
                if comment["id"] == int(found[1]):
                    comment["body"] = _body(field)
                    return 0
            print("gh: HTTP 404: Not Found", file=sys.stderr)
            return 1
    print(f"gh: unexpected call {args}", file=sys.stderr)
    return 1


def _jq(expression: str, data: str) -> int:
    """`expression` applied to `data` by the real jq (-r), its output on stdout, as `gh api --jq` does."""
    jq = subprocess.run(["jq", "-r", expression], input=data, capture_output=True, text=True, check=False)
    if jq.returncode:
        print(f"gh: jq: {jq.stderr}", file=sys.stderr)
        return 1
    sys.stdout.write(jq.stdout)
    return 0


def _body(field: str) -> str:
    name, _, value = field.partition("=@")
    assert name == "body", field
    return Path(value).read_text(encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
