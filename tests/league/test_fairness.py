"""The fairness test: p-values against printed tables; how often it flags fair and loaded dice."""

from __future__ import annotations

import math
import random

import pytest

from firmware_host.league.fairness import (
    Verdict,
    check,
    chi_square_p,
    faces,
    totals,
    upper_gamma,
)

# Upper critical values of chi-square (NIST/SEMATECH e-Handbook, table 1.3.6.7.4):
# (degrees of freedom, value, chance of at least that value)
TABLE = [
    (1, 3.841, 0.05), (1, 6.635, 0.01), (2, 5.991, 0.05), (5, 1.145, 0.95),
    (5, 11.070, 0.05), (5, 15.086, 0.01), (5, 20.515, 0.001), (10, 3.940, 0.95),
    (10, 18.307, 0.05), (10, 23.209, 0.01), (10, 29.588, 0.001), (30, 43.773, 0.05),
]


@pytest.mark.parametrize(("df", "value", "p"), TABLE)
def test_p_values_match_the_printed_table(df: int, value: float, p: float) -> None:
    assert chi_square_p(value, df) == pytest.approx(p, rel=2e-3)


@pytest.mark.parametrize("x", [0.1, 1.0, 2.5, 7.0, 40.0])
def test_two_degrees_of_freedom_have_a_closed_form(x: float) -> None:
    assert chi_square_p(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)


@pytest.mark.parametrize("x", [0.3, 2.0, 9.0])
def test_one_degree_of_freedom_is_the_normal_tail(x: float) -> None:
    assert chi_square_p(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)


def test_upper_gamma_edges() -> None:
    assert upper_gamma(3.0, 0.0) == 1.0
    assert upper_gamma(2.5, 1e4) == 0.0
    with pytest.raises(ValueError, match="a > 0"):
        upper_gamma(0.0, 1.0)


def test_totals_of_two_dice() -> None:
    chances = totals(2)
    assert list(chances) == list(range(2, 13))
    assert chances[7] == pytest.approx(6 / 36) and chances[2] == pytest.approx(1 / 36)
    assert sum(chances.values()) == pytest.approx(1.0)


def throws(rng: random.Random, count: int, six: float = 1 / 6) -> list[int]:
    """``count`` throws of a die showing six with chance ``six``, the other faces evenly."""
    rest = (1 - six) / 5
    return rng.choices(range(1, 7), weights=[rest] * 5 + [six], k=count)


def test_too_few_throws_say_nothing() -> None:
    verdict = check([6] * 29, faces())
    assert verdict.p is None and not verdict.unusual
    assert str(verdict) == "29 throws: not enough to say anything (the test needs 30)"
    assert check([6] * 30, faces()).unusual
    assert check([7] * 179, totals(2)).needed == 180


def test_a_fair_die_is_flagged_about_one_time_in_twenty() -> None:
    flagged = sum(check(throws(random.Random(seed), 120), faces()).unusual
                  for seed in range(2000))
    assert 0.035 < flagged / 2000 < 0.065  # 5% give or take three standard errors


def test_a_fair_die_reads_as_nothing_unusual() -> None:
    verdict = check(throws(random.Random(7), 600), faces())
    assert not verdict.unusual
    assert str(verdict).startswith("600 throws: nothing unusual (p = ")


def test_a_die_showing_six_a_third_of_the_time_is_flagged_after_enough_throws() -> None:
    early = sum(check(throws(random.Random(seed), 30, six=1 / 3), faces()).unusual
                for seed in range(200))
    later = sum(check(throws(random.Random(seed), 300, six=1 / 3), faces()).unusual
                for seed in range(200))
    assert early < 150 and later == 200
    verdict = check(throws(random.Random(1), 300, six=1 / 3), faces())
    assert "unusual" in str(verdict) and "loaded" not in str(verdict)


def test_totals_of_a_fair_pair_are_not_flagged_and_a_loaded_pair_is() -> None:
    rng = random.Random(3)
    fair = [sum(throws(rng, 2)) for _ in range(600)]
    loaded = [sum(throws(rng, 2, six=1 / 3)) for _ in range(600)]
    assert not check(fair, totals(2)).unusual
    assert check(loaded, totals(2)).unusual


def test_a_value_that_cannot_come_up_is_refused() -> None:
    with pytest.raises(ValueError, match="7 cannot come up here"):
        check([1, 2, 7], faces())


def test_the_statistic_by_hand() -> None:
    verdict = check([1] * 10 + [2] * 10 + [3] * 10 + [4] * 10 + [5] * 10 + [6] * 20, faces())
    expected = 70 / 6  # (10-e)^2/e five times and (20-e)^2/e
    statistic = 5 * (10 - expected) ** 2 / expected + (20 - expected) ** 2 / expected
    assert (verdict.throws, verdict.needed, verdict.df) == (70, 30, 5)
    assert verdict.statistic == pytest.approx(statistic)
    assert verdict.p == pytest.approx(chi_square_p(statistic, 5))


def test_the_words_for_an_unusual_count() -> None:
    assert str(Verdict(300, 30, 40.0, 5, 0.0004)) == (
        "300 throws: unusual: fair dice throw this unevenly less than 0.1% of the time; "
        "one fair set in 20 gets flagged, so keep counting")
    assert "unevenly 2.5% of the time" in str(Verdict(300, 30, 12.8, 5, 0.025))
