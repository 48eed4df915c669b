"""``python -m bgkit``: the same as the ``bgkit`` command."""

from bgkit.cli import main

main()
