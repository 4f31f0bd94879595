"""The readings of the operators whose documentation robotscope follows: `bing`, `naver` and `yandex`.

Each has its own module, whose docstring cites the source of every
behaviour and labels what is settled by the operator's text, what is
inferred, and what no available text documents (and so follows RFC 9309):

- `bing` (`robotscope.engines.bing`): RFC 9309, except that bingbot obeys
  a group written for msnbot when no group names bingbot; Bing's fetch policy.
- `naver` (`robotscope.engines.naver`): RFC 9309, which Naver's guide says
  it follows; Naver's fetch policy.
- `yandex` (`robotscope.engines.yandex`): the robot's own group, else
  `User-agent: Yandex`, else `*`; an empty line ends a group; a file over
  500 KB is not read at all (everything allowed); the RFC 9309 fetch policy.

docs/readings-sources.md tabulates the research (behaviour, engine, quote,
URL, settled or inferred).
"""

from __future__ import annotations

from .bing import ENGINE as BING
from .naver import ENGINE as NAVER
from .yandex import ENGINE as YANDEX

__all__ = ["BING", "NAVER", "YANDEX"]
