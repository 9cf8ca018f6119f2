"""Leave out the peer adapter when the peer solver is not installed (its tests
skip); with TILERUMMY_REQUIRE_COMPILED=1, refuse to run on the plain solver; load the
hypothesis profile ``HYPOTHESIS_PROFILE`` names (``quick`` by default, see ``effort.py``)."""

from __future__ import annotations

import importlib.util
import os

import pytest
from hypothesis import settings

from .effort import PROFILE

settings.load_profile(PROFILE)

collect_ignore = [] if importlib.util.find_spec("rummikub_solver") else ["peer.py"]


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("TILERUMMY_REQUIRE_COMPILED") == "1":
        from tilerummy.solver import COMPILED, _compiled

        if not COMPILED:
            raise pytest.UsageError(
                f"the compiled solver is required but not used: {_compiled.problem() or 'turned off'}"
            )
