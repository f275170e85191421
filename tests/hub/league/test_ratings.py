"""Ratings: openskill's Plackett-Luce over finishing orders, by player id, in the order the
games ended; properties over random games (hypothesis) and examples of each kind of rank."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.hub.league import league as league_module
from firmware_host.hub.league.league import build, extended, key
from firmware_host.hub.league.ratings import (
    ALPHA,
    MODEL,
    PROVISIONAL_GAMES,
    TARGET,
    Rating,
    Side,
    ordinal,
    rate,
)
from firmware_host.hub.league.roster import Person, Roster
from firmware_host.night.topics import Game, Player

NAMES = ["Ann", "Ben", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"]
ratings = st.builds(Rating, st.floats(0, 50), st.floats(0.5, 8.4), st.integers(0, 30))


@st.composite
def games_sides(draw: st.DrawFn) -> tuple[dict[str, Rating], list[Side]]:
    """Players with any ratings before, in 2 to 6 sides of one or two, with any places."""
    count = draw(st.integers(2, 6))
    players = draw(st.permutations(NAMES))[:2 * count]
    sizes = draw(st.lists(st.integers(1, 2), min_size=count, max_size=count))
    sides, at = [], 0
    for size in sizes:
        sides.append(Side(tuple(players[at:at + size]), draw(st.integers(1, count))))
        at += size
    before = {player: draw(ratings) for side in sides for player in side.players}
    return before, sides


@given(games_sides())
def test_a_side_that_finishes_first_alone_never_sees_its_ratings_fall(
        game: tuple[dict[str, Rating], list[Side]]) -> None:
    before, sides = game
    after = rate(before, sides)
    first = min(side.place for side in sides)
    winners = [side for side in sides if side.place == first]
    if len(winners) == 1:
        for player in winners[0].players:
            assert after[player].mu >= before[player].mu
            assert after[player].shown >= before[player].shown - 1e-9
    for player, rating in after.items():
        assert rating.games == before[player].games + 1
        assert rating.sigma <= before[player].sigma + 1e-12


@given(games_sides(), st.randoms(use_true_random=False))
def test_the_order_of_seats_and_partners_does_not_change_the_ratings(
        game: tuple[dict[str, Rating], list[Side]], shuffler: random.Random) -> None:
    before, sides = game
    shuffled = [Side(tuple(shuffler.sample(side.players, len(side.players))), side.place)
                for side in sides]
    shuffler.shuffle(shuffled)
    assert rate(before, shuffled) == rate(before, sides)


def test_a_game_needs_two_sides_and_each_player_once() -> None:
    with pytest.raises(ValueError, match="two sides or more"):
        rate({}, [Side(("Ann", "Ben"), 1)])
    with pytest.raises(ValueError, match="each player on one"):
        rate({}, [Side(("Ann",), 1), Side(("Ann",), 2)])


def played(game_id: int, title: str, ended: str, *results: tuple[str, int],
           table: str = "t1") -> Game:
    """A finished game: (name, place) in seat order."""
    return Game(table, table, game_id, title, "2026-11-20T19:00:00+00:00", ended, "2026-11-20",
                tuple(Player(seat, name, 10 - place, place)
                      for seat, (name, place) in enumerate(results)))


@st.composite
def nights(draw: st.DrawFn) -> list[Game]:
    """A few games of any kind, ending one after another (some at one instant)."""
    games = []
    for number in range(draw(st.integers(1, 12))):
        title = draw(st.sampled_from(["Dalmatian", "Sequence Dice", "Multi-Gam", "Centennial"]))
        count = 4 if title in ("Sequence Dice", "Multi-Gam") else draw(st.integers(2, 5))
        names = draw(st.permutations(NAMES))[:count]
        if title == "Sequence Dice":  # partners share their place
            winners = draw(st.sampled_from([(0, 2), (1, 3)]))
            places = [1 if seat in winners else 3 for seat in range(4)]
        else:
            places = [draw(st.integers(1, count)) for _ in range(count)]
        minute = draw(st.integers(0, 2)) + 3 * number
        games.append(played(number + 1, title, f"2026-11-20T20:{minute:02d}:00+00:00",
                            *zip(names, places, strict=True), table=f"t{number % 3}"))
    return games


@given(nights(), st.randoms(use_true_random=False))
def test_the_same_games_give_the_same_ratings_whatever_order_they_are_handed_in(
        games: list[Game], shuffler: random.Random) -> None:
    league = build(games, Roster())
    again = build(shuffler.sample(games, len(games)), Roster())
    assert {p.id: p.rating for p in again.players.values()} == {
        p.id: p.rating for p in league.players.values()}
    # a league that took the games as they came equals one built from all of them at once
    growing = build([], Roster())
    for count in range(1, len(games) + 1):
        growing = extended(growing, games[:count], Roster())
    assert growing.players == league.players


def test_teams_share_their_result_and_ties_are_ties() -> None:
    sequence = played(1, "Sequence Dice", "2026-11-20T20:00:00+00:00",
                      ("Ann", 1), ("Ben", 3), ("Cy", 1), ("Di", 3))
    league = build([sequence], Roster())
    ann, ben, cy, di = (league.players[i].rating for i in ("ann", "ben", "cy", "di"))
    assert ann == cy and ben == di and ann.mu > ben.mu  # 1 and 3 against 2 and 4
    tie = played(2, "Dalmatian", "2026-11-20T20:10:00+00:00", ("Eve", 1), ("Fay", 1),
                 ("Gus", 3))
    league = build([tie], Roster())
    eve, fay, gus = (league.players[i].rating for i in ("eve", "fay", "gus"))
    assert eve == fay and eve.mu > gus.mu
    assert league.players["eve"].by_game == {"Dalmatian": eve}


def test_a_rating_is_provisional_until_enough_games_and_the_ranking_says_so() -> None:
    games = [played(n, "Dalmatian", f"2026-11-20T20:{n:02d}:00+00:00", ("Ann", 1), ("Ben", 2))
             for n in range(1, PROVISIONAL_GAMES + 1)]
    games.append(played(99, "Dalmatian", "2026-11-20T21:00:00+00:00", ("Cy", 1), ("Di", 2)))
    league = build(games, Roster())
    assert not league.players["ann"].rating.provisional
    assert league.players["cy"].rating.provisional
    assert [p.id for p in league.ranked()] == ["ann", "ben", "cy", "di"]
    assert Rating().shown == TARGET == 100  # a newcomer


def test_nobody_is_shown_below_zero_even_last_in_every_game() -> None:
    """2 (mu - 3 sigma) + 100: a player last in 100 four-player games in a row (against the
    same three, so the model grows sure) is still above 0, and the value never goes under."""
    players = ("Ann", "Ben", "Cy", "Di")
    before = {p: Rating() for p in players}
    for _ in range(100):
        before.update(rate(before, [Side((p,), place) for place, p in enumerate(players, 1)]))
    assert 10 <= before["Di"].shown < before["Cy"].shown < Rating().shown < before["Ann"].shown
    assert Rating(mu=-100.0, sigma=1.0).shown == 0


@given(nights())
def test_every_shown_rating_is_a_whole_number_of_zero_or_more(games: list[Game]) -> None:
    league = build(games, Roster())
    for player in league.players.values():
        assert isinstance(player.rating.shown, int) and player.rating.shown >= 0


def test_the_roster_joins_a_players_games_and_a_rebuild_equals_a_fresh_league() -> None:
    games = [played(1, "Dalmatian", "2026-11-20T20:00:00+00:00", ("Chris", 1), ("Ann", 2)),
             played(2, "Dalmatian", "2026-11-20T20:30:00+00:00", ("Christopher", 1),
                    ("ann", 2))]
    apart = build(games, Roster())
    assert sorted(apart.players) == ["ann", "chris", "christopher"]
    assert apart.players["ann"].name == "ann"  # the latest spelling
    roster = Roster.of([Person("chris", "Christopher", ("Chris",))])
    merged = extended(apart, games, roster)
    assert merged.players == build(games, roster).players
    assert sorted(merged.players) == ["ann", "chris"]
    assert merged.players["chris"].rating.games == 2
    assert [a.name for a in merged.players["chris"].appearances] == ["Chris", "Christopher"]


def test_a_player_named_twice_in_a_game_is_not_rated_in_it() -> None:
    twice = played(1, "Dalmatian", "2026-11-20T20:00:00+00:00", ("Chris", 1), ("chris", 2))
    league = build([twice], Roster())
    assert league.unrated == {key(twice): "a player is named twice in it"}
    assert league.players["chris"].rating == Rating()
    assert [a.overall for a in league.players["chris"].appearances] == [None, None]


@given(nights(), st.randoms(use_true_random=False))
def test_a_game_taken_out_is_rated_as_if_never_played(games: list[Game],
                                                      shuffler: random.Random) -> None:
    league = build(games, Roster())
    gone = shuffler.choice(games)
    rest = [game for game in games if game is not gone]
    assert extended(league, rest, Roster()).players == build(rest, Roster()).players


def test_a_game_that_comes_late_rates_on_from_its_place_not_from_the_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    games = [played(n, "Dalmatian", f"2026-11-20T{18 + n // 60:02d}:{n % 60:02d}:00+00:00",
                    ("Ann", n % 2 + 1), ("Ben", 2 - n % 2)) for n in range(1, 101)]
    late = games.pop(96)  # it ended before the last three
    league = build(games, Roster())
    rated: list[int] = []
    real = league_module.rate
    monkeypatch.setattr(league_module, "rate", lambda *a: rated.append(1) or real(*a))
    league = extended(league, [*games, late], Roster())
    assert len(rated) == 2 * 4  # overall and in its game, for it and the three after it
    assert league.players == build([*games, late], Roster()).players


@given(st.floats(-100, 100), st.floats(0.001, 10))
def test_the_shown_value_is_openskills_ordinal_to_the_last_bit(mu: float, sigma: float) -> None:
    assert ordinal(mu, sigma) == MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=ALPHA,
                                                                          target=TARGET)
