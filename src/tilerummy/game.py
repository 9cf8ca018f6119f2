"""A round of the game: the state, the four actions, and per-player views.

A game is its rules, its deal and its list of actions; everything else is
derived by applying the actions in order, so a record replays exactly.
Every action is checked first and applied only if legal: a refused action
raises :class:`~tilerummy.errors.IllegalAction` and changes nothing.

Time is an argument, never read from a clock: an action may carry ``at``
(seconds on any monotonic scale the caller chooses). When it does, the game
knows each turn's deadline and refuses a play that comes after it.

:meth:`Game.pop` takes back the last action exactly, as if it had never been
applied (a server whose write of an action failed undoes it this way).
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .deal import Deal
from .errors import IllegalAction, IllegalPlay, NotYourTurn, Reason, RulesError
from .legality import judge_play
from .melds import Table
from .openings import has_opening
from .rules import PoolDraws, PoolExhausted, Rules
from .scoring import RoundScore, score_round
from .tiles import Piece, Tile


@dataclass(frozen=True, slots=True)
class Play:
    """End the turn with this table (the whole table, as it should be after the
    turn); text when a record holds sets that do not read as valid ones, which
    the game then refuses as an illegal play."""

    seat: int
    table: Table | str
    at: float | None = None
    kind: Literal["play"] = field(default="play", init=False)


@dataclass(frozen=True, slots=True)
class Draw:
    """End the turn by drawing one tile from the pool."""

    seat: int
    at: float | None = None
    kind: Literal["draw"] = field(default="draw", init=False)


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing when the pool is empty."""

    seat: int
    at: float | None = None
    kind: Literal["pass"] = field(default="pass", init=False)


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn ran out of time: the table is restored and the player draws the penalty."""

    seat: int
    at: float | None = None
    kind: Literal["timeout"] = field(default="timeout", init=False)


Action = Play | Draw | Pass | Timeout


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may see (``seat`` None: a spectator, who sees no rack).

    Never holds another player's tiles or the order of the pool.
    """

    seat: int | None
    players: tuple[str, ...]
    rack: tuple[Piece, ...] | None
    table: Table
    rack_sizes: tuple[int, ...]
    pool_size: int
    turn: int
    deadline: float | None
    melded: tuple[bool, ...]
    history: tuple[Action, ...]
    result: RoundScore | None
    rules: Rules

    @property
    def is_over(self) -> bool:
        return self.result is not None


@dataclass(frozen=True, slots=True)
class _Before:
    """The state an action changes, as it was before the action: what :meth:`Game.pop` restores.

    Racks and pool are kept by reference: actions replace those lists, never
    change them in place, so the old lists stay as they were.
    """

    racks: tuple[list[Piece], ...]
    pool: list[Piece]
    table: Table
    table_pieces: int
    turn: int
    melded: tuple[bool, ...]
    opening_racks: tuple[list[Piece] | None, ...]
    opening_found: tuple[tuple[list[Piece], bool] | None, ...]
    turns_after_pool_empty: int | None
    idle_turns: int
    result: RoundScore | None
    turn_started_at: float | None


class Game:
    """One round between 2 to 6 players.

    >>> game = Game.new(["Ana", "Bruno"], seed=7)
    >>> game.turn in (0, 1) and len(game.rack(0)) == 14
    True
    """

    def __init__(
        self,
        rules: Rules,
        deal: Deal,
        players: Sequence[str] | None = None,
        *,
        started_at: float | None = None,
    ) -> None:
        rules.check_players(deal.players)
        if players is None:
            players = [f"Player {seat + 1}" for seat in range(deal.players)]
        if len(players) != deal.players:
            raise RulesError(f"{len(players)} names for {deal.players} racks")
        self.rules = rules
        self.deal = deal
        self.players: tuple[str, ...] = tuple(players)
        self.started_at = started_at
        self._racks: list[list[Piece]] = [sorted(rack) for rack in deal.racks]
        self._pool: list[Piece] = list(deal.pool)
        # Per-seat draws: seat s owns the pool's tiles s, s + n, s + 2n... (n players).
        self._pool_owner = {piece: index % deal.players for index, piece in enumerate(deal.pool)}
        self._table = Table()
        self._table_pieces: list[Piece] = []
        self.turn = deal.first
        self._melded = [False] * deal.players
        # Each seat's rack at the start of its latest turn before it melded. An
        # unmelded rack only grows, so it held an initial meld then if it ever
        # did at a turn's start: one search, when the answer is wanted, tells.
        self._opening_racks: list[list[Piece] | None] = [None] * deal.players
        self._opening_found: list[tuple[list[Piece], bool] | None] = [None] * deal.players
        self._actions: list[Action] = []
        self._before: deque[_Before] = deque()
        self._turns_after_pool_empty: int | None = None
        self._idle_turns = 0
        self._result: RoundScore | None = None
        self._turn_started_at = started_at
        if not self._pool:
            # Dealt with an empty pool: the ending rule counts from the first turn.
            self._turns_after_pool_empty = 0
        self._start_turn()

    @classmethod
    def new(
        cls,
        players: int | Sequence[str] = 4,
        *,
        rules: Rules | str = "standard",
        seed: int | None = None,
        started_at: float | None = None,
    ) -> Game:
        """A new round dealt from a seed (a random one, kept in the deal, if None)."""
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        names = [f"Player {seat + 1}" for seat in range(players)] if isinstance(players, int) else list(players)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        return cls(rules, Deal.from_seed(rules, len(names), seed), names, started_at=started_at)

    # --- State -----------------------------------------------------------

    @property
    def table(self) -> Table:
        return self._table

    @property
    def table_pieces(self) -> tuple[Piece, ...]:
        """The physical tiles on the table."""
        return tuple(sorted(self._table_pieces))

    def rack(self, seat: int) -> tuple[Piece, ...]:
        """A seat's rack, sorted (colour, then number). Hidden information."""
        self._check_seat(seat)
        return tuple(self._racks[seat])

    def rack_tiles(self, seat: int) -> list[Tile]:
        return [piece.tile for piece in self.rack(seat)]

    @property
    def pool_size(self) -> int:
        return len(self._pool)

    @property
    def pool(self) -> tuple[Piece, ...]:
        """The pool in the deal's order, which is the draw order when draws are
        shared. Hidden information: for records and audits only."""
        return tuple(self._pool)

    @property
    def melded(self) -> tuple[bool, ...]:
        """Whether each seat has made its initial meld."""
        return tuple(self._melded)

    @property
    def could_meld(self) -> tuple[bool, ...]:
        """For each seat, whether its rack held an initial meld at the start of
        one of its turns before it made one (the -200 / -100 rule)."""
        return tuple(self._could_meld(seat) for seat in range(len(self.players)))

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def result(self) -> RoundScore | None:
        """The round's scores once it is over, else None."""
        return self._result

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def deadline(self) -> float | None:
        """When the current turn runs out, if the rules have a clock and times are given."""
        if self.rules.turn_seconds is None or self._turn_started_at is None or self.is_over:
            return None
        return self._turn_started_at + self.rules.turn_seconds

    def turn_order(self) -> list[int]:
        """Seats in the order they play, from the round's first player."""
        count = len(self.players)
        return [(self.deal.first + offset) % count for offset in range(count)]

    # --- Actions ---------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply any action; see :meth:`play`, :meth:`draw`, :meth:`pass_turn`, :meth:`timeout`."""
        if isinstance(action, Play):
            self.play(action.seat, action.table, at=action.at)
        elif isinstance(action, Draw):
            self.draw(action.seat, at=action.at)
        elif isinstance(action, Pass):
            self.pass_turn(action.seat, at=action.at)
        else:
            self.timeout(action.seat, at=action.at)

    def play(self, seat: int, table: Table | str, *, at: float | None = None) -> None:
        """End the turn by laying out the table as given.

        :raises IllegalPlay: naming the rule the play breaks; nothing changes.
        """
        self._check_turn(seat)
        self._check_in_time(at)
        rack = self._racks[seat]
        judged = judge_play(self._table, table, [piece.tile for piece in rack], self.rules, melded=self._melded[seat])
        taken = _take_pieces(rack, judged.from_rack)
        self._remember()
        self._racks[seat] = [piece for piece in rack if piece not in taken]
        self._table = judged.table
        self._table_pieces.extend(taken)
        self._melded[seat] = True
        self._actions.append(Play(seat, judged.table, at))
        self._end_turn(placed=True, at=at)

    def draw(self, seat: int, *, at: float | None = None) -> None:
        """End the turn by drawing a tile.

        :raises IllegalAction: ``POOL_EMPTY`` when there is nothing to draw.
        """
        self._check_turn(seat)
        self._check_in_time(at)
        if not self._pool:
            raise IllegalAction(Reason.POOL_EMPTY, "the pool is empty: play or pass")
        self._remember()
        self._draw_tiles(seat, 1)
        self._actions.append(Draw(seat, at))
        self._end_turn(placed=False, at=at)

    def pass_turn(self, seat: int, *, at: float | None = None) -> None:
        """End the turn without playing; only when the pool is empty.

        :raises IllegalAction: ``POOL_NOT_EMPTY`` while a tile can be drawn.
        """
        self._check_turn(seat)
        self._check_in_time(at)
        if self._pool:
            raise IllegalAction(Reason.POOL_NOT_EMPTY, "you may pass only when the pool is empty: draw instead")
        self._remember()
        self._actions.append(Pass(seat, at))
        self._end_turn(placed=False, at=at)

    def timeout(self, seat: int, *, at: float | None = None) -> None:
        """The turn ran out of time: the player draws the penalty (as many as the pool holds).

        :raises IllegalAction: ``NO_TIME_LIMIT`` without a clock, ``TIME_NOT_UP``
            when ``at`` is before the deadline.
        """
        self._check_turn(seat)
        if self.rules.turn_seconds is None:
            raise IllegalAction(Reason.NO_TIME_LIMIT, "these rules have no time limit")
        deadline = self.deadline
        if at is not None and deadline is not None and at < deadline:
            raise IllegalAction(Reason.TIME_NOT_UP, f"the turn has {deadline - at:.1f} s left")
        self._remember()
        self._draw_tiles(seat, min(self.rules.timeout_penalty, len(self._pool)))
        self._actions.append(Timeout(seat, at))
        # Without a time, the next turn starts when this one ran out.
        self._end_turn(placed=False, at=at if at is not None else deadline)

    def pop(self) -> Action:
        """Take back the last action and return it: the game, and every view of
        it, is exactly as it was before the action. Cheap: nothing is replayed.

        :raises IndexError: when no action has been applied, or the action is
            older than :meth:`limit_undo` keeps.
        """
        if not self._actions:
            raise IndexError("no action to take back: the round has just been dealt")
        if not self._before:
            raise IndexError(f"only the last {self._before.maxlen} actions can be taken back")
        before = self._before.pop()
        self._racks = list(before.racks)
        self._pool = before.pool
        self._table = before.table
        del self._table_pieces[before.table_pieces :]
        self.turn = before.turn
        self._melded = list(before.melded)
        self._opening_racks = list(before.opening_racks)
        self._opening_found = list(before.opening_found)
        self._turns_after_pool_empty = before.turns_after_pool_empty
        self._idle_turns = before.idle_turns
        self._result = before.result
        self._turn_started_at = before.turn_started_at
        return self._actions.pop()

    def limit_undo(self, depth: int) -> None:
        """Keep what :meth:`pop` needs for the last ``depth`` actions only (1 or more).

        Each action remembered holds the racks and pool as they were: a long
        round kept whole for undo holds many copies, which a server with many
        games pays for in memory and in the garbage collector's passes.
        """
        if depth < 1:
            raise ValueError(f"the undo depth is 1 or more, not {depth}")
        if self._before.maxlen != depth:
            self._before = deque(self._before, maxlen=depth)

    # --- Views -----------------------------------------------------------

    def view(self, seat: int | None) -> PlayerView:
        """What a seat may see; ``None`` for a spectator (no rack)."""
        if seat is not None:
            self._check_seat(seat)
        return PlayerView(
            seat=seat,
            players=self.players,
            rack=tuple(self._racks[seat]) if seat is not None else None,
            table=self._table,
            rack_sizes=tuple(len(rack) for rack in self._racks),
            pool_size=len(self._pool),
            turn=self.turn,
            deadline=self.deadline,
            melded=tuple(self._melded),
            history=tuple(self._actions),
            result=self._result,
            rules=self.rules,
        )

    def spectator_view(self) -> PlayerView:
        return self.view(None)

    # --- Internals -------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.players):
            raise IllegalAction(
                Reason.UNKNOWN_SEAT, f"seat {seat!r} is not in this game (seats 0 to {len(self.players) - 1})"
            )

    def _check_turn(self, seat: int) -> None:
        self._check_seat(seat)
        if self._result is not None:
            raise IllegalAction(Reason.GAME_OVER, "the round is over")
        if seat != self.turn:
            raise NotYourTurn(f"it is {self.players[self.turn]}'s turn (seat {self.turn}), not seat {seat}'s")

    def _check_in_time(self, at: float | None) -> None:
        deadline = self.deadline
        if at is not None and deadline is not None and at > deadline:
            raise IllegalAction(Reason.TIME_UP, "the turn's time ran out: it ends with a timeout")

    def _remember(self) -> None:
        """Called once an action is known to be legal, just before it changes anything."""
        self._before.append(
            _Before(
                racks=tuple(self._racks),
                pool=self._pool,
                table=self._table,
                table_pieces=len(self._table_pieces),
                turn=self.turn,
                melded=tuple(self._melded),
                opening_racks=tuple(self._opening_racks),
                opening_found=tuple(self._opening_found),
                turns_after_pool_empty=self._turns_after_pool_empty,
                idle_turns=self._idle_turns,
                result=self._result,
                turn_started_at=self._turn_started_at,
            )
        )

    def _draw_tiles(self, seat: int, count: int) -> None:
        if self.rules.pool_draws is PoolDraws.SHARED:
            drawn, self._pool = self._pool[:count], self._pool[count:]
        else:
            drawn = []
            pool = list(self._pool)  # a new list: the state remembered for pop() holds the old one
            for _ in range(count):
                drawn.append(self._next_own_draw(seat, pool))
                pool.remove(drawn[-1])
            self._pool = pool
        self._racks[seat] = sorted(self._racks[seat] + drawn)
        if not self._pool and self._turns_after_pool_empty is None:
            # The pool just ran out: from the next player on, the ending rule counts turns.
            self._turns_after_pool_empty = -1

    def _next_own_draw(self, seat: int, pool: Sequence[Piece]) -> Piece:
        """The seat's next tile of its own share of ``pool``; once that is used up, the last
        tile of the largest share left (the tile its owner would draw last; on
        a tie, the owner next in turn after the seat).

        Which position is drawn depends only on how many tiles each seat has
        drawn, so every draw is still a uniformly random unseen tile, as from a
        shared pool; but a seat's k-th draw is the same tile whoever sits there
        and whatever the others did, as long as the shares last.
        """
        owners = self._pool_owner
        for piece in pool:
            if owners[piece] == seat:
                return piece  # the first of its own share: the shares interleave, so it comes early
        players = len(self.players)
        shares: list[list[Piece]] = [[] for _ in range(players)]
        for piece in pool:
            shares[owners[piece]].append(piece)
        largest = max(range(players), key=lambda owner: (len(shares[owner]), -((owner - seat) % players)))
        return shares[largest][-1]

    def _end_turn(self, *, placed: bool, at: float | None) -> None:
        seat = self.turn
        if not self._racks[seat]:
            self._finish()
            return
        if self._turns_after_pool_empty is not None:
            self._turns_after_pool_empty += 1
            self._idle_turns = 0 if placed or self._turns_after_pool_empty == 0 else self._idle_turns + 1
            players = len(self.players)
            if self.rules.pool_exhausted is PoolExhausted.ONE_MORE_ROUND:
                if self._turns_after_pool_empty >= players:
                    self._finish()
                    return
            elif self._idle_turns >= players:
                self._finish()
                return
        self.turn = (seat + 1) % len(self.players)
        if at is not None:
            self._turn_started_at = at
        self._start_turn()

    def _start_turn(self) -> None:
        seat = self.turn
        if self.rules.unmelded_penalty and not self._melded[seat]:
            self._opening_racks[seat] = self._racks[seat]

    def _could_meld(self, seat: int) -> bool:
        rack = self._opening_racks[seat]
        if rack is None:
            return False
        found = self._opening_found[seat]
        # Racks are replaced, never changed in place: the same list is the same rack.
        if found is None or found[0] is not rack:
            found = (rack, has_opening([piece.tile for piece in rack], self.rules))
            self._opening_found[seat] = found
        return found[1]

    def _finish(self) -> None:
        unmelded = {seat: self._could_meld(seat) for seat in range(len(self.players)) if not self._melded[seat]}
        self._result = score_round(
            [[piece.tile for piece in rack] for rack in self._racks],
            self.rules,
            unmelded=unmelded,
            turn_order=self.turn_order(),
        )


def _take_pieces(rack: Sequence[Piece], faces: Counter[Tile]) -> list[Piece]:
    """The rack's pieces for these faces, lowest copy first."""
    wanted = Counter(faces)
    taken = []
    for piece in sorted(rack):
        if wanted[piece.tile] > 0:
            wanted[piece.tile] -= 1
            taken.append(piece)
    if any(count > 0 for count in wanted.values()):
        raise IllegalPlay(Reason.NOT_IN_RACK, "a tile played is not in the rack")
    return taken
