"""`robotscope build-site`: the tester page as one static folder, the core running in the browser.

The folder holds the same page as `robotscope serve` (index.html names the
`pyodide` back end), the robotscope modules the page's API and its log audit
need (the import closure of `robotscope.reports.api` and
`robotscope.reports.audit.stream`: pure core only, no I/O) with their data
(the catalogues, the messages, the IP lists' snapshots), the log report's
style sheet (static/audit.css), the answers that never change for a build
(api/*.json) and a Pyodide runtime, taken from the npm registry's `pyodide`
package at build time (`npm pack`, cached) or from --pyodide. Nothing is
loaded from anywhere else when the page runs.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from importlib.resources import files
from pathlib import Path

import click

from .._version import __version__
from ..cache import default_path
from ..messages import LANGS
from ..reports.api import crawlers_answer, info_answer, policies_answer, strings_answer
from ..reports.audit.html import STYLE
from .output import fail

PYODIDE_VERSION = "0.29.5"  # pinned: its Python (3.13) runs the core; change with the browser tests
# What the page loads of a Pyodide release: the module, the runtime, the standard library, its lock file.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
MARKER = "robotscope-site.json"  # what a built folder holds, so --force replaces only such a folder
# Content-Security-Policy of the static page: its own folder only; WebAssembly may be compiled.
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
    "style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'"
)
PACKAGE = Path(str(files("robotscope")))
ENTRIES = ("reports.api", "reports.audit.stream")  # what the page's worker imports
DATA = (".json", ".csv")  # data files beside the modules, and in their folders that are no package (iplists/)


def site_modules(entry: str = "reports.api") -> list[Path]:
    """The package's modules `robotscope.<entry>` imports, directly or not, with their packages' `__init__`s.

    Imports under `if TYPE_CHECKING:` are left out: they name the I/O edges
    for type checkers only, and the page never imports them.
    """
    wanted, seen = [PACKAGE.joinpath(*entry.split(".")).with_suffix(".py")], set()
    while wanted:
        path = wanted.pop()
        if path in seen or not path.exists():
            continue
        seen.add(path)
        package = list(path.relative_to(PACKAGE).parts[:-1])
        wanted += [PACKAGE.joinpath(*package[:depth], "__init__.py") for depth in range(len(package) + 1)]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = [*base, *node.module.split(".")] if node.module else base
            module = module[1:] if module[:1] == ["robotscope"] else module
            for target in (module, *([*module, alias.name] for alias in node.names)):
                wanted += [PACKAGE.joinpath(*target).with_suffix(".py"), PACKAGE.joinpath(*target, "__init__.py")]
    return sorted(seen)


def _imports(tree: ast.AST) -> list[ast.ImportFrom]:
    """The `from ... import` statements of robotscope's own modules in `tree`, outside `if TYPE_CHECKING:`."""
    found: list[ast.ImportFrom] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] == "robotscope"):
            found.append(node)
        found += _imports(node)
    return found


def _package_zip(out: Path) -> int:
    """robotscope.zip: the site's modules and the data files beside them (messages, catalogue, cases, the IP
    lists' snapshots)."""
    modules = sorted({path for entry in ENTRIES for path in site_modules(entry)})
    folders = {path.parent for path in modules}
    data = [p for folder in folders for p in folder.iterdir() if p.suffix in DATA or p.name == "py.typed"]
    data += [
        p
        for folder in folders
        for sub in folder.iterdir()
        if sub.is_dir() and not (sub / "__init__.py").exists()
        for p in sub.iterdir()
        if p.suffix in DATA
    ]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted({*modules, *data}):
            archive.write(path, Path("robotscope") / path.relative_to(PACKAGE))
    return len(modules)


def _pyodide(given: str | None) -> Path:
    """A folder holding PYODIDE_FILES: --pyodide, or the pinned npm package, fetched once into the cache."""
    if given is not None:
        folder = Path(given)
    else:
        folder = default_path().parent / f"pyodide-{PYODIDE_VERSION}"  # beside the robots.txt cache
        if not (folder / "pyodide.mjs").exists():
            _npm_pack(folder)
    missing = [name for name in PYODIDE_FILES if not (folder / name).is_file()]
    if missing:
        fail(f"{folder} is not a Pyodide release: it has no {', '.join(missing)}")
    return folder


def _npm_pack(folder: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        fail(
            "npm not found: install Node.js and npm (Debian: apt-get install nodejs npm), "
            f"or pass --pyodide DIR holding Pyodide {PYODIDE_VERSION}"
        )
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        tarballs = list(Path(tmp).glob("pyodide-*.tgz"))
        if done.returncode != 0 or not tarballs:
            fail(
                f"npm pack pyodide@{PYODIDE_VERSION} failed: {(done.stderr.strip().splitlines() or ['no tarball'])[-1]}"
            )
        with tarfile.open(tarballs[0]) as archive:
            archive.extractall(tmp, filter="data")  # regular files under the folder only
        folder.parent.mkdir(parents=True, exist_ok=True)
        if folder.exists():
            shutil.rmtree(folder)
        shutil.move(str(Path(tmp) / "package"), folder)


def _index_html(source: str) -> str:
    """The server page's index.html, naming the Pyodide back end, with the static page's CSP and the log
    report's style sheet (only this build has the Logs panel)."""
    server = '<meta name="robotscope-backend" content="server">'
    if server not in source:
        fail("index.html names no back end: the page and build-site are out of step")
    return source.replace(
        server,
        '<meta name="robotscope-backend" content="pyodide">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<link rel="stylesheet" href="static/audit.css">',
    )


def _write_json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@click.command("build-site")
@click.argument("out_dir", type=click.Path(file_okay=False))
@click.option(
    "--pyodide",
    "pyodide_dir",
    type=click.Path(file_okay=False, exists=True),
    help=f"A folder holding Pyodide {PYODIDE_VERSION} (default: npm's `pyodide` package, fetched once and cached).",
)
@click.option("--force", is_flag=True, help="Replace OUT_DIR if it holds an earlier build.")
def build_site(out_dir: str, pyodide_dir: str | None, force: bool) -> None:
    """Write the tester page as a static folder that runs robotscope in the browser (Pyodide).

    Host OUT_DIR on any static file server (GitHub Pages, a file share, a
    CDN): the page needs no robotscope process, loads nothing from anywhere
    else and sends nothing anywhere. It has everything `robotscope serve` has
    but fetching a live robots.txt, and a Logs panel that audits an access
    log in the browser (`robotscope logs` against one robots.txt, IP lists
    without DNS). Needs Node.js's npm the first time (or --pyodide).

    \b
    Examples:
      robotscope build-site site/ && python3 -m http.server -d site/ 8000
    """
    out = Path(out_dir)
    if out.exists() and any(out.iterdir()):
        if not force:
            fail(f"{out} is not empty: pass --force to replace an earlier build")
        if not (out / MARKER).is_file():
            fail(f"refusing to replace {out}: it holds no {MARKER}, so it is not a robotscope site")
        shutil.rmtree(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # under a file, on a read-only or pseudo file system
        fail(f"cannot write {out_dir!r}: {error.strerror or error}")
    pyodide = _pyodide(pyodide_dir)
    static = Path(str(files("robotscope.web").joinpath("static")))
    shutil.copytree(static, out / "static", ignore=shutil.ignore_patterns("index.html"))
    (out / "index.html").write_text(_index_html((static / "index.html").read_text(encoding="utf-8")), encoding="utf-8")
    (out / "static" / "audit.css").write_text(STYLE, encoding="utf-8")
    (out / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, out / "pyodide" / name)
    modules = _package_zip(out / "robotscope.zip")
    api = out / "api"
    api.mkdir()
    # The page runs the package's source under Pyodide, whichever build writes the site.
    _write_json(api / "info.json", info_answer("en", fetch=False, guarded_fetch=False, build="pure"))
    _write_json(api / "crawlers.json", crawlers_answer())
    for lang in LANGS:
        _write_json(api / f"strings-{lang}.json", strings_answer(lang))
        _write_json(api / f"policies-{lang}.json", policies_answer(lang))
    sizes = {str(p.relative_to(out)): p.stat().st_size for p in sorted(out.rglob("*")) if p.is_file()}
    _write_json(
        out / MARKER,
        {
            "robotscope": __version__,
            "pyodide": json.loads((pyodide / "package.json").read_text())["version"],
            "bytes": sizes,
        },
    )
    total = sum(sizes.values())
    click.echo(
        f"{out}: {len(sizes)} files, {total / 2**20:.1f} MiB ({modules} robotscope modules, Pyodide {PYODIDE_VERSION})"
    )
    click.echo(f"serve it with any static file server, e.g.: python3 -m http.server -d {out} 8000")
