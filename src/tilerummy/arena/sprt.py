"""A sequential probability ratio test on deal scores: play until one hypothesis wins.

H0 says the first bot's win share is ``p0``, H1 that it is ``p1``. After each
deal the test adds up the log-likelihood ratio (LLR) of H1 against H0 and
stops as soon as it leaves Wald's bounds::

    lower = ln(beta / (1 - alpha))      accept H0 at or below
    upper = ln((1 - beta) / alpha)      accept H1 at or above

``alpha`` is the chance of accepting H1 when H0 holds, ``beta`` of accepting
H0 when H1 holds. A deal's score (its games scored together, see
:mod:`tilerummy.arena.pairs`) takes one of a few values, 0, 1/n, ... 1, with
an unknown distribution, so the test is the generalised SPRT fishtest runs
on pentanomial pairs: the likelihood of the deals under each hypothesis is
that of the likeliest distribution of deal scores whose mean is the
hypothesis' share, and the LLR is the log of their ratio. Heads-up games
scored one by one, this is Wald's binomial test; near the hypotheses it is
close to the normal approximation ``N (p1 - p0) (2 mean - p0 - p1) / (2
variance)`` over N deals. Every possible deal score's count is taken to be
at least 0.001, as fishtest regularises, so a score not seen yet stays
possible and a bot that won every deal so far is not judged infinitely sure.

>>> test = Sprt(SprtHypotheses(0.5, 0.6), games_per_deal=2)
>>> round(test.upper, 3), round(test.lower, 3)
(2.944, -2.944)
>>> for score in [1.0, 0.5] * 40:
...     test.add(score)
>>> test.verdict, test.deals
('H1', 17)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import TilerummyError

Verdict = Literal["H0", "H1"]

#: The least count each possible deal score is taken to have.
REGULARISATION = 1e-3


@dataclass(frozen=True, slots=True)
class SprtHypotheses:
    """The two win shares the test chooses between, and its error rates."""

    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("p0", "p1", "alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 1:
                raise TilerummyError(f"--sprt {name}={value:g}: give a number between 0 and 1")
        if self.p0 == self.p1:
            raise TilerummyError(f"--sprt p0 and p1 are both {self.p0:g}: the hypotheses must differ")
        if self.alpha + self.beta >= 1:
            raise TilerummyError("--sprt alpha + beta must be below 1")

    @classmethod
    def parse(cls, text: str) -> SprtHypotheses:
        """Read ``p0=0.5,p1=0.55[,alpha=0.05,beta=0.05]``.

        >>> SprtHypotheses.parse("p0=0.5, p1=0.55, alpha=0.1")
        SprtHypotheses(p0=0.5, p1=0.55, alpha=0.1, beta=0.05)

        :raises TilerummyError: naming the part that is wrong or missing.
        """
        values: dict[str, float] = {}
        for part in text.split(","):
            name, equals, value = part.partition("=")
            name = name.strip().lower()
            if not equals or name not in ("p0", "p1", "alpha", "beta"):
                raise TilerummyError(f"--sprt {part.strip()!r}: write p0=SHARE,p1=SHARE[,alpha=RATE,beta=RATE]")
            if name in values:
                raise TilerummyError(f"--sprt gives {name} twice")
            try:
                values[name] = float(value)
            except ValueError:
                raise TilerummyError(f"--sprt {name}={value.strip()!r}: expected a number") from None
        missing = [name for name in ("p0", "p1") if name not in values]
        if missing:
            raise TilerummyError(f"--sprt needs {missing[0]} (e.g. p0=0.5,p1=0.55)")
        return cls(**values)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR: (accept H0 at or below, accept H1 at or above)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def log_likelihood_ratio(counts: Sequence[float], p0: float, p1: float) -> float:
    """The LLR of H1 against H0 for ``counts[k]`` deals of score k / (len(counts) - 1)."""
    levels = len(counts) - 1
    scores = [k / levels for k in range(levels + 1)]
    regularised = [max(count, REGULARISATION) for count in counts]
    total = sum(regularised)
    frequencies = [count / total for count in regularised]
    deals = sum(counts)
    return deals * (_log_likelihood(frequencies, scores, p1) - _log_likelihood(frequencies, scores, p0))


def _log_likelihood(frequencies: Sequence[float], scores: Sequence[float], mean: float) -> float:
    """The log-likelihood per deal of the likeliest distribution of scores
    with this mean, less that of the observed frequencies."""
    likeliest = likeliest_with_mean(frequencies, scores, mean)
    return sum(f * math.log(p / f) for f, p in zip(frequencies, likeliest, strict=True) if f > 0)


def likeliest_with_mean(frequencies: Sequence[float], scores: Sequence[float], mean: float) -> list[float]:
    """Of the distributions of ``scores`` whose mean is ``mean``, the likeliest
    to have given these frequencies (every score needs a frequency above 0
    for means near the ends).

    By a Lagrange multiplier, it gives score x the probability
    f(x) / (1 + t (x - mean)), where t makes the mean ``mean``; that mean
    falls as t grows, so bisection finds t.

    >>> [round(p, 3) for p in likeliest_with_mean([0.25, 0.5, 0.25], [0.0, 0.5, 1.0], 0.6)]
    [0.169, 0.463, 0.369]
    """
    low, high = -1 / (max(scores) - mean), 1 / (mean - min(scores))

    def excess(t: float) -> float:
        return sum(f * (x - mean) / (1 + t * (x - mean)) for f, x in zip(frequencies, scores, strict=True))

    for _ in range(100):
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    t = (low + high) / 2
    return [f / (1 + t * (x - mean)) for f, x in zip(frequencies, scores, strict=True)]


@dataclass(frozen=True, slots=True)
class SprtResult:
    hypotheses: SprtHypotheses
    verdict: Verdict | None  # None: the games ran out first
    llr: float
    deals: int
    games: int

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.hypotheses.alpha, self.hypotheses.beta)

    def to_dict(self) -> dict[str, Any]:
        lower, upper = self.bounds
        return {
            "p0": self.hypotheses.p0,
            "p1": self.hypotheses.p1,
            "alpha": self.hypotheses.alpha,
            "beta": self.hypotheses.beta,
            "verdict": self.verdict,
            "llr": round(self.llr, 4),
            "lower": round(lower, 4),
            "upper": round(upper, 4),
            "deals": self.deals,
            "games": self.games,
        }


class Sprt:
    """The test as deal scores arrive, in deal order; it ignores deals after its verdict."""

    def __init__(self, hypotheses: SprtHypotheses, *, games_per_deal: int) -> None:
        self.hypotheses = hypotheses
        self.games_per_deal = games_per_deal
        self.lower, self.upper = bounds(hypotheses.alpha, hypotheses.beta)
        self.counts = [0] * (games_per_deal + 1)
        self.llr = 0.0
        self.verdict: Verdict | None = None

    @property
    def deals(self) -> int:
        return sum(self.counts)

    def add(self, score: float) -> None:
        """Count one deal's score (a multiple of 1 / games_per_deal) and judge."""
        if self.verdict is not None:
            return
        self.counts[round(score * self.games_per_deal)] += 1
        self.llr = log_likelihood_ratio(self.counts, self.hypotheses.p0, self.hypotheses.p1)
        if self.llr >= self.upper:
            self.verdict = "H1"
        elif self.llr <= self.lower:
            self.verdict = "H0"

    def result(self) -> SprtResult:
        return SprtResult(self.hypotheses, self.verdict, self.llr, self.deals, self.deals * self.games_per_deal)
