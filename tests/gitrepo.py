"""A temporary git repository for the CI tests: a base commit and a head commit of a site's robots.txt."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

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
