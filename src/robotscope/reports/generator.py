"""Write a robots.txt from a spec, then prove it says what was meant.

A spec is plain data, so a team can keep its robots.txt as reviewed code
(TOML or JSON): a list of blocks, each one agent with allow and disallow
paths, plus sitemap URLs. `generate` writes the text; `build` also parses it
back, checks that every block came back as a group with its rules and that
each rule decides a URL it covers, and lints the result. Pure: no I/O.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ..access.preferences import CATEGORIES, SIGNAL, SIGNALS, USAGE, signal_line, usage_rule
from ..access.robots import Robots, parse
from ..messages import Message, message
from ..syntax import crawlers
from ..syntax.model import Finding, Record
from ..syntax.patterns import example_target
from ..syntax.tokens import group_token, product_token
from .linter import lint

# The control tokens whose operators document that they govern AI training
# (Google-Extended: Gemini training and grounding; Applebot-Extended: Apple's
# foundation models). Other control tokens (e.g. YandexAdditional) do not.
_TRAINING_CONTROL_TOKENS = ("Google-Extended", "Applebot-Extended")

STAGING_WARNING = message("generate.warning.blocks-whole-site")
OTHERS_BLOCKED_WARNING = message("generate.warning.blocks-others")

# The keys a spec may hold, at its top and in each block: anything else is a mistake
# (a misspelt `disalow` silently dropped would write `Disallow:`, allowing everything).
SPEC_KEYS = ("blocks", "block", "sitemaps")
BLOCK_KEYS = ("agent", "allow", "disallow", "comment", "content_usage", "content_signal")


class InvalidSpec(ValueError):
    """A generator spec that cannot be written as a robots.txt: `reason` says why, `key` names the key at fault.

    `block` is the 1-based block the key is in (None at the top of the spec).
    """

    def __init__(self, reason: Message, key: str | None = None, block: int | None = None) -> None:
        super().__init__(reason.render())
        self.reason = reason
        self.key = key
        self.block = block


class Block(NamedTuple):
    agent: str
    allow: tuple[str, ...] = ()
    disallow: tuple[str, ...] = ()
    comment: str = ""
    # AI usage preferences (robotscope.access.preferences): `[path] preferences` each, e.g. "/ train-ai=n";
    # and one Content-Signal value, e.g. "search=yes, ai-train=no".
    content_usage: tuple[str, ...] = ()
    content_signal: str = ""


class Spec(NamedTuple):
    blocks: tuple[Block, ...]
    sitemaps: tuple[str, ...] = ()

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Spec:
        """Read a spec from plain data: `{"blocks": [{"agent", "allow", "disallow"}], "sitemaps": [...]}`.

        `block` is accepted for `blocks` (TOML's `[[block]]`). Unknown or
        misspelt keys, values of the wrong type and a spec without blocks or
        sitemaps raise `InvalidSpec` naming the key.
        """
        for key in data:
            if key not in SPEC_KEYS:
                raise InvalidSpec(_unknown(key, SPEC_KEYS, None), key)
        if "blocks" in data and "block" in data:
            raise InvalidSpec(message("spec.both-blocks"), "block")
        key = "blocks" if "blocks" in data else "block"
        raw_blocks = data.get(key, [])
        if not isinstance(raw_blocks, list):
            raise InvalidSpec(message("spec.blocks-not-list", key=key), key)
        blocks = []
        for i, raw in enumerate(raw_blocks, start=1):
            if not isinstance(raw, Mapping):
                raise InvalidSpec(message("spec.block-not-table", block=i), key, i)
            for name in raw:
                if name not in BLOCK_KEYS:
                    raise InvalidSpec(_unknown(str(name), BLOCK_KEYS, i), str(name), i)
            if not isinstance(raw.get("agent"), str) or not raw["agent"].strip():
                raise InvalidSpec(message("spec.no-agent", block=i), "agent", i)
            comment = raw.get("comment", "")
            if not isinstance(comment, str):
                raise InvalidSpec(message("spec.not-string", block=i, key="comment"), "comment", i)
            agent = raw["agent"].strip()
            # A line break would write lines the spec does not hold; `#` would cut the agent short.
            if any(c in agent for c in "\r\n#") or any(c in comment for c in "\r\n"):
                raise InvalidSpec(
                    message("spec.line-break", block=i), "agent" if any(c in agent for c in "\r\n#") else "comment", i
                )
            usage = _paths(raw.get("content_usage", []), "content_usage", i)
            signal = raw.get("content_signal", "")
            if not isinstance(signal, str) or any(c in signal for c in "\r\n#"):
                raise InvalidSpec(message("spec.not-string", block=i, key="content_signal"), "content_signal", i)
            _check_preferences(usage, signal.strip(), i)
            blocks.append(
                Block(
                    agent,
                    _paths(raw.get("allow", []), "allow", i),
                    _paths(raw.get("disallow", []), "disallow", i),
                    comment,
                    usage,
                    signal.strip(),
                )
            )
        sitemaps = _paths(data.get("sitemaps", []), "sitemaps", None)
        if not blocks and not sitemaps:
            raise InvalidSpec(message("spec.empty"))
        return cls(tuple(blocks), sitemaps)


def _check_preferences(usage: tuple[str, ...], signal: str, block: int) -> None:
    """Every Content-Usage value must read as the preferences it seems to state, the Content-Signal too."""
    for value in usage:
        rule = usage_rule(Record(USAGE, value, 0, None))
        if (
            not rule.parsed
            or any(key not in CATEGORIES for key in rule.keys)
            or len(rule.preferences) != len(rule.keys)
        ):
            raise InvalidSpec(
                message("spec.bad-usage", block=block, value=value, categories=list(CATEGORIES)), "content_usage", block
            )
    if signal:
        line = signal_line(Record(SIGNAL, signal, 0, None))
        if not line.parsed or line.unknown:
            raise InvalidSpec(
                message("spec.bad-signal", block=block, value=signal, keys=list(SIGNALS)), "content_signal", block
            )


def _unknown(key: str, known: tuple[str, ...], block: int | None) -> Message:
    close = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.6)
    where = message("spec.where.block", block=block) if block is not None else message("spec.where.top")
    if close:
        return message("spec.unknown-key.typo", key=key, where=where, suggestion=close[0])
    return message("spec.unknown-key", key=key, where=where, known=[f"`{k}`" for k in known if k != "block"])


def _paths(value: Any, key: str, block: int | None) -> tuple[str, ...]:
    where = message("spec.where.block", block=block) if block is not None else message("spec.where.top")
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidSpec(message("spec.not-strings", key=key, where=where), key, block)
    for v in value:
        if "\n" in v or "\r" in v or "#" in v:
            raise InvalidSpec(message("spec.bad-path", key=key, where=where, value=v), key, block)
    return tuple(v.strip() for v in value)


DEFAULT_SPEC = Spec((Block("*", disallow=("/",)),))
PRESETS = ("block-ai-training", "ai-preferences", "allow-only", "root-only", "staging", "allow-all")


def preset(name: str, agent: str | None = None) -> Spec:
    """A ready spec: block-ai-training, ai-preferences, allow-only AGENT, root-only, staging, allow-all."""
    if name == "staging":
        return DEFAULT_SPEC
    if name == "allow-all":
        return Spec((Block("*"),))
    if name == "ai-preferences":
        # Crawlable by all, with the preferences saying no to AI training (aipref and Content Signals).
        return Spec((Block("*", content_usage=("/ train-ai=n",), content_signal="search=yes, ai-train=no"),))
    if name == "root-only":
        return Spec((Block("*", allow=("/$",), disallow=("/",)),))
    if name == "allow-only":
        if not agent or not agent.strip():
            raise InvalidSpec(message("spec.allow-only-agent"), "agent")
        if any(c in agent for c in "\r\n#"):
            raise InvalidSpec(message("spec.line-break", block=1), "agent", 1)
        return Spec((Block(agent.strip()), Block("*", disallow=("/",))))
    if name == "block-ai-training":
        return Spec(
            (
                *tuple(
                    Block(c.token, disallow=("/",), comment=crawlers.blocking_cost(c).render("en"))
                    for c in training_crawlers()
                ),
                Block("*"),
            )
        )
    raise InvalidSpec(message("spec.unknown-preset", name=name, presets=list(PRESETS)))


def training_crawlers() -> list[crawlers.Crawler]:
    """The catalogue's AI-training crawlers and training control tokens (search and AI search left alone)."""
    return [
        c
        for c in crawlers.catalogue()
        if c.purpose in ("ai-training", "dataset") or c.token in _TRAINING_CONTROL_TOKENS
    ]


def generate(spec: Spec | Mapping[str, Any]) -> str:
    """Write a robots.txt for a spec: one group per block, sitemaps at the end.

    A block without rules gets an empty `Disallow:` (it may fetch everything);
    paths are written as entered.
    """
    spec = spec if isinstance(spec, Spec) else Spec.from_data(spec)
    out: list[str] = []
    for block in spec.blocks:
        if out:
            out.append("")
        if block.comment:
            out.append(f"# {block.comment}")
        out.append(f"User-agent: {block.agent}")
        out.extend(f"Allow: {path}" for path in block.allow)
        out.extend(f"Disallow: {path}" for path in block.disallow)
        if not block.allow and not block.disallow:
            out.append("Disallow:")
        out.extend(f"Content-Usage: {value}" for value in block.content_usage)
        if block.content_signal:
            out.append(f"Content-Signal: {block.content_signal}")
    if spec.sitemaps:
        out.append("")
        out.extend(f"Sitemap: {url}" for url in spec.sitemaps)
    return "\n".join(out) + "\n"


class RoundTrip(NamedTuple):
    """One intended effect of the spec, checked on the parsed output.

    `effective` is false for a rule that can match no URL (a pattern that
    starts with neither `/` nor `*`: lint's patternNoSlash): such a rule
    never holds, whatever the verdict on the URL it was meant for.
    """

    agent: str
    url: str
    intended: bool  # the rule's own kind: True for allow
    allowed: bool
    line: int | None
    effective: bool = True

    @property
    def ok(self) -> bool:
        return self.effective and self.intended == self.allowed


class Generated(NamedTuple):
    text: str
    robots: Robots
    findings: list[Finding]
    checks: list[RoundTrip]
    warnings: list[Message]

    @property
    def verified(self) -> bool:
        return all(c.ok for c in self.checks)


def build(spec: Spec | Mapping[str, Any]) -> Generated:
    """Generate, parse back, verify each rule's intended verdict, and lint."""
    spec = spec if isinstance(spec, Spec) else Spec.from_data(spec)
    text = generate(spec)
    robots = parse(text)
    checks = []
    for block in spec.blocks:
        rules = [(path, True) for path in block.allow] + [(path, False) for path in block.disallow]
        for path, allow in rules:
            if path and path[0] not in "/*":
                verdict = robots.verdict(block.agent, example_target(path))
                checks.append(
                    RoundTrip(block.agent, example_target(path), allow, verdict.allowed, verdict.line, effective=False)
                )
        effective = [(path, allow) for path, allow in rules if path[:1] in ("/", "*")]
        for url in dict.fromkeys(u for path, _ in effective for u in _probes(path)):
            # A longer rule of the same block may win a URL, so the intended verdict is
            # that of the block's own rules alone; the check is that the whole file agrees.
            intended = _intended(effective, url)
            verdict = robots.verdict(block.agent, url)
            checks.append(RoundTrip(block.agent, url, intended, verdict.allowed, verdict.line))
    return Generated(text, robots, lint(robots), checks, _warnings(robots))


def _probes(path: str) -> list[str]:
    """URLs a rule is written for: the one it names and, unless anchored, one below it."""
    url = example_target(path)
    return [url] if path.endswith("$") else [url, url.rstrip("/") + "/x"]


def _warnings(robots: Robots) -> list[Message]:
    if robots.can_fetch("*", "/") or robots.can_fetch("*", "/index.html"):
        return []
    named = {t for g in robots.groups for t in g.agents if t != "*"}
    if any(robots.can_fetch(token, "/index.html") for token in named):
        return [OTHERS_BLOCKED_WARNING]
    return [STAGING_WARNING]


def _intended(rules: Sequence[tuple[str, bool]], url: str) -> bool:
    """What `rules` alone say of `url`: the verdict of a one-group file holding just them."""
    block = parse("User-agent: *\n" + "".join(f"{'Allow' if a else 'Disallow'}: {p}\n" for p, a in rules))
    return block.can_fetch("*", url)


def spec_allows(spec: Spec, agent: str, url: str) -> bool:
    """What the spec means for `agent` on `url`: the rules of its blocks naming the agent's
    token, else of the `*` blocks, judged on their own (no block means allowed)."""
    token = product_token(agent)
    blocks = [b for b in spec.blocks if group_token(b.agent) == token] or [b for b in spec.blocks if b.agent == "*"]
    rules = [(p, True) for b in blocks for p in b.allow if p] + [(p, False) for b in blocks for p in b.disallow if p]
    return _intended(rules, url)
