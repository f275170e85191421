"""The fairness test: p-values against printed tables; how often it flags fair and loaded dice."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from firmware_host.hub.league.fairness import (
    Verdict,
    check,
    chi_square_p,
    could_see,
    counted,
    critical_value,
    faces,
    holm,
    judge_page,
    loaded,
    page_verdict,
    power,
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
        "one fair set gets flagged one time in 20, so keep counting")
    assert "unevenly 2.5% of the time" in str(Verdict(300, 30, 12.8, 5, 0.025))


def test_holm_adjusts_each_p_by_its_rank_and_keeps_the_order() -> None:
    # sorted: 0.01 x4 = 0.04, 0.03 x3 = 0.09, 0.04 x2 = 0.08 -> 0.09 (never below an earlier)
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([]) == [] and holm([0.3]) == [0.3]


def test_a_page_judges_its_tests_together() -> None:
    """A p of 0.02 is unusual alone, not among four tests; 0.001 is either way."""
    rng = random.Random(5)
    groups = {name: counted([tuple(throws(rng, 5)) for _ in range(120)])
              for name in ("Table 1", "Table 2", "Table 3")}
    groups["Table 4"] = counted([tuple(throws(rng, 5, six=1 / 3)) for _ in range(120)])
    found = judge_page(groups)
    verdicts = [v for tests_ in found.values() for v, _ in tests_.values() if v.p is not None]
    assert len(verdicts) == 4 and {v.family for v in verdicts} == {4}
    assert [found[t]["faces"][0].unusual for t in groups] == [False, False, False, True]
    assert ", one of 4 tests here; a page of fair dice is flagged one time in 20" in str(
        found["Table 4"]["faces"][0])
    assert page_verdict(found, str) == (
        "Unusual once all 4 tests on this page are counted: Table 4: faces. A page of fair "
        "dice is flagged at most one time in twenty: keep counting.")
    lone = Verdict(300, 30, 13.3, 5, 0.02)
    assert lone.unusual and not replace(lone, family=4, adjusted=0.08).unusual


def test_a_page_of_fair_dice_is_flagged_within_one_time_in_twenty() -> None:
    rng = random.Random(11)
    pages = 400
    flagged = 0
    for _ in range(pages):
        groups = {table: counted([tuple(throws(rng, 5)) for _ in range(60)])
                  for table in range(4)}
        flagged += any(v.unusual for tests_ in judge_page(groups).values()
                       for v, _ in tests_.values())
    assert flagged / pages < 0.05 + 3 * math.sqrt(0.05 * 0.95 / pages)


@pytest.mark.parametrize(("dice", "share"), [(120, 1.0), (600, 1 / 5)])
def test_what_a_page_says_it_could_see_matches_a_simulation(dice: int, share: float) -> None:
    rng = random.Random(2)
    runs = 1500
    flagged = sum(check(rng.choices(range(1, 7), weights=loaded(share), k=dice),
                        faces()).unusual for _ in range(runs))
    # the noncentral chi-square approximation: a few points high for strong bias in few dice
    assert power(dice, loaded(share), 0.05) == pytest.approx(flagged / runs, abs=0.07)


def test_a_page_says_what_its_dice_could_have_shown() -> None:
    assert could_see(29) == ""  # too few for the test at all
    assert could_see(600) == (
        "With 600 dice, dice that all show one face twice as often as each other face would "
        "be flagged almost always; one such die among five, about 2 times in 10.")
    assert "flagged about 4 times in 10" in could_see(60)
    assert loaded(1.0)[5] == pytest.approx(2 / 7) and sum(loaded(0.2)) == pytest.approx(1.0)
    assert critical_value(0.05, 5) == pytest.approx(11.070, abs=1e-3)  # the printed table


def test_the_bench_of_false_alarms_runs_to_its_end() -> None:
    bench = Path(__file__).parents[3] / "bench" / "dice_alarms.py"
    done = subprocess.run([sys.executable, str(bench), "--smoke"], capture_output=True,
                          text=True, check=True, env={**os.environ, "PYTHONPATH": str(
                              bench.parents[1])})
    found = json.loads(done.stdout)
    assert found["nights"] == 40 and found["tests_per_page"] == 4
    assert set(found["loaded_table_caught"]) == {"every_die", "one_die_in_five"}
    assert found["goals"]["fair_page_false_alarm"]["goal"] == 0.05
