"""Seating the next round of a game night: which present player sits at which table.

Pure: no I/O, no clock; the only randomness is a ``random.Random`` made from the seed, so a
night and a seed always give the same proposal. Each table's player counts and teams come
from its game's rules (``MIN_PLAYERS``, ``MAX_PLAYERS``, ``seat_sides``).

How a round is chosen:
  1. Table sizes: as even as the games allow (the smallest sum of squared sizes; a table
     may stay empty, earlier tables fill first), so nobody sits at a table of two while
     another seats eight; the next most even ones when pairs kept apart rule those out.
  2. Groups: fewest players meeting again, counted over the night's past rounds (a pair who
     met twice counts two), never a pair marked apart; with ratings, then the closest
     ratings at each table, so each game is an even contest. Small nights are searched
     exhaustively; larger ones by swapping players between tables from several seeded
     starts until no swap helps.
  3. Seats: at a team game (Sequence Dice for four) the partners whose rating sums are
     closest play together.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, islice, permutations

from firmware_host.errors import UsageError
from games import UnknownGameError, game_class

EXACT_LIMIT = 20_000
"""Nights with at most this many ways to fill the tables are searched exhaustively."""
RESTARTS = 12
"""Seeded starts of the swap search on larger nights."""
SIZE_TRIES = 8
"""How many of the most even ways to fill the tables are tried when apart pairs rule out
the more even ones."""


class SeatingError(UsageError):
    """Input that cannot be seated, or a night with no legal seating; the message says why."""


def table_label(name: str) -> str:
    """``Table 3`` for a table the host named "3" or "Table 3" (never "Table Table 3")."""
    return name if name.lower().startswith("table") else f"Table {name}"


@dataclass(frozen=True)
class RoundTable:
    """A table of the round to seat, as the host wrote it: its name ("3") and its game."""

    name: str
    game: str


@dataclass(frozen=True)
class Night:
    """What a proposal is made from. ``rounds`` are the night's past rounds, each a list of
    groups that played together (players no longer present may appear in them)."""

    players: tuple[str, ...]
    tables: tuple[RoundTable, ...]
    rounds: tuple[tuple[tuple[str, ...], ...], ...] = ()
    apart: tuple[tuple[str, str], ...] = ()
    ratings: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class TableSeating:
    table: RoundTable
    title: str  # the game's title
    players: tuple[str, ...]  # in seat order
    sides: tuple[int, ...]  # each seat's side; team mates share one
    met_before: tuple[tuple[str, str, int], ...]  # pairs at this table who met, how often

    @property
    def teams(self) -> tuple[tuple[str, ...], ...]:
        """The teams when the game plays in teams, else ()."""
        if len(set(self.sides)) == len(self.sides):
            return ()
        return tuple(tuple(p for p, s in zip(self.players, self.sides, strict=True) if s == side)
                     for side in sorted(set(self.sides)))


@dataclass(frozen=True)
class Proposal:
    seed: int
    tables: tuple[TableSeating, ...]  # every table, in the night's order; empty ones too
    repeats: int  # meetings again, summed over pairs seated together
    exhaustive: bool  # True: no seating with these table sizes has fewer repeats
    evenest: bool  # False: the most even sizes could not keep the apart pairs apart
    ratings: Mapping[str, float]
    apart: tuple[tuple[str, str], ...]
    rounds: int = 0  # the night's past rounds the repeats were counted over

    def explain(self) -> list[str]:
        """The proposal in words, a line each, for the host to read out or check."""
        used = [t for t in self.tables if t.players]
        seated = sum(len(t.players) for t in used)
        sizes = ", ".join(str(len(t.players)) for t in used)
        lines = [f"{seated} players at {len(used)} table{'s' if len(used) != 1 else ''} "
                 f"({sizes}): as even as the games allow"
                 + ("" if self.evenest else " with the apart pairs apart")]
        for seating in self.tables:
            lines.append(f"{table_label(seating.table.name)} ({seating.title}): "
                         + (", ".join(seating.players) or "empty"))
            if seating.teams:
                lines.append("  teams: " + " against ".join(" and ".join(t)
                                                            for t in seating.teams))
            if self.ratings and seating.players:
                values = [self.ratings[p] for p in seating.players]
                lines.append(f"  ratings {_number(min(values))} to {_number(max(values))}")
            for a, b, times in seating.met_before:
                lines.append(f"  {a} and {b} met {_times(times)} already")
        why = ("no grouping has fewer" if self.exhaustive
               else "no swap of two players gives fewer")
        if not self.rounds:
            lines.append("No past round was given, so who met whom was not counted.")
        elif self.repeats == 0:
            lines.append("Nobody meets a player they have met tonight.")
        else:
            lines.append(f"{self.repeats} repeated meeting{'s' if self.repeats != 1 else ''}: "
                         f"{why}.")
        if self.apart:
            lines.append("Kept apart: " + "; ".join(f"{a} and {b}" for a, b in self.apart) + ".")
        return lines


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _number(value: float) -> str:
    return f"{value:g}"


def propose(night: Night, seed: int = 0) -> Proposal:
    """The next round for ``night``; :class:`SeatingError` says why there is none."""
    players = sorted(night.players)
    _check(night, players)
    ranges = [_counts(table) for table in night.tables]
    choices = list(islice(size_choices(len(players), [(lo, hi) for _, lo, hi in ranges]),
                          SIZE_TRIES))
    if not choices:
        raise SeatingError(_no_sizes(len(players), night.tables, ranges))
    present = set(players)
    apart = sorted({tuple(sorted(pair)) for pair in night.apart if set(pair) <= present})
    _check_apart_reachable(players, apart, ranges)
    met = meetings(night.rounds)
    weights = _Weights(players, met, apart, night.ratings)
    sizes, groups, exhaustive = _group(weights, choices, random.Random(seed))
    seatings = []
    for table, (title, _, _), group in zip(night.tables, ranges, groups, strict=True):
        names = sorted(players[i] for i in group)
        seats, sides = _seat(table, names, night.ratings)
        again = tuple((a, b, met[(a, b)]) for a, b in combinations(names, 2)
                      if met.get((a, b), 0))
        seatings.append(TableSeating(table, title, seats, sides, again))
    repeats = sum(times for s in seatings for _, _, times in s.met_before)
    return Proposal(seed, tuple(seatings), repeats, exhaustive, sizes == choices[0],
                    {p: night.ratings[p] for p in players} if night.ratings else {},
                    tuple((a, b) for a, b in apart), len(night.rounds))


def _group(weights: _Weights, choices: list[tuple[int, ...]], rng: random.Random
           ) -> tuple[tuple[int, ...], list[list[int]], bool]:
    """The groups at the first of ``choices`` of table sizes that keeps the apart pairs
    apart: its sizes, groups, and whether they were searched exhaustively."""
    players = weights.players
    order = list(range(len(players)))
    rng.shuffle(order)
    proven = True  # every size tried was searched exhaustively
    for sizes in choices:
        exhaustive = multinomial(len(players), sizes) <= EXACT_LIMIT
        proven &= exhaustive
        groups = (_exact(weights, order, sizes) if exhaustive
                  else _swap_search(weights, order, sizes, rng))
        together = [pair for group in groups for pair in combinations(sorted(group), 2)
                    if weights.apart[pair[0]][pair[1]]]
        if not together:
            return sizes, groups, exhaustive
    a, b = (players[i] for i in together[0])
    how = "no seating" if proven else "no seating found"
    ways = "" if len(choices) == 1 else f" in the {len(choices)} most even ways to fill the tables"
    raise SeatingError(
        f"{how} of {len(players)} players{ways} keeps every apart pair apart ({a} and {b} "
        f"would sit together at tables of {', '.join(map(str, sizes))}); mark fewer pairs "
        "apart or add a table")


def _check(night: Night, players: list[str]) -> None:
    if not players:
        raise SeatingError("nobody is present; list the players who are")
    if not night.tables:
        raise SeatingError("no tables; list at least one table with its game")
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise SeatingError(f"{twice[0]} is listed twice among the players; list each once")
    names = [t.name for t in night.tables]
    doubled = sorted({n for n in names if names.count(n) > 1})
    if doubled:
        raise SeatingError(f"table {doubled[0]} is listed twice; give each table its own name")
    for a, b in night.apart:
        if a == b:
            raise SeatingError(f"{a} is marked apart from themself; name two players")
    if night.ratings:
        missing = [p for p in players if p not in night.ratings]
        if missing:
            raise SeatingError(f"{missing[0]} has no rating; rate every present player or "
                               "give no ratings")


def _counts(table: RoundTable) -> tuple[str, int, int]:
    try:
        cls = game_class(table.game)
    except UnknownGameError as err:
        raise SeatingError(f"table {table.name}: {err}") from None
    return cls.TITLE, cls.MIN_PLAYERS, cls.MAX_PLAYERS


def size_choices(players: int, ranges: Sequence[tuple[int, int]]
                 ) -> Iterator[tuple[int, ...]]:
    """Each table's number of players (0: empty) summing to ``players`` within its game's
    counts, most even first: by sum of squares, then earlier tables fuller."""
    # least[t][left]: the smallest sum of squares seating ``left`` players at tables t...
    least: list[dict[int, int]] = [{0: 0}]
    for lo, hi in reversed(ranges):
        after = least[0]
        least.insert(0, {left: min(s * s + after[left - s] for s in (0, *range(lo, hi + 1))
                                   if left - s in after)
                         for left in range(players + 1)
                         if any(left - s in after for s in (0, *range(lo, hi + 1)))})
    if players not in least[0]:
        return
    # best first; the estimate of what is left is exact, so whole vectors come out in order
    heap: list[tuple[int, tuple[int, ...], int]] = [(least[0][players], (), 0)]
    while heap:
        _, key, cost = heapq.heappop(heap)
        table, sizes = len(key), tuple(-k for k in key)
        if table == len(ranges):
            yield sizes
            continue
        left = players - sum(sizes)
        lo, hi = ranges[table]
        for size in (0, *range(lo, hi + 1)):
            if left - size in least[table + 1]:
                total = cost + size * size
                heapq.heappush(heap, (total + least[table + 1][left - size],
                                      (*key, -size), total))


def _no_sizes(players: int, tables: Sequence[RoundTable], ranges: Sequence[tuple[str, int, int]]
              ) -> str:
    seats = sum(hi for _, _, hi in ranges)
    shown = ", ".join(f"table {t.name} {title} {lo}" + (f"-{hi}" if hi != lo else "")
                      for t, (title, lo, hi) in zip(tables, ranges, strict=True))
    if players > seats:
        return (f"{players} players but the tables seat at most {seats} ({shown}); "
                "add a table")
    return (f"{players} players cannot be split into these tables' player counts ({shown}); "
            "change a table's game or add a table")


def _check_apart_reachable(players: list[str], apart: list[tuple[str, ...]],
                           ranges: Sequence[tuple[str, int, int]]) -> None:
    """A player apart from everyone present has no table when every game needs two."""
    if min(lo for _, lo, _ in ranges) < 2 or len(players) < 2:
        return
    for player in players:
        partners = {b if a == player else a for a, b in apart if player in (a, b)}
        if len(partners) == len(players) - 1:
            raise SeatingError(f"{player} is marked apart from every other present player, "
                               "and every game needs two or more; unmark a pair")


def meetings(rounds: Sequence[Sequence[Sequence[str]]]) -> dict[tuple[str, str], int]:
    """How often each pair (names in order) sat at the same table in ``rounds``."""
    met: dict[tuple[str, str], int] = {}
    for round_ in rounds:
        for group in round_:
            for pair in combinations(sorted(set(group)), 2):
                met[pair] = met.get(pair, 0) + 1
    return met


def multinomial(players: int, sizes: Sequence[int]) -> int:
    """The number of ways to deal ``players`` into tables of ``sizes``."""
    count, left = 1, players
    for size in sizes:
        count *= math.comb(left, size)
        left -= size
    return count


class _Weights:
    """The cost of seating two players together: an apart pair outweighs every repeat
    there could be, a repeat outweighs every rating gap there could be."""

    def __init__(self, players: list[str], met: Mapping[tuple[str, str], int],
                 apart: list[tuple[str, ...]], ratings: Mapping[str, float]) -> None:
        self.players = players
        n = len(players)
        index = {p: i for i, p in enumerate(players)}
        self.apart = [[False] * n for _ in range(n)]
        for a, b in apart:
            self.apart[index[a]][index[b]] = self.apart[index[b]][index[a]] = True
        values = [float(ratings[p]) for p in players] if ratings else [0.0] * n
        spread = (max(values) - min(values)) or 1.0
        gap = 1.0 / (spread * n * n)  # every pair's rating gaps together stay below one repeat
        repeats = [[met.get((min(a, b), max(a, b)), 0) for b in players] for a in players]
        heavy = 1 + sum(map(sum, repeats))
        self.w = [[(heavy * self.apart[i][j] + repeats[i][j] + abs(values[i] - values[j]) * gap
                    if i != j else 0.0) for j in range(n)] for i in range(n)]


def _exact(weights: _Weights, order: list[int], sizes: tuple[int, ...]) -> list[list[int]]:
    """The cheapest dealing of ``order`` into tables of ``sizes``: every one is tried (the
    first of equal ones in ``order`` is kept)."""
    w = weights.w
    best: tuple[float, list[list[int]]] = (math.inf, [])

    def deal(table: int, left: list[int], groups: list[list[int]], cost: float) -> None:
        nonlocal best
        if cost >= best[0]:
            return
        if table == len(sizes):
            best = (cost, groups)
            return
        for group in combinations(left, sizes[table]):
            extra = sum(w[a][b] for a, b in combinations(group, 2))
            rest = [p for p in left if p not in group]
            deal(table + 1, rest, [*groups, list(group)], cost + extra)

    deal(0, order, [], 0.0)
    return best[1]


def _swap_search(weights: _Weights, order: list[int], sizes: tuple[int, ...],
                 rng: random.Random) -> list[list[int]]:
    """Swap two players between tables while that lowers the cost, from several seeded
    starts; the cheapest result."""
    w = weights.w
    n, tables = len(order), len(sizes)
    best_cost = math.inf
    best_groups: list[list[int]] = [[] for _ in sizes]
    for start in range(RESTARTS):
        if start:
            rng.shuffle(order)
        where = [0] * n
        at = 0
        for table, size in enumerate(sizes):
            for player in order[at:at + size]:
                where[player] = table
            at += size
        # near[p][t]: p's cost with everyone at table t
        near = [[0.0] * tables for _ in range(n)]
        for p in range(n):
            row = w[p]
            for q in range(n):
                near[p][where[q]] += row[q]
        improved = True
        while improved:
            improved = False
            for a in order:
                for b in order:
                    x, y = where[a], where[b]
                    if x >= y:
                        continue
                    gain = (near[a][x] + near[b][y]) - (near[a][y] + near[b][x] - 2 * w[a][b])
                    if gain > 1e-12:
                        where[a], where[b] = y, x
                        wa, wb = w[a], w[b]
                        for p in range(n):
                            near[p][x] += wb[p] - wa[p]
                            near[p][y] += wa[p] - wb[p]
                        improved = True
        cost = sum(near[p][where[p]] for p in range(n)) / 2
        if cost < best_cost - 1e-12:
            best_cost = cost
            best_groups = [[p for p in range(n) if where[p] == t] for t in range(tables)]
    return best_groups


def _seat(table: RoundTable, names: list[str], ratings: Mapping[str, float]
          ) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Seat order and sides at ``table``: in a team game, the partners with the closest
    rating sums (alphabetical seats otherwise)."""
    if not names:
        return (), ()
    sides = game_class(table.game).seat_sides(len(names))
    if len(set(sides)) == len(sides) or not ratings:
        return tuple(names), sides

    def imbalance(seats: tuple[str, ...]) -> float:
        sums = [sum(ratings[p] for p, s in zip(seats, sides, strict=True) if s == side)
                for side in set(sides)]
        return max(sums) - min(sums)

    return min(permutations(names), key=imbalance), sides
