"""``python -m sklearn_confusion_ext``: the command line (see :mod:`._cli`)."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
