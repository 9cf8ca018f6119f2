"""A provably fair deal: commit to the seed before the game, reveal it after.

When a game starts, the server draws a seed and a secret salt and publishes
only the commitment ``SHA-256("<seed>:<salt>")`` (the seed in decimal, the
salt as lowercase hex, both as ASCII). The deal and every later draw follow
from the seed alone (``Deal.from_seed``). When the game ends, the server
reveals the seed and the salt, and anyone can check that they hash to the
commitment shown at the start and that replaying the record from that seed
gives the tiles everyone was dealt and drew. See ``docs/fairness.md`` for
what this proves and what it does not.

>>> fair = Fairness.commit(seed=42, salt="00" * 16)
>>> fair.commitment == commitment_of(42, "00" * 16)
True
>>> fair.matches(42)
True
>>> fair.matches(43)
False
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import RecordError
from .tiles import format_tiles

if TYPE_CHECKING:
    from .records import GameRecord

#: Bytes of randomness in a salt (its hex text is twice as long).
SALT_BYTES = 16

_HEX = re.compile(r"[0-9a-f]+")


def commitment_of(seed: int, salt: str) -> str:
    """The commitment to a seed: lowercase hex SHA-256 of ``"<seed>:<salt>"``."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def new_salt() -> str:
    """A fresh secret salt, from the operating system's randomness."""
    return secrets.token_hex(SALT_BYTES)


def new_seed() -> int:
    """A fresh seed for a deal, from the operating system's randomness."""
    return secrets.randbelow(2**63)


@dataclass(frozen=True, slots=True)
class Fairness:
    """The commitment published at the start, and the salt revealed at the end
    (``salt`` is None while the game runs: it is the secret that keeps the seed hidden)."""

    commitment: str
    salt: str | None = None

    def __post_init__(self) -> None:
        if len(self.commitment) != 64 or not _HEX.fullmatch(self.commitment):
            raise RecordError("fairness.commitment: expected 64 lowercase hex digits (a SHA-256)")
        if self.salt is not None and (not self.salt or len(self.salt) > 256 or not _HEX.fullmatch(self.salt)):
            raise RecordError("fairness.salt: expected lowercase hex digits")

    @classmethod
    def commit(cls, seed: int, salt: str) -> Fairness:
        """The commitment to ``seed`` with ``salt``, salt revealed."""
        return cls(commitment_of(seed, salt), salt)

    def hidden(self) -> Fairness:
        """What may be shown while the game runs: the commitment alone."""
        return Fairness(self.commitment)

    def matches(self, seed: int) -> bool:
        """Whether the revealed salt and ``seed`` hash to the commitment."""
        return self.salt is not None and secrets.compare_digest(commitment_of(seed, self.salt), self.commitment)

    def to_dict(self) -> dict[str, str]:
        data = {"commitment": self.commitment}
        if self.salt is not None:
            data["salt"] = self.salt
        return data


@dataclass(frozen=True, slots=True)
class Verification:
    """What checking a record's fairness found: ``problems`` is empty when every check passed."""

    problems: tuple[str, ...]
    starting_racks: tuple[str, ...]  # each seat's rack as dealt from the seed, for players to compare

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(record: GameRecord, stored_result: Mapping[str, Any] | None = None) -> Verification:
    """Check that a record's seed matches its commitment, and that the game it
    records follows from that seed: every action legal, and the round's scores
    those of ``stored_result`` (the record's ``result``) when given."""
    problems: list[str] = []
    fairness = record.fairness
    seed = record.deal.seed
    if fairness is None:
        problems.append("the record has no fairness commitment")
    elif fairness.salt is None:
        problems.append("the record's salt is not revealed")
    if seed is None:
        problems.append("the record gives its deal tile by tile, not a seed: nothing to check it against")
    elif fairness is not None and fairness.salt is not None and not fairness.matches(seed):
        problems.append(
            f"the seed and the salt do not match the commitment: SHA-256 of {seed}:{fairness.salt} is "
            f"{commitment_of(seed, fairness.salt)}, the commitment is {fairness.commitment}"
        )
    replay = record.replay()
    if replay.error is not None:
        problems.append(f"action {replay.error_index} is illegal: {replay.error.detail}")
    result = replay.game.result
    if stored_result is not None:
        if result is None:
            problems.append("the record stores a result, but its actions do not finish the round")
        elif list(stored_result.get("scores", [])) != list(result.scores):
            problems.append(
                f"the stored scores {stored_result.get('scores')} are not the replay's {list(result.scores)}"
            )
    racks = tuple(format_tiles(piece.tile for piece in rack) for rack in record.deal.racks)
    return Verification(tuple(problems), racks)
