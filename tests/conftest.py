"""Leave out the peer adapter when the peer solver is not installed (its tests skip);
load the hypothesis profile ``HYPOTHESIS_PROFILE`` names (``quick`` by default, see ``effort.py``);
run the groups of tests that share a worker first."""

from __future__ import annotations

import importlib.util

import pytest
from hypothesis import settings

from .effort import PROFILE

settings.load_profile(PROFILE)

collect_ignore = [] if importlib.util.find_spec("rummikub_solver") else ["peer.py"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked as a group (the browser's, above all) first: under ``--dist loadgroup`` a
    worker starts on the longest piece of work at once while the others share out the rest,
    where taken last it would end the run alone."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)
