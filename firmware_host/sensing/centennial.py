"""Centennial on the 12-box track: box ``row * columns + col + 1``, markers of every colour.

A marker at progress p stands on box ``TARGETS[p - 1]``; progress 0 (not started) and home
are off the track. Several markers may share a box and the sensors see only whether a box
holds something, so the recogniser remembers where it last saw each marker agree with the
game (``seen``) and words its fixes as moves from there.

- ``mode = auto``: the game moves the roller's marker itself; the fixes guide the players
  ("move P1's marker from box 3 to box 6") until the track agrees.
- ``mode = declare``: the roller's marker put down on a box of the throw's chain is the
  ``stop`` there; lifting it first waits for the put. A claimant's marker put down on an
  overlooked number is the claim when only one player can make that claim (or the lifted box
  says which). The marker is to be put straight down: counted along the track, it stops on
  the first box it rests on, and the screen says so after the throw (:meth:`hint`). Read as
  nothing, to be entered with the controls: a stop without moving, a stop at home, a stop on
  a box that already holds a marker (no change is sensed), a box the chain passes twice (11
  up and 11 back), and claims several players could make alike.
"""

from __future__ import annotations

from typing import Any, Self

from firmware_host.sensing.base import Outcome, Recogniser, Square
from games.centennial import HOME, TARGETS, Centennial, Claim, Stop, label
from games.core import GameState, Phase

BOXES = 12


def box_of(progress: int) -> int | None:
    """The box a marker at ``progress`` stands on; None off the track (not started, home)."""
    return TARGETS[progress - 1] if 0 < progress < HOME else None


def _centennial(game: GameState[Any]) -> Centennial:
    if not isinstance(game, Centennial):
        raise TypeError(f"a Centennial recogniser cannot read {type(game).__name__}")
    return game


class CentennialRecogniser(Recogniser):
    """Markers on the Centennial track; see the module docstring."""

    def __init__(self, columns: int = 4) -> None:
        super().__init__()
        if columns < 1 or BOXES % columns:
            raise ValueError(f"a track of {BOXES} boxes cannot have {columns} columns")
        self.columns = columns
        self._seen: list[int | None] | None = None  # each marker's box when the board last agreed
        self._lifted: set[int] = set()  # boxes emptied by markers that may move now (two
        # claimants may each hold theirs at once)
        self._held: int | None = None  # a box such a marker went to, awaiting the controls

    @classmethod
    def on_matrix(cls, columns: int) -> Self:
        return cls(columns)

    # -- geometry -------------------------------------------------------------------------

    def square(self, box: int) -> Square:
        return divmod(box - 1, self.columns)

    def box_at(self, square: Square) -> int | None:
        row, col = square
        box = row * self.columns + col + 1
        return box if 0 <= col < self.columns and 1 <= box <= BOXES else None

    # -- comparing ------------------------------------------------------------------------

    def expected(self, game: GameState[Any]) -> frozenset[Square]:
        boxes = _boxes(_centennial(game))
        return frozenset(self.square(box) for box in boxes if box is not None)

    def fixes(self, game: GameState[Any]) -> tuple[str, ...]:
        state = _centennial(game)
        now, seen, sensed = _boxes(state), self._seen_boxes(state), self._occupied_boxes()
        expected = {box for box in now if box is not None}
        missing, extra = expected - sensed, sensed - expected
        missing -= self._movers_lifted(state)
        if _may_move(state):
            extra.discard(self._held)
        found = []
        gaps, strays = set(missing), set(extra)  # a shared box may be every mover's
        for player, (src, dst) in enumerate(zip(seen, now, strict=True)):
            if src == dst or not (dst in gaps or src in strays):
                continue
            marker = f"{state.name(player)}'s marker"
            if dst is None:
                found.append(f"take {marker} off the track from box {src}")
            elif src is None or src not in sensed:
                found.append(f"put {marker} on box {dst}")
            else:
                found.append(f"move {marker} from box {src} to box {dst}")
            missing.discard(dst)
            extra.discard(src)
        for box in sorted(missing):
            owners = [state.name(p) for p, at in enumerate(now) if at == box]
            markers = (f"{owners[0]}'s marker" if len(owners) == 1
                       else f"the markers of {' and '.join(owners)}")
            found.append(f"put {markers} on box {box}")
        found += [f"lift the marker from box {box}" for box in sorted(extra)]
        return tuple(found)

    def _excused(self, game: GameState[Any]) -> frozenset[Square]:
        return frozenset(self.square(box) for box in self._movers_lifted(_centennial(game)))

    def hint(self, game: GameState[Any]) -> str | None:
        """Declare mode, a stop due: the box the marker is put down on is the stop, so a
        marker counted along the track would stop on the first box it rests on."""
        state = _centennial(game)
        if state.setup.options["mode"] != "declare" or state.phase is not Phase.MOVE \
                or not state.awaiting_stop:
            return None
        return f"{state.name(state.turn)}: put your marker straight down where it stops " \
            "(counted along, it stops on the first box)"

    def _movers_lifted(self, state: Centennial) -> set[int]:
        """The lifted boxes where a marker that may move now stands (its move is due)."""
        now = _boxes(state)
        return {box for box in self._lifted if any(now[p] == box for p in _may_move(state))}

    def _occupied_boxes(self) -> set[int]:
        return {box for square in self._board if (box := self.box_at(square)) is not None}

    def _seen_boxes(self, state: Centennial) -> list[int | None]:
        if self._seen is None or len(self._seen) != state.players:
            self._seen = _boxes(state)
        return self._seen

    def _restart(self, game: GameState[Any]) -> None:
        self._seen = _boxes(_centennial(game))
        self._lifted.clear()
        self._held = None

    def _note_arrivals(self, game: GameState[Any]) -> None:
        """A marker counts as moved once its box is occupied and its old box no longer
        holds a marker the game does not expect. Lifts whose move is no longer due are
        forgotten."""
        state = _centennial(game)
        self._lifted = self._movers_lifted(state)
        now, seen, sensed = _boxes(state), self._seen_boxes(state), self._occupied_boxes()
        expected = set(now)
        for player, (src, dst) in enumerate(zip(seen, now, strict=True)):
            arrived = dst is None or dst in sensed
            left = src is None or src not in sensed or src in expected
            if src != dst and arrived and left:
                seen[player] = dst

    # -- sensing --------------------------------------------------------------------------

    def _sensed(self, game: GameState[Any], square: Square, occupied: bool) -> Outcome:
        state = _centennial(game)
        self._seen_boxes(state)
        box = self.box_at(square)
        if box is None:
            return Outcome(None, self.fixes(state), f"row {square[0] + 1}, column "
                           f"{square[1] + 1} is no box of the track")
        if box == self._held:
            self._held = None
        if state.setup.options["mode"] == "declare" and state.phase is Phase.MOVE:
            if occupied:
                outcome = self._declared(state, box)
                if outcome is not None:
                    if outcome.action is not None:  # a claimant still moving keeps theirs
                        self._held = None
                    return outcome
            elif any(_boxes(state)[p] == box for p in _may_move(state)):
                self._lifted.add(box)
                return self.review(state)
        if occupied:
            self._lifted.discard(box)
        self._note_arrivals(state)
        now = _boxes(state)
        moves = [(p, src, dst) for p, (src, dst) in enumerate(zip(self._seen_boxes(state), now,
                                                                   strict=True)) if src != dst]
        if occupied == (box in now) or any(box in (src, dst) for _p, src, dst in moves):
            return Outcome(None, self.fixes(state))  # towards agreement, or part of a move due
        due = [state.name(p) for p, _src, _dst in moves]
        if len(due) > 1:
            message = f"only the markers of {' and '.join(due)} move now"
        else:
            message = f"only {due[0]}'s marker moves now" if due else _why_not(state, box)
        return Outcome(None, self.fixes(state), message)

    def _declared(self, state: Centennial, box: int) -> Outcome | None:
        """A marker put down while a stop or a claim is due: that move, when it is clear."""
        if box in _boxes(state):
            return None  # a marker put back where the game has one
        throw = state.throw
        assert throw is not None
        if state.awaiting_stop:
            roller = state.name(throw.roller)
            end = throw.start + len(state.chain)
            stops = [at for at in range(throw.start + 1, end + 1) if box_of(at) == box]
            if len(stops) > 1:
                self._held = box
                return Outcome(None, self.fixes(state),
                               f"box {box} is both {label(stops[0])} and {label(stops[1])} on "
                               f"this throw: enter where {roller} stops with the controls")
            if not stops:  # off the chain: the rules say why, for the nearer reading
                stops = [min((box, HOME + 1 - box), key=lambda at: abs(at - throw.start))]
            return self._try(state, str(Stop(throw.roller, stops[0])))
        claims = [a for a in state.legal_actions() if isinstance(a, Claim) and a.number == box]
        if len(claims) > 1 and self._lifted:
            lifted = [c for c in claims if box_of(state.progress[c.player]) in self._lifted]
            claims = lifted or claims
        if len(claims) == 1:
            return self._try(state, str(claims[0]))
        if claims:
            self._held = box
            names = " and ".join(state.name(c.player) for c in claims)
            return Outcome(None, self.fixes(state),
                           f"{names} can each claim {box}: enter the claim with the controls")
        return None


def _boxes(state: Centennial) -> list[int | None]:
    return [box_of(progress) for progress in state.progress]


def _may_move(state: Centennial) -> set[int]:
    """Players whose marker may move by hand now (declare mode): the roller, or claimants."""
    if state.phase is not Phase.MOVE:
        return set()
    if state.awaiting_stop:
        return {state.turn}
    return {a.player for a in state.legal_actions() if isinstance(a, Claim)}


def _why_not(state: Centennial, box: int) -> str:
    """Why a marker may not go to or leave ``box`` now."""
    if state.is_over:
        return "the game is over"
    if state.phase is Phase.ROLL:
        player = state.current_player
        assert player is not None
        return f"no marker moves before a throw: {state.name(player)} throws next"
    throw = state.throw
    assert throw is not None
    if state.awaiting_stop:
        return (f"only {state.name(throw.roller)}'s marker moves now, along the throw "
                f"{'-'.join(map(str, throw.dice))}")
    claimable = ", ".join(map(str, state.claimable))
    return f"box {box}: only a claimant's marker moves now (claimable: {claimable})"
