"""Server rules from a robots.txt, at the path users import them from: `robotscope.reports.enforce`, re-exported.

>>> import robotscope
>>> from robotscope.enforce import export
>>> made, result = export(robotscope.parse("User-agent: GPTBot\\nDisallow: /\\n"), "caddy", agents="GPTBot")
>>> result.files[0][0], [group.tokens for group in made.groups]
('robotscope.caddy', [('GPTBot',)])
"""

from .reports.enforce import *  # noqa: F403 - the package's public names, as its __all__ lists them
from .reports.enforce import __all__ as __all__
