"""The page's source, read as files: one module entry point, text-only DOM writes, one module
talking to the server, and labels that all exist in both catalogues (and none left unused).

No browser needed; these sit with the browser tests because they are about the same files.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pytest

from robotscope.access.policy import POLICIES, Action
from robotscope.messages import LANGS
from robotscope.reports.analysis import page_strings
from robotscope.reports.generator import PRESETS
from robotscope.reports.watch.alerts import Severity as AlertSeverity
from robotscope.syntax.crawlers import PURPOSES
from robotscope.syntax.model import Severity

STATIC = Path(str(files("robotscope.web").joinpath("static")))
MODULES = sorted((STATIC / "js").rglob("*.js"))
PAGE = (STATIC / "index.html").read_text(encoding="utf-8")

# Labels the modules build from data (t("purpose." + crawler.purpose)): each prefix with every value it takes.
DYNAMIC = {
    "purpose.": set(PURPOSES),
    "severity.": {s.value for s in Severity},
    "policy.": set(POLICIES),
    "action.": {action.value for action in Action},
    "ignored.": {"invalid", "outside-group", "over-limit"},  # structure.ignored[].reason
    "lang.": set(LANGS),
    "gen.presetNote.": set(PRESETS),
    "gen.preset.": set(PRESETS),  # the presets come from /api/info
    "history.severity.": {s.value for s in AlertSeverity},  # a version's worst alert (/api/history)
}
# Labels the page's worker renders in Python (the log audit's refusals, reports.audit.stream), not the page's modules.
WORKER = {"logs.badDirective", "logs.badSite", "logs.compressed"}


def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_page_loads_one_module_and_names_its_back_end() -> None:
    # Relative, so the same page works at / (robotscope serve) and in any folder (the static build).
    assert re.findall(r"<script[^>]*>", PAGE) == ['<script type="module" src="static/js/main.js">']
    assert '<meta name="robotscope-backend" content="server">' in PAGE
    assert "style=" not in PAGE and "<style" not in PAGE
    assert not (STATIC / "app.js").exists() and not (STATIC / "i18n").exists()


@pytest.mark.parametrize("path", [STATIC / "index.html", STATIC / "app.css", *MODULES], ids=lambda p: p.name)
def test_no_third_party_url(path: Path) -> None:
    # SVG's namespace name is an identifier createElementNS needs, never fetched.
    assert not re.search(r"https?://(?!www\.example\.com|127\.0\.0\.1|www\.w3\.org/2000/svg\b)", source(path))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_user_data_reaches_the_page_as_text_only(path: Path) -> None:
    text = re.sub(r"/\*.*?\*/", "", source(path), flags=re.DOTALL)  # comments may name what is forbidden
    for forbidden in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert forbidden not in text, (path.name, forbidden)


def test_only_the_back_end_modules_talk_to_the_server() -> None:
    # The server back end, and the static build's (its fixed answers, Pyodide and the package, from its own folder).
    callers = [
        p.name for p in MODULES if re.search(r"(?<![.\w])fetch\(|XMLHttpRequest|WebSocket|sendBeacon", source(p))
    ]
    assert callers == ["backend.js", "pyodide-backend.js", "pyodide-worker.js"]
    # The limits are the server's (GET /api/info), not copies.
    for path in MODULES:
        assert not re.search(r"\b(1000 \* 1000|1024 \* 1024|1048576)\b|slice\(0, \d", source(path)), path.name


def used_labels() -> tuple[set[str], set[str]]:
    """The labels the page uses by name, and the prefixes it builds labels from."""
    js = "\n".join(source(p) for p in MODULES)
    named = set(re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', PAGE)) | set(re.findall(r'\bt\("([^"]+)"[,)]', js))
    # Chosen, then shown: t(cond ? "a" : "b"), and the labels a panel hands `keeper` ({replaced: "fetch.replaced"}).
    for pair in re.findall(r'\bt\([^()"]*\? "([^"]+)" : "([^"]+)"\)', js):
        named |= set(pair)
    named |= set(re.findall(r'\b[a-zA-Z]+: "([a-z]+\.[A-Za-z]+)"', js))
    prefixes = set(re.findall(r'\bt\("([^"]+)"\s*\+', js)) | set(re.findall(r'\bi18n: "([^"]+)"\s*\+', js))
    return named, prefixes


@pytest.mark.parametrize("lang", LANGS)
def test_every_label_the_page_uses_exists_and_none_is_unused(lang: str) -> None:
    strings = page_strings(lang)
    named, prefixes = used_labels()
    assert prefixes == set(DYNAMIC)
    dynamic = {prefix + value for prefix, values in DYNAMIC.items() for value in values}
    assert named - set(strings) == set()
    assert dynamic - set(strings) == set()
    assert set(strings) - named - dynamic - WORKER == set()  # a label nobody shows is dead
    assert all(isinstance(v, str) and v for v in strings.values())
