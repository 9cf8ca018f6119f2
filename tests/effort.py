"""How hard the property tests try. ``make test`` runs the quick profile: each property a
few dozen examples at most, enough to catch a broken invariant on the common paths.
``HYPOTHESIS_PROFILE=thorough`` runs every property ten times as many examples (and any
property that names no count a thousand), for a change to the core or a night run::

    HYPOTHESIS_PROFILE=thorough .venv/bin/pytest tests/test_game_pop.py tests/test_properties.py
"""

from __future__ import annotations

import os

from hypothesis import settings

#: The profile ``tests/conftest.py`` loads: ``quick`` unless the environment names another.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "quick")

#: How many times as many examples the thorough profile runs as the quick one.
THOROUGH_FACTOR = 10

#: The quick profile's count for a property that names none (hypothesis would run a hundred).
QUICK_DEFAULT_EXAMPLES = 30

settings.register_profile("quick", deadline=None, max_examples=QUICK_DEFAULT_EXAMPLES)
settings.register_profile("thorough", deadline=None, max_examples=1000)


def examples(quick: int) -> int:
    """The number of examples a property runs under the profile loaded: ``quick`` or ten times it."""
    return quick * THOROUGH_FACTOR if PROFILE == "thorough" else quick
