"""``python -m companion`` runs the same command as ``companion``."""

import sys

from companion.cli import main

sys.exit(main())
