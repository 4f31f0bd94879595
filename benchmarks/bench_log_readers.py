"""Log lines read per second by each format's reader, beside a plain `re` loop, in one run.

    python benchmarks/bench_log_readers.py                 # 200,000 lines per format, about a minute
    python benchmarks/bench_log_readers.py --lines 50000

The lines are generated, the same for every run (seeded): a busy site's traffic, about twenty
requests a second, crawlers and browsers, paths with and without queries, statuses and sizes, each
format's fields as its documentation lays them out (nginx and Apache: a custom directive with extra
fields; JSON formats: the keys their templates write). Each reader reads its format's lines, making a
`Request` of each, as the audit will.

The baseline is a plain regular expression over the combined lines, `rx.match(line).groups()`: what
any parser of a combined log does at the least. JSON formats are also put beside a plain
`json.loads(line)` loop over their own lines. Every figure is the best of five rounds in CPU time
(`time.process_time`: other processes on the machine do not count), with the garbage collector off
while timing, and the rounds of all ways are interleaved, so a machine busy for a while slows them
all alike.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import re
import time
from collections.abc import Callable, Sequence

from robotscope.syntax.logformats import Request, reader
from robotscope.syntax.logformats.fielded import CLOUDFRONT_HEADER

PLAIN = re.compile(r'(\S+) \S+ \S+ \[([^\]]+)\] "([^"]*)" (\d{3}) (\S+) "([^"]*)" "([^"]*)"')
START = 1787097600  # 2026-08-19T00:00:00Z
AGENTS = (
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    "ClaudeBot/1.0; +claudebot@anthropic.com",
)
NGINX = (
    "log_format main '$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent '"
    ' \'"$http_referer" "$http_user_agent" "$http_x_forwarded_for" $request_time $upstream_cache_status\';'
)
APACHE = r'LogFormat "%v %a %l %u %t \"%r\" %>s %O \"%{Referer}i\" \"%{User-Agent}i\" %D" audit'
MAP = "time=ts,ip=client.ip,method=req.method,target=req.path,host=req.host,status=res.status,user_agent=req.ua"


class Hit:
    """One generated request, written by each format in its own way."""

    def __init__(self, rng: random.Random, index: int) -> None:
        self.when = START + index // 20 + rng.random()
        self.ip = f"{rng.choice((66, 192, 203, 40))}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        self.method = "GET" if rng.random() < 0.95 else "HEAD"
        path = f"/{rng.choice(('blog', 'shop', 'private', 'api/v1'))}/{rng.randrange(10**6)}"
        self.path = path if rng.random() < 0.7 else f"{path}?page={rng.randrange(40)}"
        self.status = rng.choice((200, 200, 200, 301, 304, 403, 404))
        self.size = rng.randrange(200, 90_000)
        self.agent = rng.choice(AGENTS)

    def clf(self) -> str:
        return time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(int(self.when)))

    def iso(self) -> str:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(int(self.when))) + f".{int(self.when % 1 * 1e6):06d}Z"

    def request_line(self) -> str:
        return f"{self.method} {self.path} HTTP/1.1"


def line_of(name: str, hit: Hit) -> str:
    if name in ("combined", "common"):
        agent = f' "-" "{hit.agent}"' if name == "combined" else ""
        return f'{hit.ip} - - [{hit.clf()}] "{hit.request_line()}" {hit.status} {hit.size}{agent}'
    if name == "nginx":
        return (
            f'{hit.ip} - - [{hit.clf()}] "{hit.request_line()}" {hit.status} {hit.size} "-" "{hit.agent}" "-" 0.004 HIT'
        )
    if name == "apache":
        fields = f'{hit.ip} - - [{hit.clf()}] "{hit.request_line()}" {hit.status} {hit.size}'
        return f'www.example.com {fields} "-" "{hit.agent}" 4210'
    path, _, query = hit.path.partition("?")
    day, clock = time.strftime("%Y-%m-%d\t%H:%M:%S", time.gmtime(int(hit.when))).split("\t")
    if name == "cloudfront":
        agent = hit.agent.replace(" ", "%20")
        return "\t".join(
            [day, clock, "FRA56-P1", str(hit.size), hit.ip, hit.method, "d111111abcdef8.cloudfront.net", path,
             str(hit.status), "-", agent, query or "-", "-", "Hit", "SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4Ky==",
             "www.example.com", "https", "23", "0.001", "-", "TLSv1.3", "TLS_AES_128_GCM_SHA256", "Hit", "HTTP/2.0",
             "-", "-", "11040", "0.001", "Hit", "text/html", str(hit.size), "-", "-"]
        )  # fmt: skip
    if name == "w3c":
        agent = hit.agent.replace(" ", "+")
        return f"{day} {clock} 10.0.0.4 {hit.method} {path} {query or '-'} 443 - {hit.ip} {agent} - {hit.status} 0 0 15"
    if name == "alb":
        return (
            f"https {hit.iso()} app/my-lb/50dc6c495c0c9188 {hit.ip}:{40000 + hit.size % 20000} 10.0.0.1:80 0.001 0.004 "
            f'0.000 {hit.status} {hit.status} 210 {hit.size} "{hit.method} https://www.example.com:443{hit.path} '
            f'HTTP/1.1" "{hit.agent}" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:'
            '123456789012:targetgroup/t/73e2d6bc24d8a067 "Root=1-58337281-1d84f3d73c47ec4e58577259" "www.example.com" '
            f'"session-reused" 1 {hit.iso()} "forward" "-" "-" "10.0.0.1:80" "{hit.status}" "-" "-"'
        )
    record: dict[str, object]
    if name == "caddy":
        record = {
            "level": "info", "ts": hit.when, "logger": "http.log.access.log0", "msg": "handled request",
            "request": {"remote_ip": hit.ip, "remote_port": "55392", "client_ip": hit.ip, "proto": "HTTP/2.0",
                        "method": hit.method, "host": "www.example.com", "uri": hit.path,
                        "headers": {"User-Agent": [hit.agent], "Accept": ["*/*"]}, "tls": {"resumed": False}},
            "bytes_read": 0, "user_id": "", "duration": 0.0015, "size": hit.size, "status": hit.status,
            "resp_headers": {"Content-Type": ["text/html"]},
        }  # fmt: skip
    elif name == "cloudflare":
        record = {
            "ClientIP": hit.ip, "ClientRequestHost": "www.example.com", "ClientRequestMethod": hit.method,
            "ClientRequestURI": hit.path, "ClientRequestScheme": "https", "ClientRequestUserAgent": hit.agent,
            "ClientRequestReferer": "", "EdgeStartTimestamp": int(hit.when * 1e9), "EdgeResponseStatus": hit.status,
            "EdgeResponseBytes": hit.size, "RayID": "8b2f3c4d5e6f7a8b", "CacheCacheStatus": "hit",
        }  # fmt: skip
    elif name == "fastly":
        record = {
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(int(hit.when))), "time_elapsed": "1234",
            "is_tls": "true", "client_ip": hit.ip, "geo_city": "berlin", "geo_country_code": "DE",
            "request": hit.method, "host": "www.example.com", "url": hit.path, "request_referer": "",
            "request_user_agent": hit.agent, "cache_status": "HIT",
        }  # fmt: skip
    else:
        record = {
            "ts": int(hit.when * 1000), "client": {"ip": hit.ip},
            "req": {"method": hit.method, "path": hit.path, "host": "www.example.com", "ua": hit.agent},
            "res": {"status": hit.status},
        }  # fmt: skip
    return json.dumps(record)


FORMATS = {
    "combined": ("combined", None, None),
    "common": ("common", None, None),
    "nginx": ("nginx", NGINX, None),
    "apache": ("apache", APACHE, None),
    "caddy": ("caddy", None, None),
    "cloudfront": ("cloudfront", None, None),
    "alb": ("alb", None, None),
    "cloudflare": ("cloudflare", None, None),
    "w3c": ("w3c", None, None),
    "fastly": ("fastly", None, None),
    "jsonl": ("jsonl", None, MAP),
}
JSON = ("caddy", "cloudflare", "fastly", "jsonl")
W3C_HEADER = (
    "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) "
    "cs(Referer) sc-status sc-substatus sc-win32-status time-taken"
)


def reading(name: str, lines: Sequence[str]) -> Callable[[], object]:
    """One pass of `name`'s reader over `lines` (a fresh reader, its header read first where it has one)."""
    form, directive, mapping = FORMATS[name]
    needs = frozenset({"time", "ip", "request"}) if name == "common" else None

    def run() -> object:
        got = reader(form, directive, mapping) if needs is None else reader(form, needs=needs)
        if name in ("cloudfront", "w3c"):
            got.read(0, CLOUDFRONT_HEADER if name == "cloudfront" else W3C_HEADER)
        read = got.read
        for number, line in enumerate(lines, 1):
            read(number, line)
        return got

    return run


def plain_regex(lines: Sequence[str]) -> Callable[[], object]:
    match = PLAIN.match

    def run() -> object:
        for line in lines:
            found = match(line)
            assert found is not None
            found.groups()
        return None

    return run


def plain_json(lines: Sequence[str]) -> Callable[[], object]:
    def run() -> object:
        for line in lines:
            json.loads(line)
        return None

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200_000)
    options = parser.parse_args()
    rng = random.Random(26)
    hits = [Hit(rng, index) for index in range(options.lines)]
    logs = {name: [line_of(name, hit) for hit in hits] for name in FORMATS}
    for name, lines in logs.items():  # every line is a request of its format before any is timed
        form, directive, mapping = FORMATS[name]
        needs = (
            frozenset({"time", "ip", "request"})
            if name == "common"
            else frozenset({"time", "ip", "request", "user_agent"})
        )
        got = reader(form, directive, mapping, needs=needs)
        if name in ("cloudfront", "w3c"):
            got.read(0, CLOUDFRONT_HEADER if name == "cloudfront" else W3C_HEADER)
        assert all(isinstance(got.read(n, line), Request) for n, line in enumerate(lines[:2000], 1)), name
    ways: dict[str, Callable[[], object]] = {"plain regex (combined)": plain_regex(logs["combined"])}
    for name in JSON:
        ways[f"plain json.loads ({name})"] = plain_json(logs[name])
    for name in FORMATS:
        ways[name] = reading(name, logs[name])
    best = dict.fromkeys(ways, float("inf"))
    for _ in range(5):
        for way, run in ways.items():
            gc.collect()
            gc.disable()
            try:
                started = time.process_time()
                run()
                best[way] = min(best[way], time.process_time() - started)
            finally:
                gc.enable()
    rate = {way: options.lines / seconds for way, seconds in best.items()}
    plain = rate["plain regex (combined)"]
    print(f"{options.lines:,} lines per format, best of 5 rounds in CPU time\n")
    print("| reader | lines/s | × plain regex | × plain json.loads |")
    print("|---|---:|---:|---:|")
    for way, per_second in rate.items():
        loads = f"×{per_second / rate[f'plain json.loads ({way})']:.2f}" if way in JSON else ""
        print(f"| {way} | {per_second:,.0f} | ×{per_second / plain:.2f} | {loads} |")


if __name__ == "__main__":
    main()
