"""The crawler catalogue at the path users import it from: `robotscope.syntax.crawlers`, re-exported.

>>> from robotscope.crawlers import select
>>> agents = [crawler.token for crawler in select("ai")]
"""

from .syntax.crawlers import *  # noqa: F403 - the catalogue's public names, as its __all__ lists them
from .syntax.crawlers import __all__ as __all__
