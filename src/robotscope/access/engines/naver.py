"""`naver`: the reading of Naver's crawler Yeti, from Naver Search Advisor's robots.txt guide.

The guide itself (https://searchadvisor.naver.com/guide/seo-basic-robots)
was not available; it is known here only through pages that quote or
paraphrase it, so every behaviour below is at best "inferred" (read from a
copy of the guide) and otherwise "not documented: RFC 9309"
(https://www.rfc-editor.org/rfc/rfc9309.html). What those copies say is
that Naver follows the standard, so the reading is RFC 9309's throughout.

Which standard
    Inferred: the guide's table of HTTP statuses, quoted at
    https://blog.chulgil.me/robots-txt-seoljeonghagi, reads a 2xx file as
    "로봇 배제 표준을 준수하는 규칙을 해석하여 사용합니다" (the rules that follow
    the robots exclusion standard are read and used), and a paraphrase of the
    guide
    (https://naligi.com/entry/%EA%B2%80%EC%83%89-%EC%97%94%EC%A7%84-%EA%B2%80%EC%83%89%EC%9D%84-%EC%9C%84%ED%95%9C-robotstxt-%EC%84%A4%EC%A0%95-Naver-Daum-Google-%EB%93%B1)
    says the standard is "IETF에서 2022년 9월에 발행된 표준화 문서" (the
    document the IETF published in September 2022: RFC 9309).
Line dialect and group formation
    Not documented: RFC 9309. The guide asks for a plain-text file
    ("text/plain", both copies above).
Agent matching
    Inferred: Yeti is the token (the crawler catalogue, citing the guide;
    "NAVER | Yeti" in the table of a page that follows the guide closely,
    https://query.tistory.com/entry/robotstxt-%EA%B8%B0%EB%B3%B8%EC%84%A4%EC%A0%95%EA%B0%92-snippet?category=962915),
    matched exactly, case-insensitively; a group naming Yeti replaces `*`
    (RFC 9309). Naver's older help text, as copied at
    http://adminplay.com/LETC/8449, names NaverBot and Yeti in separate
    groups and nowhere says that Yeti obeys a NaverBot group, so it does not
    (not documented: RFC 9309). The crawler catalogue has no Naver fallback.
Matching
    Inferred: longest match and `$`, from the example that lets crawlers
    fetch only the site's root page, `Disallow: /` with `Allow: /$`
    ("모든 로봇에게 사이트의 루트 페이지만 수집을 허용합니다", on the
    query.tistory.com page above, which appears to copy the guide; naver.com's
    own robots.txt is these lines, as quoted at
    https://minsup.gnuok.com:443/15sir/so_ok365/7871?page=16): `/` is allowed
    only if the longer `Allow: /$` beats `Disallow: /`, and `/$` matches `/`
    alone. `*`, the tie rule
    (Allow wins), percent-encoding and the implicit `/robots.txt`: not
    documented, RFC 9309.
Size limit
    Not documented: RFC 9309 (the first 500 KiB are read).
Fetch outcomes
    The `naver` fetch policy of `robotscope.access.policy` (from the guide's table
    of HTTP statuses, via the chulgil.me copy). A missing file allows
    everything ("robots.txt를 작성하지 않으면 모두 검색허용으로 간주됩니다",
    adminplay.com copy above).
"""

from __future__ import annotations

from ...syntax.urls import target
from . import rfc9309 as rfc
from .base import Engine

OPERATOR = "Naver"  # the crawler catalogue's operator of Yeti


# RFC 9309's selection; the catalogue's profiles apply to Naver's crawlers only (Yeti has none).
select = rfc.operator_select(OPERATOR)


ENGINE: Engine = Engine(
    name="naver",
    title="Naver",
    sources=(
        "https://searchadvisor.naver.com/guide/seo-basic-robots",
        "https://blog.chulgil.me/robots-txt-seoljeonghagi",
        "https://naligi.com/entry/%EA%B2%80%EC%83%89-%EC%97%94%EC%A7%84-%EA%B2%80%EC%83%89%EC%9D%84-%EC%9C%84%ED%95%9C-robotstxt-%EC%84%A4%EC%A0%95-Naver-Daum-Google-%EB%93%B1",
        "https://query.tistory.com/entry/robotstxt-%EA%B8%B0%EB%B3%B8%EC%84%A4%EC%A0%95%EA%B0%92-snippet?category=962915",
        "https://minsup.gnuok.com:443/15sir/so_ok365/7871?page=16",
        "http://adminplay.com/LETC/8449",
        "https://www.rfc-editor.org/rfc/rfc9309.html",
    ),
    policy="naver",
    read=rfc.read,
    select=select,
    match=rfc.match,
    regroup=rfc.regroup,
    target=target,
    operator=OPERATOR,
    notes=("engine.naver.note.guide", "engine.naver.note.example", "engine.naver.note.naverbot"),
)
