"""``python -m tilerummy.cli``: the same as the ``tilerummy`` command."""

from . import main

raise SystemExit(main())
