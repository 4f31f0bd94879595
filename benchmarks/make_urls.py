"""Write a file of N URLs (default 1,000,000) for the bulk benchmark: deterministic, varied paths.

python benchmarks/make_urls.py /tmp/urls.txt 1000000
"""

from __future__ import annotations

import random
import sys

SECTIONS = [
    "",
    "cart/",
    "search",
    "search/help",
    "products/",
    "blog/2024/",
    "static/js/",
    "docs/",
    "drafts/",
    "en/",
    "de/",
]
LEAVES = ["", "index.html", "item-{n}", "a.pdf", "page?id={n}", "page?sessionid={n}", "caf\u00e9-{n}", "x%20y-{n}"]


def main() -> None:
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    rng = random.Random(9309)
    with open(path, "w", encoding="utf-8") as out:
        for n in range(count):
            leaf = rng.choice(LEAVES).format(n=n)
            out.write(f"https://www.example.com/{rng.choice(SECTIONS)}{leaf}\n")


if __name__ == "__main__":
    main()
