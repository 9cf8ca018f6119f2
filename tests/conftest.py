"""Leave out the peer adapter when the peer solver is not installed (its tests skip);
load the hypothesis profile ``HYPOTHESIS_PROFILE`` names (``quick`` by default, see ``effort.py``)."""

from __future__ import annotations

import importlib.util

from hypothesis import settings

from .effort import PROFILE

settings.load_profile(PROFILE)

collect_ignore = [] if importlib.util.find_spec("rummikub_solver") else ["peer.py"]
