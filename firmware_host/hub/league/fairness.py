"""Are these dice fair? A chi-square test of counted throws, and words that do not overclaim.

A fair die is flagged at p < 0.05 one time in twenty, so a flag says "unusual", never
"loaded". Below the size the test needs (every value expected at least five times, the
usual rule for the chi-square approximation) there is nothing to say, and we say so.

A page shows many tests (faces and totals, for every table and source of dice), and one
time in twenty per test would flag a page of four fair tables most nights. So the tests of
a page are judged together (:func:`judge_page`, Holm's step-down): a page of fair dice is
flagged at most one time in twenty, whatever it shows. And a page says what its sample
could have seen (:func:`could_see`): no flag from 40 dice means little.

The p-value is the upper regularised incomplete gamma function ``Q(df/2, x/2)``, written
here in stdlib :mod:`math` (a series below ``a + 1``, a continued fraction above): scipy
would cost seconds of import on the Pi and has no 32-bit ARM wheel.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import product
from typing import TypeVar

from games.words import count

SIDES = 6
TOTALS_OF = (2, 3)  # dice in a throw whose totals a night can test
SOURCE_WORDS = {"button": "the button roller", "manual": "dice typed in",
                "serial": "the serial roller", "pixels": "Pixels dice",
                "unknown": "source unknown"}
LEVEL = 0.05  # p below this is "unusual"
LEAST_EXPECTED = 5.0  # the least count any value must be expected to reach
_EPS = 1e-15
_STEPS = 500
TWICE = 2.0  # the loaded die a page says it could see: one face twice as often as each other
Key = TypeVar("Key")


@dataclass(frozen=True)
class Verdict:
    """The test of ``throws`` counted values; ``p`` is None when there were too few."""

    throws: int
    needed: int
    statistic: float
    df: int
    p: float | None
    noun: str = "throw"  # what was counted: "die" for faces
    family: int = 1  # the tests judged together with this one (on one page)
    adjusted: float | None = None  # p with the family accounted for (Holm); None: p alone

    @property
    def judged(self) -> float | None:
        """The p that decides: adjusted for the page's tests when there are several."""
        return self.p if self.adjusted is None else self.adjusted

    @property
    def unusual(self) -> bool:
        return self.judged is not None and self.judged < LEVEL

    def __str__(self) -> str:
        if self.p is None:
            return (f"{count(self.throws, self.noun)}: not enough to say anything "
                    f"(the test needs {self.needed})")
        among = f", one of {self.family} tests here" if self.family > 1 else ""
        if not self.unusual:
            return f"{count(self.throws, self.noun)}: nothing unusual (p = {self.p:.2f}{among})"
        often = "less than 0.1%" if self.p < 0.001 else f"{self.p:.1%}"
        flagged = "a page of fair dice is flagged" if self.family > 1 else \
            "one fair set gets flagged"
        return (f"{count(self.throws, self.noun)}: unusual: fair dice throw this unevenly {often} "
                f"of the time{among}; {flagged} one time in 20, so keep counting")


def faces(sides: int = SIDES) -> dict[int, float]:
    """The chance of each face of a fair die."""
    return {face: 1 / sides for face in range(1, sides + 1)}


def totals(dice: int, sides: int = SIDES) -> dict[int, float]:
    """The chance of each total of ``dice`` fair dice (2 to 12 for two)."""
    counted = Counter(sum(throw) for throw in product(range(1, sides + 1), repeat=dice))
    every = sides ** dice
    return {total: counted[total] / every for total in sorted(counted)}


def check(seen: Iterable[int] | Mapping[int, int], expected: Mapping[int, float],
          noun: str = "throw") -> Verdict:
    """The chi-square test of the values ``seen`` (or their counts) against their chances
    ``expected``.

    A value outside ``expected`` (a 7 on a six-sided die) is a ValueError: it is a bad
    record, not evidence about the dice."""
    counts = Counter(seen)
    strange = sorted(set(counts) - set(expected))
    if strange:
        raise ValueError(f"{strange[0]!r} cannot come up here; expected one of "
                         f"{', '.join(map(str, expected))}")
    n = sum(counts.values())
    needed = math.ceil(LEAST_EXPECTED / min(expected.values()) - 1e-9)
    statistic = sum((counts[v] - n * p) ** 2 / (n * p) for v, p in expected.items()) if n else 0.0
    df = len(expected) - 1
    p = chi_square_p(statistic, df) if n >= needed else None
    return Verdict(n, needed, statistic, df, p, noun)


def chi_square_p(statistic: float, df: int) -> float:
    """The chance that a chi-square with ``df`` degrees of freedom is at least ``statistic``."""
    return upper_gamma(df / 2, statistic / 2)


def upper_gamma(a: float, x: float) -> float:
    """``Q(a, x) = Γ(a, x) / Γ(a)``, for ``a > 0`` and ``x >= 0``."""
    if a <= 0 or x < 0:
        raise ValueError(f"Q(a, x) needs a > 0 and x >= 0, got a={a}, x={x}")
    if x == 0:
        return 1.0
    front = math.exp(a * math.log(x) - x - math.lgamma(a))
    if x < a + 1:  # the series of P(a, x) converges fast here
        term = total = 1 / a
        n = a
        for _ in range(_STEPS):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return max(0.0, 1 - total * front)
    # Lentz's continued fraction for Q(a, x) converges fast here
    b = x + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, _STEPS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = d if abs(d) > 1e-300 else 1e-300
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < _EPS:
            break
    return min(1.0, front * h)


def counted(thrown: Sequence[tuple[int, ...]]) -> tuple[Counter[int], dict[int, Counter[int]]]:
    """The faces of every die in ``thrown``, and the totals of its throws by number of dice."""
    sums: dict[int, Counter[int]] = {}
    for dice in thrown:
        sums.setdefault(len(dice), Counter())[sum(dice)] += 1
    return Counter(die for dice in thrown for die in dice), sums


def tested(seen: Counter[int], sums: Mapping[int, Counter[int]]
           ) -> dict[str, tuple[Verdict, Counter[int]]]:
    """The faces test of the faces ``seen``, and a totals test for each size of throw in
    :data:`TOTALS_OF` thrown at all (``sums``: totals by number of dice, as
    :func:`counted` makes them); each with the counts it tested."""
    found = {"faces": (check(seen, faces(), "die"), seen)}
    for size in TOTALS_OF:
        if sums.get(size):
            found[f"totals of {size} dice"] = (check(sums[size], totals(size)),
                                               sums[size])
    return found


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values of ``ps``, in their order: flagging those below
    :data:`LEVEL` flags a family of true null hypotheses at most :data:`LEVEL` of the time."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted = [1.0] * len(ps)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[index]))
        adjusted[index] = running
    return adjusted


Tested = dict[str, tuple[Verdict, Counter[int]]]


def judge_page(groups: Mapping[Key, tuple[Counter[int], Mapping[int, Counter[int]]]]
                ) -> dict[Key, Tested]:
    """:func:`tested` of each group of one page (its faces and its totals by number of
    dice), with every test that could say something judged together (:func:`holm`)."""
    found = {key: tested(seen, sums) for key, (seen, sums) in groups.items()}
    said = _saying(found)
    adjusted = holm([verdict.p or 0.0 for _, _, verdict in said])
    for (key, name, verdict), judged in zip(said, adjusted, strict=True):
        found[key][name] = (replace(verdict, family=len(said), adjusted=judged),
                            found[key][name][1])
    return found


def _saying(found: Mapping[Key, Tested]) -> list[tuple[Key, str, Verdict]]:
    """Every test of a page that says something (enough throws for it), with its group."""
    return [(key, name, verdict) for key, tests in found.items()
            for name, (verdict, _) in tests.items() if verdict.p is not None]


def page_verdict(found: Mapping[Key, Tested], label: Callable[[Key], str]) -> str:
    """One sentence for the whole page: which tests, if any, are unusual once all of them
    are counted; ``label`` names a group ("Table 2, the button roller")."""
    said = _saying(found)
    if not said:
        return "Too few dice yet for any test to say something."
    many = f"{len(said)} tests" if len(said) > 1 else "the one test"
    unusual = [f"{label(key)}: {name}" for key, name, verdict in said if verdict.unusual]
    if not unusual:
        return (f"Nothing unusual in {many} on this page; a page of fair dice is flagged "
                "at most one time in twenty.")
    return (f"Unusual once all {many} on this page are counted: {'; '.join(unusual)}. "
            "A page of fair dice is flagged at most one time in twenty: keep counting.")


def group_label(group: tuple[str, str]) -> str:
    """``Table 2, the button roller``: a table's dice from one source, as a page names them."""
    table, source = group
    return f"{table}, {SOURCE_WORDS[source]}"


def could_see(dice: int, family: int = 1) -> str:
    """What ``dice`` counted faces could have shown, at the strictest level of a page of
    ``family`` tests: how often dice that show one face twice as often as each other face
    are flagged, when every die is so and when one die among five is."""
    if dice < math.ceil(LEAST_EXPECTED * SIDES - 1e-9):
        return ""
    level = LEVEL / max(1, family)
    every, one = ("almost always" if dice >= _surely_flagged(share, level)
                  else _often(power(dice, loaded(share), level)) for share in (1.0, 1 / 5))
    return (f"With {dice} dice, dice that all show one face twice as often as each other "
            f"face would be flagged {every}; one such die among five, {one}.")


@cache
def _surely_flagged(share: float, level: float) -> int:
    """A number of dice from which those of :func:`loaded` ``share`` are flagged at
    ``level`` almost always (the power only grows with the dice): a regular's page of
    hundreds of thousands of dice need not sum as many terms of :func:`power`."""
    dice = 64
    while _often(power(dice, loaded(share), level)) != "almost always":
        dice *= 2
    return dice


def _often(chance: float) -> str:
    tenths = min(9, round(chance * 10))
    return ("almost always" if chance >= 0.995 else "hardly ever" if tenths == 0
            else f"about {tenths} time{'s' if tenths > 1 else ''} in 10")


def loaded(share: float, ratio: float = TWICE, sides: int = SIDES) -> list[float]:
    """The chance of each face when ``share`` of the dice show the last face ``ratio`` times
    as often as each other face, and the rest are fair."""
    weights = [1.0] * (sides - 1) + [ratio]
    bias = [w / sum(weights) for w in weights]
    return [share * b + (1 - share) / sides for b in bias]


def power(dice: int, chances: Sequence[float], level: float) -> float:
    """The chance that the faces test of ``dice`` dice whose faces come up with ``chances``
    is flagged at ``level``: the noncentral chi-square tail (a Poisson mixture of central
    ones) beyond the fair die's critical value. The usual approximation: against simulated
    dice it is within a few points, a little high for strong bias in few dice."""
    fair = 1 / len(chances)
    centrality = dice * sum((c - fair) ** 2 for c in chances) / fair
    df = len(chances) - 1
    critical = critical_value(level, df)
    half = centrality / 2
    spread = 12 * math.sqrt(half) + 20  # the Poisson weights beyond are below 1e-30
    first, last = max(0, int(half - spread)), int(half + spread)
    return min(1.0, sum(_weight(k, half) * chi_square_p(critical, df + 2 * k)
                        for k in range(first, last + 1)))


def _weight(k: int, mean: float) -> float:
    """The Poisson chance of ``k`` for ``mean``."""
    if mean == 0:
        return 1.0 if k == 0 else 0.0
    return math.exp(k * math.log(mean) - mean - math.lgamma(k + 1))


@cache
def critical_value(level: float, df: int) -> float:
    """The chi-square value with ``df`` degrees of freedom exceeded ``level`` of the time."""
    low, high = 0.0, 1.0
    while chi_square_p(high, df) > level:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if chi_square_p(middle, df) > level else (low, middle)
    return (low + high) / 2
