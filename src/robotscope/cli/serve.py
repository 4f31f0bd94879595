"""`robotscope serve`: run the web tester (robotscope.web) under uvicorn and open the browser.

Needs the `web` extra (starlette, uvicorn) besides `cli`. Binds to
127.0.0.1 by default. Bound to any other address, the fetch panel refuses
loopback, private and link-local targets unless --allow-private-fetch.
"""

from __future__ import annotations

import threading
import webbrowser

import click


def _browser_url(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def open_browser_later(url: str, delay: float = 1.0) -> None:
    """Open `url` in the user's browser once the server has had a moment to start."""
    timer = threading.Timer(delay, webbrowser.open, args=(url,))
    timer.daemon = True
    timer.start()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--no-browser", is_flag=True, help="Do not open a web browser.")
@click.option(
    "--allow-private-fetch",
    is_flag=True,
    help="Let the fetch panel reach loopback, private and link-local addresses even when not bound to loopback.",
)
def serve(host: str, port: int, no_browser: bool, allow_private_fetch: bool) -> None:
    """Start the web tester: paste a robots.txt, see which line decides.

    \b
    Examples:
      robotscope serve
      robotscope serve --port 8080 --no-browser
    """
    try:
        import uvicorn

        from ..web.app import create_app, is_loopback_host
    except ImportError as error:
        raise click.ClickException(f"the web tester needs the web extra: pip install 'robotscope[web]' ({error})") from None

    loopback = is_loopback_host(host)
    app = create_app(allow_private_fetch=allow_private_fetch, bound_to_loopback=loopback)
    url = _browser_url(host, port)
    if not loopback and not allow_private_fetch:
        click.echo("robotscope: listening on a non-loopback address; the fetch panel refuses private targets.", err=True)
    click.echo(f"robotscope: serving on {url} (Ctrl+C to stop)", err=True)
    if not no_browser:
        open_browser_later(url)
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False)
