"""Ratings made for multiplayer ranks: openskill's Plackett-Luce model, game by game.

A finishing order is what every game here gives (Multi-Gam's 1st to 4th, Centennial's order
home, Dalmatian's scores with ties), so a game is rated as one ranking of its sides: a
player alone, or Sequence Dice's partners as one team. Unlike a rating that counts each
co-player as a pairwise win, a 4-player win is one result, and ties are ties.

A rating is shown conservatively and as a score: openskill's ``ordinal(alpha=2,
target=100)``, that is ``2 (mu - 3 sigma) + 100``, rounded. ``mu - 3 sigma`` is a skill the
model is nearly sure the player has: it starts at 0 and grows as the model grows sure, so one
lucky first game does not top the table. ``target`` puts every newcomer at 100, a round
number to read the others against. ``alpha`` of 2 makes a game's change a few whole points
(no decimals to read) and keeps ratings above 0 in any league people play: a player last in
each of 100 four-player games in a row against the same three still shows about 20 (it
takes ``mu - 3 sigma`` below -50, hundreds of such games); the shown value stops at 0 even
then. Below :data:`PROVISIONAL_GAMES` games a rating is marked provisional, in words:
too few games to say much yet. Sigma never grows from a game
(``limit_sigma``), so a player who finishes first alone never sees the shown rating fall.

The order of the sides handed to the model is fixed here (by place, then ids), whatever
the seats, so the same games in the same order always give the same ratings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

PROVISIONAL_GAMES = 5  # fewer games than this: the rating is marked provisional
MODEL = PlackettLuce(limit_sigma=True)
MU, SIGMA = MODEL.mu, MODEL.sigma
ALPHA, TARGET = 2.0, 100.0  # the shown scale: openskill's ordinal(alpha=, target=)
PROVISIONAL_WORDS = f"fewer than {PROVISIONAL_GAMES} games: too few to say much yet"


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        """The value the pages show: openskill's ordinal on the league's scale (a newcomer
        100), never below 0."""
        return max(0, round(ordinal(self.mu, self.sigma)))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Side:
    """One side of a rated game: its players' ids (two for partners) and its place (1 is
    first; tied sides share a place)."""

    players: tuple[str, ...]
    place: int


def rate(ratings: Mapping[str, Rating], sides: Sequence[Side]) -> dict[str, Rating]:
    """Every player's rating after one game of ``sides``, from ``ratings`` before it (a
    player not in ``ratings`` starts afresh). ValueError if a player is on two sides or
    there are fewer than two sides."""
    players = [player for side in sides for player in side.players]
    if len(set(players)) != len(players) or len(sides) < 2 or not all(
            side.players for side in sides):
        raise ValueError("a rated game needs two sides or more, each player on one")
    ordered = sorted((side.place, tuple(sorted(side.players))) for side in sides)
    teams = [[_model(ratings.get(player, Rating())) for player in team]
             for _, team in ordered]
    after = MODEL.rate(teams, ranks=[float(place) for place, _ in ordered])
    return {player: Rating(float(new.mu), float(new.sigma),
                           ratings.get(player, Rating()).games + 1)
            for (_, team), rated in zip(ordered, after, strict=True)
            for player, new in zip(team, rated, strict=True)}


def ordinal(mu: float, sigma: float) -> float:
    """openskill's ``ordinal(z=3, alpha=ALPHA, target=TARGET)``, the same arithmetic in the
    same order, without making a model's rating for it (a player's page shows thousands)."""
    return ALPHA * ((mu - 3.0 * sigma) + (TARGET / ALPHA))


def _model(rating: Rating) -> PlackettLuceRating:
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)
