"""The sample logs, written from each format's documentation, and how each is read: the tests' and the fuzzer's.

Each file of `samples/` is read by the format (and the directive or mapping) `SAMPLES` names for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from robotscope.syntax.logformats import AUDIT, BadLine, LineReader, Request, reader

SAMPLES_DIR = Path(__file__).parent / "samples"

# nginx's documentation's own example (ngx_http_log_module), as a configuration file writes it.
NGINX_COMPRESSION = """log_format compression '$remote_addr - $remote_user [$time_local] '
                       '"$request" $status $bytes_sent '
                       '"$http_referer" "$http_user_agent" "$gzip_ratio"';"""
# A custom nginx format: the host first, ISO time, the URL rebuilt from its parts, JSON escapes.
NGINX_CUSTOM = (
    "log_format audit escape=json '$host $remote_addr [$time_iso8601] "
    '"$request_method $scheme://$host$request_uri" \'\n'
    '    \'$status $body_bytes_sent $request_time "$http_user_agent" "$upstream_cache_status"\';'
)
# A custom Apache format: milliseconds and the offset in their own conversions, as Apache's documentation
# shows, the method and path and query apart, the scheme from a proxy's header.
APACHE_CUSTOM = (
    'LogFormat "%V %a %l %u [%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t] \\"%m %U%q %H\\" %>s %B '
    '\\"%{Referer}i\\" \\"%{User-Agent}i\\" %D %{X-Forwarded-Proto}i" audit'
)
JSONL_MAP = (
    "time=time,ip=client.ip,method=req.method,target=req.url,user_agent=req.headers.User-Agent,"
    "referer=req.headers.Referer,status=res.statusCode,size=res.bytes"
)


class Sample(NamedTuple):
    format: str
    log_format: str | None = None
    mapping: str | None = None
    needs: frozenset[str] = AUDIT  # common logs have no User-Agent: read asking less than the audit does

    def reader(self) -> LineReader:
        return reader(self.format, self.log_format, self.mapping, needs=self.needs)


SAMPLES = {
    "combined.log": Sample("combined"),
    "common.log": Sample("common", needs=frozenset({"time", "ip", "request"})),
    "vhost_combined.log": Sample("combined"),
    "nginx_compression.log": Sample("nginx", NGINX_COMPRESSION),
    "nginx_custom.log": Sample("nginx", NGINX_CUSTOM),
    "apache_custom.log": Sample("apache", APACHE_CUSTOM),
    "caddy.json": Sample("caddy"),
    "cloudfront.log": Sample("cloudfront"),
    "alb.log": Sample("alb"),
    "cloudflare.json": Sample("cloudflare"),
    "iis.log": Sample("w3c"),
    "fastly.json": Sample("fastly"),
    "fastly_common.log": Sample("fastly"),
    "jsonl.json": Sample("jsonl", mapping=JSONL_MAP),
}


def lines(name: str) -> list[str]:
    """A sample's lines, as the log reader gives them (without their line ends)."""
    return (SAMPLES_DIR / name).read_text(encoding="utf-8").splitlines()


def read(name: str, sample: Sample | None = None) -> list[Request | BadLine | None]:
    """Every line of a sample through a fresh reader of its format (or of `sample`)."""
    got = (sample or SAMPLES[name]).reader()
    return [got.read(number, line) for number, line in enumerate(lines(name), 1)]


def requests(name: str) -> list[Request]:
    return [found for found in read(name) if isinstance(found, Request)]


def codes(found: list[Request | BadLine | None]) -> list[str | None]:
    """Per line: `request`, a bad line's message code, or None."""
    return ["request" if isinstance(x, Request) else None if x is None else x.reason.code for x in found]
