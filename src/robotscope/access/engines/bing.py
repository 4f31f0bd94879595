"""`bing`: the reading of Microsoft's crawlers (bingbot, AdIdxBot, ...), from what Bing has published.

No current Bing help page on robots.txt syntax was available; what Bing
documents comes from its Webmaster blog and from a Bing engineer's public
statement. Behaviour by behaviour: "settled" means a Bing (or Microsoft)
text says it, "inferred" that robotscope reads it from one that does not say
it outright, and "not documented: RFC 9309" that nothing Bing published and
available here says anything, so RFC 9309
(https://www.rfc-editor.org/rfc/rfc9309.html) is followed.

Line dialect and group formation
    Not documented: RFC 9309 (case-insensitive keys, `#` comments, a line
    without a colon ignored; a run of User-agent lines and the rules under
    it form a group, empty lines ignored).
Agent matching (differs from RFC 9309 for bingbot)
    Settled that a group naming bingbot replaces `*`: "If you create a
    section for Bingbot specifically, all the default directives will be
    ignored (except Crawl-Delay)" (Frédéric Dubut of Bing, quoted at
    https://thrivesearch.com/robots-txt-tip-from-bing-include-all-relevant-directives-if-you-have-a-bingbot-section/),
    and Bing's help text, as copied at
    https://www.boldtechinfo.com/how-to-create-a-bing-robots-txt-file/:
    "Bingbot, upon finding a specific set of instructions for itself, will
    ignore the directives listed in the generic section".
    Settled that bingbot still obeys groups written for its predecessor:
    "we'll still honor all applicable robots.txt directives, including those
    specific to MSNBot ... if we detect separate sets of custom directives
    for both MSNBot and BingBot in your robots.txt file, the BingBot
    directives will take precedence"
    (https://blogs.bing.com/webmaster/September-2010/Bingbot-is-coming-to-town).
    So bingbot uses the groups naming bingbot, else those naming msnbot,
    else `*`. Inferred: that an msnbot group also takes precedence over `*`
    (msnbot's own group always did, and "The renamed crawler will continue
    to perform as it did previously", same post), and that only the main
    crawler, bingbot, falls back to msnbot (the post renames that one
    crawler). Other Microsoft crawlers in the catalogue (AdIdxBot,
    BingPreview, ...) match their own token exactly, then `*`.
Matching
    Settled that `Allow`, `*` ("match a sequence of characters") and `$`
    ("match everything from the end of a URL") are supported: the joint
    documentation of June 2008, which "includes all the major REP features
    currently implemented by Google, Microsoft, and Yahoo"
    (http://www.bing.com/blogs/site_blogs/b/webmaster/archive/2008/06/03/robots-exclusion-protocol-joining-together-to-provide-better-documentation.aspx;
    the table itself as published in Google's copy,
    https://webmasters.googleblog.com/2008/06/improving-on-robots-exclusion-protocol.html).
    Which rule wins when several match (longest match, Allow on ties) is not
    documented: RFC 9309. An empty `Disallow:` matches nothing and
    `/robots.txt` is always allowed (not documented: RFC 9309).
Size limit
    Not documented: RFC 9309 (the first 500 KiB are read; rules past them
    are ignored).
Crawl-delay
    Settled that Bing honours it (the Dubut quote above), but it is a
    crawl rate, not an access rule: it never decides a verdict.
Missing file and fetch outcomes
    Settled: "if a robots.txt file is missing from a subdomain, BingBot ...
    will consider itself allowed anywhere on the subdomain"
    (https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question).
    That and every other fetch outcome are the `bing` fetch policy of
    `robotscope.access.policy`.
"""

from __future__ import annotations

from ...syntax.crawlers import recognise
from ...syntax.tokens import product_token
from ...syntax.urls import target
from . import rfc9309 as rfc
from .base import Engine, Parsed, Selection, applying

OPERATOR = "Microsoft"  # the crawler catalogue's operator of bingbot and Bing's other crawlers
MAIN = "bingbot"  # the crawler that still obeys msnbot groups
LEGACY = "msnbot"


# RFC 9309's choice, with the catalogue's profiles for Microsoft's crawlers.
_microsoft = rfc.operator_select(OPERATOR)


def select(parsed: Parsed, agent: str) -> Selection:
    """bingbot: its own groups, else msnbot's, else `*`; Microsoft's other crawlers with the catalogue's
    profiles; every other crawler as RFC 9309 alone."""
    crawler = recognise(agent)
    if crawler is not None and crawler.token.lower() == MAIN:
        token = product_token(agent)
        named = {name for group in parsed.groups for name in group.agents}
        if token not in named and MAIN not in named and LEGACY in named:
            return rfc.selection(token, applying(parsed, LEGACY))
    return _microsoft(parsed, agent)


ENGINE: Engine = Engine(
    name="bing",
    title="Bing",
    sources=(
        "https://blogs.bing.com/webmaster/September-2010/Bingbot-is-coming-to-town",
        "https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question",
        "http://www.bing.com/blogs/site_blogs/b/webmaster/archive/2008/06/03/robots-exclusion-protocol-joining-together-to-provide-better-documentation.aspx",
        "https://webmasters.googleblog.com/2008/06/improving-on-robots-exclusion-protocol.html",
        "https://thrivesearch.com/robots-txt-tip-from-bing-include-all-relevant-directives-if-you-have-a-bingbot-section/",
        "https://www.boldtechinfo.com/how-to-create-a-bing-robots-txt-file/",
        "https://www.rfc-editor.org/rfc/rfc9309.html",
    ),
    policy="bing",
    read=rfc.read,
    select=select,
    match=rfc.match,
    regroup=rfc.regroup,
    target=target,
    operator=OPERATOR,
    notes=("engine.bing.note.sources", "engine.bing.note.msnbot", "engine.bing.note.rfc"),
)
