"""``python -m ragviz.cli.command``: the same as the ``ragviz`` command."""

import sys

from ragviz.cli.command import main

sys.exit(main())
