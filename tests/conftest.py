"""Leave out the peer adapter when the peer solver is not installed (its tests skip);
load the hypothesis profile ``HYPOTHESIS_PROFILE`` names (``quick`` by default, see ``effort.py``);
run the groups of tests that share a worker first, and keep each group in one worker; and where
``TILERUMMY_TEST_SERVICES=required`` (as ``.ci/run`` sets it), fail a test that would skip for want
of PostgreSQL or Redis instead of skipping it."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Generator

import pytest
from hypothesis import settings

from .effort import PROFILE

settings.load_profile(PROFILE)

collect_ignore = [] if importlib.util.find_spec("rummikub_solver") else ["peer.py"]


def _group(item: pytest.Item) -> str | None:
    """The name of the ``xdist_group`` a test is marked with (several: their names joined, as
    pytest-xdist joins them), or None."""
    names = sorted(
        {
            str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
            for mark in item.iter_markers("xdist_group")
        }
    )
    return "_".join(names) or None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked as a group (the browser's, above all) first: under ``--dist loadgroup`` a
    worker starts on the longest piece of work at once while the others share out the rest,
    where taken last it would end the run alone.

    Under ``--dist loadgroup`` the scheduler finds a test's group at the end of its id
    (``test_x@browser``), which pytest-xdist writes into a field that pytest 9.2 no longer reads
    the id from: the group is then written into the id here, else each test of a group would go
    to any worker (and each worker would start its own browser and server)."""
    items.sort(key=lambda item: _group(item) is None)
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        group = _group(item)
        if group is not None and not item.nodeid.endswith(f"@{group}"):
            item._id = type(item._id).parse(f"{item.nodeid}@{group}")


# The skip reasons of tests/postgres.py and tests/clusterkit.py when a service is missing.
SERVICE_SKIPS = ("no PostgreSQL server", "PostgreSQL is not reachable", "no Redis server", "Redis is not reachable")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A skip for a missing service is a failure where the services are required."""
    report = yield
    if report.skipped and os.environ.get("TILERUMMY_TEST_SERVICES") == "required":
        reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if any(skip in reason for skip in SERVICE_SKIPS):
            report.outcome = "failed"
            report.longrepr = f"required service missing: {reason}"
    return report
