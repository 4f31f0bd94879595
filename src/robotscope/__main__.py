"""`python -m robotscope`: the `robotscope` command."""

from .cli import main

main()
