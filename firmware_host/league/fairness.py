"""Are these dice fair? A chi-square test of counted throws, and words that do not overclaim.

A fair die is flagged at p < 0.05 one time in twenty, so a flag says "unusual", never
"loaded". Below the size the test needs (every value expected at least five times, the
usual rule for the chi-square approximation) there is nothing to say, and we say so.

The p-value is the upper regularised incomplete gamma function ``Q(df/2, x/2)``, written
here in stdlib :mod:`math` (a series below ``a + 1``, a continued fraction above): scipy
would cost seconds of import on the Pi and has no 32-bit ARM wheel.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

SIDES = 6
TOTALS_OF = (2, 3)  # dice in a throw whose totals a night can test
SOURCE_WORDS = {"button": "the button roller", "manual": "dice typed in",
                "serial": "the serial roller", "unknown": "source unknown"}
LEVEL = 0.05  # p below this is "unusual"
LEAST_EXPECTED = 5.0  # the least count any value must be expected to reach
_EPS = 1e-15
_STEPS = 500


@dataclass(frozen=True)
class Verdict:
    """The test of ``throws`` counted values; ``p`` is None when there were too few."""

    throws: int
    needed: int
    statistic: float
    df: int
    p: float | None
    noun: str = "throws"  # what was counted: "dice" for faces

    @property
    def unusual(self) -> bool:
        return self.p is not None and self.p < LEVEL

    def __str__(self) -> str:
        if self.p is None:
            return (f"{self.throws} {self.noun}: not enough to say anything "
                    f"(the test needs {self.needed})")
        if not self.unusual:
            return f"{self.throws} {self.noun}: nothing unusual (p = {self.p:.2f})"
        often = "less than 0.1%" if self.p < 0.001 else f"{self.p:.1%}"
        return (f"{self.throws} {self.noun}: unusual: fair dice throw this unevenly {often} "
                "of the time; one fair set in 20 gets flagged, so keep counting")


def faces(sides: int = SIDES) -> dict[int, float]:
    """The chance of each face of a fair die."""
    return {face: 1 / sides for face in range(1, sides + 1)}


def totals(dice: int, sides: int = SIDES) -> dict[int, float]:
    """The chance of each total of ``dice`` fair dice (2 to 12 for two)."""
    counted = Counter(sum(throw) for throw in product(range(1, sides + 1), repeat=dice))
    every = sides ** dice
    return {total: counted[total] / every for total in sorted(counted)}


def check(seen: Iterable[int], expected: Mapping[int, float], noun: str = "throws") -> Verdict:
    """The chi-square test of the values ``seen`` against their chances ``expected``.

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


def tests(thrown: Sequence[tuple[int, ...]]) -> dict[str, tuple[Verdict, Counter[int]]]:
    """The faces test of every die in ``thrown``, and a totals test for each size of throw
    in :data:`TOTALS_OF` thrown at all; each with the counts it tested."""
    sums: dict[int, Counter[int]] = {}
    for dice in thrown:
        sums.setdefault(len(dice), Counter())[sum(dice)] += 1
    return tested(Counter(die for dice in thrown for die in dice), sums)


def tested(seen: Counter[int], sums: Mapping[int, Counter[int]]
           ) -> dict[str, tuple[Verdict, Counter[int]]]:
    """:func:`tests` of counts already made: each face seen, and the totals of the throws
    of each number of dice."""
    found = {"faces": (check(seen.elements(), faces(), "dice"), seen)}
    for size in TOTALS_OF:
        if sums.get(size):
            found[f"totals of {size} dice"] = (check(sums[size].elements(), totals(size)),
                                               sums[size])
    return found
