"""An audit's summary as a self-contained HTML page: inline CSS, charts drawn here as inline SVG. Pure.

`document(view, lang)` is the whole page `robotscope logs --html` writes:
one file that asks for nothing from anywhere (no script, font, image or
style sheet; its Content-Security-Policy allows its one style element and
nothing else), in English or Korean. `report(view, lang)` is its body, the
part the web page's log panel shows under `STYLE`, which build-site writes
beside the page (the page's policy allows no inline style).

Both draw `views.summary_view`'s data: requests over time by purpose
(stacked bars), violations over time with a marker where each robots.txt
version came into force, the most violated lines, then the tables
(versions, purposes, violators with their deciding lines, spoofers,
crawlers, never read robots.txt, declared allow but enforced block,
Crawl-delay exceeded, unjudged origins, bad lines).

Every text that comes from a log or a file (addresses, hosts, rules,
snapshot paths, commit subjects, bad lines' reasons) is hostile: it is
shown with control characters and bidirectional overrides escaped
(`render.printable`), cut at `LONGEST` characters, HTML-escaped, and
isolated from the text around it (`<bdi>`). Bars and markers carry their
numbers as data attributes (`data-count`, `data-version`) and a `<title>`
that a pointer shows.
"""

from __future__ import annotations

import base64
import hashlib
import math
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from html import escape
from typing import Any

from ..._version import __version__
from ...messages import Message, message
from ...syntax.crawlers import PURPOSES
from ..render import printable
from .classes import AuditClass
from .views import totals, within_grace

LONGEST = 120  # characters of a text from a log or a file shown in a cell; the rest is cut
LABEL = 64  # the same in a chart's label
MOST_BARS = 120  # bars of a chart over time: hours are added up into longer steps past it
STEPS = (1, 2, 3, 6, 12, 24, 48, 168)  # hours a bar may stand for
TOP_LINES = 10  # deciding lines in the chart of the most violated
SHOWN_BAD = 10  # bad lines listed one by one; all are counted
HOUR = 3600
UNAUDITED = "unaudited"  # the purpose of a request that names no known crawler (`views`' hours say so)
# The classes drawn over time: the ones that break or fake a claim (`--fail-on`'s), then the doubtful, then those
# within grace (right after a version's marker: a crawler's cached copy of the file before it).
BREACHES = (
    AuditClass.VIOLATION.value,
    AuditClass.SPOOFED.value,
    AuditClass.UNVERIFIED.value,
    AuditClass.GRACE.value,
)

# Every element the report writes: none that loads, runs or links anything.
ELEMENTS = frozenset(
    {
        *("html", "head", "meta", "link", "title", "style", "body", "div", "section", "h1", "h2", "p", "ul", "li"),
        *(
            "b",
            "table",
            "thead",
            "tbody",
            "tr",
            "th",
            "td",
            "bdi",
            "code",
            "footer",
            "svg",
            "rect",
            "line",
            "text",
            "g",
        ),
    }
)

# One colour per purpose (and grey for no known crawler), per class drawn; readable on white.
COLOURS = {
    "search": "#4e79a7",
    "search-vertical": "#a0cbe8",
    "ai-search": "#f28e2b",
    "ai-training": "#e15759",
    "ai-control-token": "#ff9d9a",
    "user-triggered": "#b07aa1",
    "ads": "#59a14f",
    "social-preview": "#8cd17d",
    "seo-tool": "#b6992d",
    "archive": "#499894",
    "dataset": "#86bcb6",
    "monitoring": "#9d7660",
    "other": "#79706e",
    UNAUDITED: "#d4d4d4",
    AuditClass.VIOLATION.value: "#c0392b",
    AuditClass.SPOOFED.value: "#7d3c98",
    AuditClass.UNVERIFIED.value: "#e6a100",
    AuditClass.GRACE.value: "#8fa9c4",
}

# The charts' frame, in SVG user units (the SVG scales to the page's width).
WIDTH, HEIGHT = 960, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 28, 40

STYLE = """\
.audit-report{--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;color:var(--ink);
font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK KR",sans-serif;
max-width:1100px;margin:0 auto;padding:16px}
.audit-report h1{font-size:1.6em;margin:0 0 4px}
.audit-report h2{font-size:1.2em;margin:28px 0 6px;border-bottom:1px solid var(--line);padding-bottom:4px}
.audit-report p{margin:6px 0}
.audit-report .hint{color:var(--muted);font-size:.9em}
.audit-report .warning{background:#fff4e5;border:1px solid #f0b429;padding:8px 12px;border-radius:6px}
.audit-report .cards{display:flex;flex-wrap:wrap;gap:8px;margin:12px 0;padding:0;list-style:none}
.audit-report .cards li{border:1px solid var(--line);border-radius:8px;padding:6px 12px;min-width:7em;
background:var(--soft)}
.audit-report .cards b{display:block;font-size:1.4em}
.audit-report .cards .violation b{color:#c0392b}
.audit-report .cards .spoofed b{color:#7d3c98}
.audit-report .chart{width:100%;height:auto;display:block}
.audit-report .chart text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK KR",sans-serif;
fill:#59636e}
.audit-report .chart .label{fill:#1f2328}
.audit-report .legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:4px 0;padding:0;list-style:none;font-size:.9em}
.audit-report .legend svg{vertical-align:-1px;margin-right:4px}
.audit-report .scroll{overflow-x:auto}
.audit-report table{border-collapse:collapse;margin:6px 0;font-size:.92em;width:100%}
.audit-report th,.audit-report td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
.audit-report th{background:var(--soft)}
.audit-report td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.audit-report td bdi,.audit-report code{overflow-wrap:anywhere}
.audit-report code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:.95em}
.audit-report .none{color:var(--muted)}
.audit-report footer{margin-top:32px;color:var(--muted);font-size:.85em}
"""


def document(view: dict[str, Any], lang: str) -> str:
    """The whole page: `report` under its own style, allowed by a policy that allows nothing else."""
    digest = base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
    policy = (
        f"default-src 'none'; style-src 'sha256-{digest}'; img-src data:; "
        "base-uri 'none'; form-action 'none'; frame-src 'none'"
    )
    title = _say(lang, "logs.html.title")
    return (
        f'<!doctype html>\n<html lang="{_attr(lang)}" dir="ltr">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        '<meta name="referrer" content="no-referrer">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{report(view, lang)}\n</body>\n</html>\n"
    )


def report(view: dict[str, Any], lang: str) -> str:
    """The report's sections in one `<div class="audit-report">`, styled by `STYLE`."""
    numbers = {found["ref"]: found["number"] for found in view["versions"]}
    parts = [
        f"<h1>{_say(lang, 'logs.html.title')}</h1>",
        *_overview(view, lang),
        *_requests_chart(view, lang),
        *_violations_chart(view, lang),
        *_lines_chart(view, lang, numbers),
        *_versions(view, lang),
        *_purposes(view, lang),
        *_violators(view, lang, numbers),
        *_spoofers(view, lang),
        *_crawlers(view, lang),
        *_never_read(view, lang),
        *_blocked(view, lang),
        *_too_fast(view, lang),
        *_unjudged(view, lang),
        *_bad_lines(view, lang),
        f"<footer>{_say(lang, 'logs.html.footer', version=__version__)}</footer>",
    ]
    return f'<div class="audit-report" lang="{_attr(lang)}" dir="ltr">\n' + "\n".join(parts) + "\n</div>"


# Text


def _say(lang: str, code: str, **params: Any) -> str:
    """A catalogue text, escaped. Its parameters must already be safe to show: `_shown` texts, numbers."""
    return escape(message(code, **params).render(lang), quote=False)


def _shown(value: object, longest: int = LONGEST) -> str:
    """A text from a log or a file, safe to show: controls and overrides escaped, cut at `longest`, not yet
    HTML-escaped."""
    text = printable(str(value))
    return text if len(text) <= longest else text[: longest - 1] + "…"


def _cell(value: object, longest: int = LONGEST) -> str:
    """A hostile text as HTML, isolated from the text around it."""
    return f"<bdi>{escape(_shown(value, longest))}</bdi>"


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def _count(number: int) -> str:
    return f"{number:,}"


def _table(lang: str, columns: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """A table of `rows` (cells already HTML) under `logs.column.*` headers; `numeric` columns right-aligned."""
    head = "".join(f"<th>{_say(lang, f'logs.column.{column}')}</th>" for column in columns)
    body = "".join(
        "<tr>"
        + "".join(f"<td{' class=n' if at in numeric else ''}>{cell}</td>" for at, cell in enumerate(row))
        + "</tr>"
        for row in rows
    )
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _section(lang: str, code: str, key: str, body: Sequence[str], empty: str = "logs.html.none") -> list[str]:
    """A titled section (`data-section` = key), or its title and a line saying there is nothing."""
    inner = "\n".join(body) if body else f'<p class="none">{_say(lang, empty)}</p>'
    return [f'<section data-section="{_attr(key)}">\n<h2>{_say(lang, code)}</h2>\n{inner}\n</section>']


# Overview


def _overview(view: dict[str, Any], lang: str) -> list[str]:
    parts = [f"<p>{_escaped(totals(view), lang)}</p>"]
    cards = "".join(
        f'<li class="{_attr(kind)}" data-class="{_attr(kind)}">{_say(lang, f"logs.class.{kind}")}'
        f"<b>{_count(count)}</b></li>"
        for kind, count in view["classes"].items()
    )
    parts.append(f'<ul class="cards">{cards}</ul>')
    grace = within_grace(view)
    if grace is not None:
        parts.append(f'<p data-grace="{_attr(view["grace"]["requests"])}">{_escaped(grace, lang)}</p>')
    ai = view["ai"]
    share = format(ai["share"], ".1%")
    parts.append(f"<p>{_say(lang, 'logs.cli.ai', requests=ai['requests'], share=share)}</p>")
    if view["incomplete"]:
        parts.append(f'<p class="warning">{_say(lang, "logs.html.incomplete")}</p>')
    for stopped in view["stopped"]:
        said = message("logs.cli.stopped", source=_shown(stopped["source"]), number=stopped["line"])
        parts.append(f'<p class="warning">{_escaped(said, lang, reason=stopped["reason"])}</p>')
    return parts


def _escaped(said: Message, lang: str, **hostile: str) -> str:
    """`said` with `hostile` parameters added, each shown safely (`_shown`), the whole escaped."""
    params = {**said.params, **{name: _shown(value) for name, value in hostile.items()}}
    return escape(message(said.code, **params).render(lang), quote=False)


# Charts over time


def _moment(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def _buckets(hours: Sequence[dict[str, Any]]) -> tuple[float, int, int]:
    """The first bucket's start, the hours a bucket stands for, and how many buckets cover `hours`."""
    first = _moment(hours[0]["hour"])
    last = _moment(hours[-1]["hour"])
    span = int((last - first) // HOUR) + 1
    # Past weeks (a log whose times run over years): whole weeks, as many as keep to MOST_BARS.
    step = next((step for step in STEPS if math.ceil(span / step) <= MOST_BARS), 0) or 168 * math.ceil(
        span / MOST_BARS / 168
    )
    start = first // (step * HOUR) * (step * HOUR)
    count = int((last - start) // (step * HOUR)) + 1
    return start, step, count


def _series(hours: Sequence[dict[str, Any]], key: str, names: Sequence[str]) -> tuple[float, int, list[dict[str, int]]]:
    """Each bucket's count of every name of `names` under each hour's `key` (`purposes` or `classes`)."""
    start, step, count = _buckets(hours)
    buckets: list[dict[str, int]] = [{} for _ in range(count)]
    for hour in hours:
        at = int((_moment(hour["hour"]) - start) // (step * HOUR))
        for name, found in hour[key].items():
            if name in names:
                buckets[at][name] = buckets[at].get(name, 0) + found
    return start, step, buckets


def _axis(most: int) -> tuple[int, int]:
    """The axis's top and its tick step: 1, 2 or 5 times a power of ten, four or five ticks up to `most`."""
    wanted = max(most, 1) / 4
    power = 10 ** max(math.floor(math.log10(wanted)), 0) if wanted >= 1 else 1
    step = next(power * factor for factor in (1, 2, 5, 10) if power * factor >= wanted)
    return step * max(math.ceil(most / step), 1), step


def _ticks(start: float, step: int, count: int) -> list[int]:
    """The buckets to label under the axis: those starting on a round moment (midnight, noon, ...), at most 8."""
    span = step * count
    unit = next((unit for unit in (*STEPS, 336, 720) if unit >= step and span / unit <= 8), 0) or step * math.ceil(
        count / 8
    )
    first = math.ceil(start / (unit * HOUR)) * unit * HOUR
    return [
        int((moment - start) // (step * HOUR)) for moment in range(int(first), int(start + span * HOUR), unit * HOUR)
    ]


def _when(moment: float, step: int) -> str:
    found = datetime.fromtimestamp(moment, UTC)
    return found.strftime("%Y-%m-%d") if step >= 24 else found.strftime("%m-%d %H:%M")


def _step(lang: str, step: int) -> str:
    if step % 24 == 0:
        return message("logs.html.days", days=step // 24).render(lang)
    return message("logs.html.hours", hours=step).render(lang)


def _stacked(
    lang: str, label: str, names: Sequence[str], start: float, step: int, buckets: list[dict[str, int]]
) -> tuple[str, float, float]:
    """Stacked bars over time, one rect per (bucket, name) counted; the SVG (unclosed), its plot's x and width."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    top, every = _axis(max((sum(bucket.values()) for bucket in buckets), default=0))
    width = plot_w / len(buckets)
    gap = 1.0 if width > 4 else 0.0
    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        f'aria-label="{_attr(label)}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for tick in range(0, top + 1, every):
        y = TOP + plot_h - tick / top * plot_h
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e4e8ec"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{_count(tick)}</text>')
    for at, bucket in enumerate(buckets):
        x = LEFT + at * width
        base = float(TOP + plot_h)
        begins = _when(start + at * step * HOUR, step)
        for name in names:
            found = bucket.get(name, 0)
            if not found:
                continue
            height = found / top * plot_h
            base -= height
            title = _say(lang, "logs.html.bar", at=begins, series=_name(lang, name), count=found)
            out.append(
                f'<rect class="bar" data-series="{_attr(name)}" data-count="{found}" x="{x:.2f}" y="{base:.2f}" '
                f'width="{max(width - gap, 0.5):.2f}" height="{height:.2f}" fill="{COLOURS.get(name, "#888")}">'
                f"<title>{title}</title></rect>"
            )
    for at in _ticks(start, step, len(buckets)):
        x = LEFT + at * width
        moment = start + at * step * HOUR
        daily = moment % (24 * HOUR) == 0 and step * len(buckets) > 48
        anchor = "start" if x < LEFT + 40 else "end" if x > WIDTH - RIGHT - 40 else "middle"
        out.append(f'<line x1="{x:.2f}" x2="{x:.2f}" y1="{TOP + plot_h}" y2="{TOP + plot_h + 5}" stroke="#8c959f"/>')
        out.append(
            f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="{anchor}">'
            f"{escape(_when(moment, 24 if daily else step))}</text>"
        )
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_h}" y2="{TOP + plot_h}" stroke="#8c959f"/>')
    return "\n".join(out), LEFT, plot_w


def _name(lang: str, name: str) -> str:
    """A purpose's or a class's name, as the page's catalogue says it."""
    if name == UNAUDITED:
        return message("logs.cli.unaudited").render(lang)
    if name in PURPOSES or name == "other":
        return message(f"page.purpose.{name}").render(lang)
    return message(f"logs.class.{name}").render(lang)


def _legend(lang: str, names: Iterable[str]) -> str:
    items = "".join(
        f'<li data-series="{_attr(name)}"><svg width="12" height="12" aria-hidden="true">'
        f'<rect width="12" height="12" fill="{COLOURS.get(name, "#888")}"/></svg>{escape(_name(lang, name))}</li>'
        for name in names
    )
    return f'<ul class="legend">{items}</ul>'


def _requests_chart(view: dict[str, Any], lang: str) -> list[str]:
    hours = view["hours"]
    if not hours:
        return _section(lang, "logs.html.requests", "requests-chart", [], "logs.html.no-time")
    names = [name for name in (*PURPOSES, "other", UNAUDITED) if any(name in hour["purposes"] for hour in hours)]
    start, step, buckets = _series(hours, "purposes", names)
    svg, _, _ = _stacked(lang, _say(lang, "logs.html.requests"), names, start, step, buckets)
    hint = _say(lang, "logs.html.requests-hint", step=_step(lang, step))
    return _section(
        lang,
        "logs.html.requests",
        "requests-chart",
        [f'<p class="hint">{hint}</p>', svg + "</svg>", _legend(lang, names)],
    )


def _violations_chart(view: dict[str, Any], lang: str) -> list[str]:
    hours = view["hours"]
    if not hours:
        return _section(lang, "logs.html.violations", "violations-chart", [], "logs.html.no-time")
    start, step, buckets = _series(hours, "classes", BREACHES)
    svg, left, plot_w = _stacked(lang, _say(lang, "logs.html.violations"), BREACHES, start, step, buckets)
    end = start + len(buckets) * step * HOUR
    markers = []
    for at, (version, since) in enumerate(_marked(view["versions"], start, end)):
        x = left + (max(since, start) - start) / (end - start) * plot_w
        y = TOP - 8 if at % 2 == 0 else TOP + 6  # neighbours' labels on two rows
        said = message("logs.html.marker", number=version["number"], since=version["since"] or "-")
        title = _escaped(said, lang, label=version["label"])
        markers.append(
            f'<g class="marker" data-version="{version["number"]}"><title>{title}</title>'
            f'<line x1="{x:.2f}" x2="{x:.2f}" y1="{TOP - 4}" y2="{HEIGHT - BOTTOM}" stroke="#1f2328" '
            f'stroke-dasharray="4 3"/><text class="label" x="{x + 3:.2f}" y="{y}">#{version["number"]}</text></g>'
        )
    hint = _say(lang, "logs.html.violations-hint", step=_step(lang, step))
    body = [f'<p class="hint">{hint}</p>', svg + "\n" + "\n".join(markers) + "</svg>", _legend(lang, BREACHES)]
    return _section(lang, "logs.html.violations", "violations-chart", body)


def _marked(versions: Sequence[dict[str, Any]], start: float, end: float) -> list[tuple[dict[str, Any], float]]:
    """The versions to mark between `start` and `end`, with their moments: each that came into force then, and
    the one of each set of origins already in force at `start` (marked at the chart's left edge)."""
    inside: list[tuple[dict[str, Any], float]] = []
    before: dict[tuple[str | None, ...], tuple[dict[str, Any], float]] = {}
    for version in versions:
        since = -math.inf if version["since"] is None else _moment(version["since"])
        if since > end:
            continue
        if since >= start:
            inside.append((version, since))
            continue
        key = tuple(version["origins"])
        if key not in before or before[key][1] <= since:
            before[key] = (version, since)
    return sorted([*before.values(), *inside], key=lambda found: (found[1], found[0]["number"]))


def _lines_chart(view: dict[str, Any], lang: str, numbers: dict[str | None, int]) -> list[str]:
    """The deciding lines that the most violations broke, every crawler's added up."""
    lines: dict[tuple[str | None, int | None, str | None], tuple[int, list[str]]] = {}
    for violator in view["violators"]:
        for line in violator["lines"]:
            key = (line["robots_version"], line["line"], line["rule"])
            count, tokens = lines.get(key, (0, []))
            lines[key] = (count + line["requests"], [*tokens, violator["token"]])
    ranked = sorted(lines.items(), key=lambda item: (-item[1][0], str(item[0])))[:TOP_LINES]
    if not ranked:
        return _section(lang, "logs.html.lines", "lines-chart", [], "logs.cli.no-violators")
    row, label_w = 30, 430
    height = TOP + row * len(ranked) + 8
    bar_w = WIDTH - label_w - 90
    most = ranked[0][1][0]
    out = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" '
        f'aria-label="{_attr(_say(lang, "logs.html.lines"))}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for at, ((ref, number, rule), (count, tokens)) in enumerate(ranked):
        y = TOP + at * row
        label = escape(
            message(
                "logs.html.line",
                number=numbers.get(ref, "-"),
                line=number if number is not None else "-",
                rule=_shown(rule or "-", LABEL),
            ).render(lang)
        )
        width = max(count / most * bar_w, 1.0)
        title = _escaped(message("logs.html.line-title", count=count), lang, crawlers=", ".join(tokens))
        out.append(
            f'<g class="line-bar" data-count="{count}"><title>{title}</title>'
            f'<text class="label" x="{label_w - 8}" y="{y + 19}" text-anchor="end">{label}</text>'
            f'<rect x="{label_w}" y="{y + 4}" width="{width:.2f}" height="{row - 8}" fill="{COLOURS["violation"]}"/>'
            f'<text x="{label_w + width + 6:.2f}" y="{y + 19}">{_count(count)}</text></g>'
        )
    hint = _say(lang, "logs.html.lines-hint")
    return _section(lang, "logs.html.lines", "lines-chart", [f'<p class="hint">{hint}</p>', "\n".join(out) + "</svg>"])


# Tables


def _versions(view: dict[str, Any], lang: str) -> list[str]:
    rows = [
        (
            f"#{found['number']}",
            _cell(found["label"]),
            _cell(", ".join(origin or "*" for origin in found["origins"])),
            escape(found["since"] or message("logs.cli.always").render(lang)),
            _count(found["requests"]),
        )
        for found in view["versions"]
    ]
    body = [_table(lang, ("number", "source", "origins", "since", "requests"), rows, (4,))] if rows else []
    return _section(lang, "logs.cli.versions", "versions", body)


def _purposes(view: dict[str, Any], lang: str) -> list[str]:
    rows = [
        (escape(_name(lang, found["purpose"])), _count(found["requests"]), f"{found['share']:.1%}")
        for found in view["purposes"]
    ]
    rows.append((escape(_name(lang, UNAUDITED)), _count(view["unaudited"]), f"{view['unaudited_share']:.1%}"))
    return _section(
        lang, "logs.cli.purposes", "purposes", [_table(lang, ("purpose", "requests", "share"), rows, (1, 2))]
    )


def _violators(view: dict[str, Any], lang: str, numbers: dict[str | None, int]) -> list[str]:
    rows = []
    for found in view["violators"]:
        for at, line in enumerate(found["lines"]):
            rows.append(
                (
                    _cell(found["token"]) if at == 0 else "",
                    _count(found["requests"]) if at == 0 else "",
                    f"#{numbers[line['robots_version']]}" if line["robots_version"] in numbers else "-",
                    str(line["line"]) if line["line"] is not None else "-",
                    f"<code>{_cell(line['rule'] or '-')}</code>",
                    _count(line["requests"]),
                )
            )
    body = [_table(lang, ("crawler", "requests", "number", "line", "rule", "count"), rows, (1, 3, 5))] if rows else []
    return _section(lang, "logs.cli.violators", "violators", body, "logs.cli.no-violators")


def _spoofers(view: dict[str, Any], lang: str) -> list[str]:
    rows = [
        (
            _cell(found["token"]),
            _count(found["requests"]),
            _count(found["addresses"]),
            ", ".join(f"{_cell(top['address'], LABEL)} (×{_count(top['requests'])})" for top in found["top"]),
        )
        for found in view["spoofers"]
    ]
    body = [_table(lang, ("crawler", "requests", "addresses", "top"), rows, (1, 2))] if rows else []
    return _section(lang, "logs.cli.spoofers", "spoofers", body)


def _crawlers(view: dict[str, Any], lang: str) -> list[str]:
    rows = []
    for found in view["crawlers"]:
        sessions = found["sessions"]
        rows.append(
            (
                _cell(found["token"]),
                _cell(found["operator"]),
                escape(_name(lang, found["purpose"])),
                _count(found["requests"]),
                _count(found["verification"].get("verified", 0)),
                _count(found["classes"].get(AuditClass.VIOLATION.value, 0)),
                f"{_count(sessions['robots_first'])}/{_count(sessions['sessions'])} "
                f"({_count(found['robots_fetches'])})",
                _count(found["blocked"]),
            )
        )
    columns = ("crawler", "operator", "purpose", "requests", "verified", "violations", "robots", "blocked")
    body = [_table(lang, columns, rows, (3, 4, 5, 6, 7))] if rows else []
    return _section(lang, "logs.cli.crawlers", "crawlers", body)


def _never_read(view: dict[str, Any], lang: str) -> list[str]:
    found = view["never_read_robots"]
    return _crawler_counts(found, lang, ("logs.html.never", "logs.html.never-hint"), "never-read-robots", "requests")


def _blocked(view: dict[str, Any], lang: str) -> list[str]:
    return _crawler_counts(view["blocked"], lang, ("logs.html.blocked", "logs.html.blocked-hint"), "blocked", "blocked")


def _crawler_counts(
    found: Sequence[dict[str, Any]], lang: str, said: tuple[str, str], key: str, column: str
) -> list[str]:
    """A section (`data-section` = key) listing crawlers and a count of requests each, with its title and hint."""
    title, hint = said
    rows = [(_cell(crawler["token"]), _count(crawler["requests"])) for crawler in found]
    body = [f'<p class="hint">{_say(lang, hint)}</p>', _table(lang, ("crawler", column), rows, (1,))]
    return _section(lang, title, key, body if rows else [])


def _too_fast(view: dict[str, Any], lang: str) -> list[str]:
    rows = [
        (
            _cell(found["token"]),
            f"{found['delay']:g}",
            f"{_count(found['short'])}/{_count(found['delayed'])}",
            "-" if found["shortest"] is None else f"{found['shortest']:g}",
            _count(found["sessions"]),
        )
        for found in view["too_fast"]
    ]
    body = [
        f'<p class="hint">{_say(lang, "logs.html.too-fast-hint")}</p>',
        _table(lang, ("crawler", "delay", "short", "shortest", "sessions"), rows, (1, 2, 3, 4)),
    ]
    return _section(lang, "logs.html.too-fast", "too-fast", body if rows else [])


def _unjudged(view: dict[str, Any], lang: str) -> list[str]:
    if not view["unjudged"]:
        return []
    rows = [(_cell(found["origin"] or "-"), _count(found["requests"])) for found in view["unjudged"]]
    return _section(lang, "logs.html.unjudged", "unjudged", [_table(lang, ("origin", "requests"), rows, (1,))])


def _bad_lines(view: dict[str, Any], lang: str) -> list[str]:
    bad = view["bad_lines"]
    if not bad["count"]:
        return _section(lang, "logs.html.bad", "bad-lines", [])
    reasons = [(_count(reason["count"]), _cell(reason["example"])) for reason in bad["reasons"]]
    first = [
        (_cell(line["source"], LABEL), _count(line["line"]), _cell(line["reason"])) for line in bad["first"][:SHOWN_BAD]
    ]
    body = [
        f"<p>{_say(lang, 'logs.html.bad-count', count=bad['count'])}</p>",
        _table(lang, ("count", "example"), reasons, (0,)),
        _table(lang, ("log", "line", "reason"), first, (1,)),
    ]
    return _section(lang, "logs.html.bad", "bad-lines", body)


__all__ = ["BREACHES", "COLOURS", "ELEMENTS", "LONGEST", "STYLE", "document", "report"]
