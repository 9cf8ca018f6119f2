"""The game as environments for learning agents.

:mod:`.encoding` (NumPy only) turns a seat's view into fixed-size arrays and
lists the plays it may make; :mod:`.aec` (a PettingZoo AEC environment, every
seat an agent) and :mod:`.single` (a Gymnasium environment for one seat
against bots) need the ``env`` extra: ``pip install 'tilerummy[env]'``.
See docs/env.md.
"""

from .encoding import (
    DEFAULT_PLAYS,
    FACES,
    MAX_SEATS,
    OBSERVATION_LAYOUT,
    action_mask,
    encode_observation,
    legal_plays,
    observation_size,
    to_action,
)

__all__ = [
    "DEFAULT_PLAYS",
    "FACES",
    "MAX_SEATS",
    "OBSERVATION_LAYOUT",
    "action_mask",
    "encode_observation",
    "legal_plays",
    "observation_size",
    "to_action",
]
