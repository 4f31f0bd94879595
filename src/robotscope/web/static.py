"""Where the page's files are: the `static` folder shipped in the package (HTML, CSS, JavaScript; no build step)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

STATIC = Path(str(files(__package__).joinpath("static")))
