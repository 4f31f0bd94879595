"""Real web servers from Debian on 127.0.0.1, each with a generated rule file, for the export tests.

`start(target, folder, files, ...)` writes a whole configuration around the
exported files (loopback, a free high port, pid and log files in `folder`);
with `snippet=True`, around a file of another layout (ai.robots.txt's): nginx
includes it in the `server` block, Apache reads it as the site's `.htaccess`.
It
runs the server's own configuration check, starts the server as a child of
the test, waits (a bounded number of polls) until its port answers, and
returns a `Running`; `stop` ends it by its PID. No root is needed; as root,
the servers that drop privileges read a site folder anyone may read.
HAProxy forwards to `backend`, a test HTTP server.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

POLLS = 200  # tries to connect, 50 ms apart: at most about 10 s for a server to start
APACHE_MODULES = Path("/usr/lib/apache2/modules")


class Running(NamedTuple):
    target: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path


def program(name: str) -> str:
    """The server's program: on the PATH, or in /usr/sbin (which a user's PATH may lack)."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    assert found is not None, f"{name} is not installed (.ci/run installs it)"
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def site(paths: Sequence[str]) -> Path:
    """A document root holding a file at each path (query strings aside), which anyone may read: a server
    that drops root's privileges cannot enter pytest's own folders. The caller removes it."""
    root = Path(tempfile.mkdtemp(prefix="robotscope-site-"))
    for path in {path.split("?")[0] for path in paths}:
        name = root / path.lstrip("/") / "index.html" if path.endswith("/") else root / path.lstrip("/")
        name.parent.mkdir(parents=True, exist_ok=True)
        name.write_text("ok\n", encoding="utf-8")
    for where in [root, *root.rglob("*")]:
        where.chmod(0o755 if where.is_dir() else 0o644)
    return root


def _nginx(folder: Path, root: Path, port: int, snippet: bool) -> tuple[list[str], list[str], Path]:
    user = "user nobody nogroup;\n" if os.geteuid() == 0 else ""
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = " ".join(f"{kind}_temp_path {folder}/{kind};" for kind in kinds)
    included = f"include {folder}/robotscope.conf;"
    rule = included if snippet else "if ($robotscope_deny) { return 403; }"
    config = folder / "nginx.conf"
    config.write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n  access_log off;\n  {temp}\n  {'' if snippet else included}\n"
        f"  server {{\n    listen 127.0.0.1:{port};\n    root {root};\n"
        f"    {rule}\n  }}\n}}\n",
        encoding="utf-8",
    )
    common = ["-c", str(config), "-p", str(folder), "-e", f"{folder}/error.log"]
    return [program("nginx"), "-t", *common], [program("nginx"), *common], folder / "error.log"


def _apache(folder: Path, root: Path, port: int, snippet: bool) -> tuple[list[str], list[str], Path]:
    modules = "".join(
        f"LoadModule {name}_module {APACHE_MODULES}/mod_{name}.so\n"
        for name in ("mpm_event", "authz_core", "setenvif", "dir", "rewrite", "access_compat")
    )
    user = "User #65534\nGroup #65534\n" if os.geteuid() == 0 else ""
    if snippet:  # the site's .htaccess
        shutil.copyfile(folder / "robotscope.conf", root / ".htaccess")
        (root / ".htaccess").chmod(0o644)
    override = "AllowOverride All" if snippet else "AllowOverride None"
    include = "" if snippet else f"    Include {folder}/robotscope.conf\n"
    config = folder / "httpd.conf"
    config.write_text(
        f'ServerRoot "{folder}"\n{modules}{user}Listen 127.0.0.1:{port}\nServerName 127.0.0.1\n'
        f"PidFile {folder}/httpd.pid\nErrorLog {folder}/error.log\nDefaultRuntimeDir {folder}\n"
        f"DocumentRoot {root}\nDirectoryIndex index.html\n<Directory {root}>\n    Require all granted\n"
        f"    {override}\n</Directory>\n"
        f"<VirtualHost 127.0.0.1:{port}>\n    DocumentRoot {root}\n{include}"
        "</VirtualHost>\n",
        encoding="utf-8",
    )
    common = ["-f", str(config), "-d", str(folder)]
    return [program("apache2"), "-t", *common], [program("apache2"), "-X", *common], folder / "error.log"


def _caddy(folder: Path, root: Path, port: int) -> tuple[list[str], list[str], Path]:
    config = folder / "Caddyfile"
    config.write_text(
        "{\n\tadmin off\n\tauto_https off\n}\n"
        f"http://127.0.0.1:{port} {{\n\timport {folder}/robotscope.caddy\n\troot * {root}\n\tfile_server\n}}\n",
        encoding="utf-8",
    )
    common = ["--config", str(config), "--adapter", "caddyfile"]
    return [program("caddy"), "validate", *common], [program("caddy"), "run", *common], folder / "server.log"


def _haproxy(folder: Path, port: int, backend: int) -> tuple[list[str], list[str], Path]:
    fragment = (folder / "robotscope.cfg").read_text(encoding="utf-8")
    config = folder / "haproxy.cfg"
    config.write_text(
        "defaults\n    mode http\n    timeout connect 5s\n    timeout client 5s\n    timeout server 5s\n"
        f"frontend web\n    bind 127.0.0.1:{port}\n"
        + "".join(f"    {line}\n" for line in fragment.splitlines())
        + f"    default_backend site\nbackend site\n    server local 127.0.0.1:{backend}\n",
        encoding="utf-8",
    )
    common = ["-f", str(config)]
    return [program("haproxy"), "-c", *common], [program("haproxy"), "-db", *common], folder / "server.log"


def _lighttpd(folder: Path, root: Path, port: int) -> tuple[list[str], list[str], Path]:
    config = folder / "lighttpd.conf"
    config.write_text(
        f'server.document-root = "{root}"\nserver.port = {port}\nserver.bind = "127.0.0.1"\n'
        f'server.errorlog = "{folder}/error.log"\nserver.modules = ("mod_access")\n'
        f'index-file.names = ("index.html")\ninclude "{folder}/robotscope.conf"\n',
        encoding="utf-8",
    )
    common = ["-f", str(config)]
    return [program("lighttpd"), "-tt", *common], [program("lighttpd"), "-D", *common], folder / "error.log"


def _environment(folder: Path) -> dict[str, str]:
    # Caddy keeps its state under the home and XDG folders: the test's own.
    return {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder), "XDG_CONFIG_HOME": str(folder)}


def check(
    target: str, folder: Path, root: Path, port: int, backend: int = 0, snippet: bool = False
) -> tuple[list[str], Path]:
    """Write the configuration around the exported files in `folder` and run the server's own check; the
    command that starts the server, and its log."""
    if target == "haproxy":
        test, run, log = _haproxy(folder, port, backend)
    elif target == "nginx":
        test, run, log = _nginx(folder, root, port, snippet)
    elif target == "apache":
        test, run, log = _apache(folder, root, port, snippet)
    else:
        make = {"caddy": _caddy, "lighttpd": _lighttpd}[target]
        test, run, log = make(folder, root, port)
    done = subprocess.run(test, capture_output=True, text=True, timeout=60, env=_environment(folder), check=False)
    assert done.returncode == 0, f"{' '.join(test)}:\n{done.stdout}\n{done.stderr}"
    return run, log


def start(target: str, folder: Path, root: Path, backend: int = 0, snippet: bool = False) -> Running:
    """Check and start the server on a free port; stopped (by PID) if it never answers."""
    port = free_port()
    run, log = check(target, folder, root, port, backend, snippet)
    with open(folder / "server.log", "ab") as output:
        process = subprocess.Popen(run, stdout=output, stderr=subprocess.STDOUT, env=_environment(folder))
    for _ in range(POLLS):
        if process.poll() is not None:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return Running(target, port, process, log)
        except OSError:
            time.sleep(0.05)
    stop(process)
    raise AssertionError(f"{target} did not answer on port {port}:\n{_tail(log)}\n{_tail(folder / 'server.log')}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """End the server by its PID: politely, then for good."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _tail(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")[-2000:] if path.exists() else ""
