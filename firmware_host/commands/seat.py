"""``table-companion seat FILE``: propose the next round's seating from a small TOML file.

With ``--hub URL|FILE`` the night's past rounds (who played whom in each finished game) and
the players' ratings come from the hub (:mod:`firmware_host.hub.met`), added to what the
file says.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Collection, Mapping
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from firmware_host.commands import Subparsers, add_command, add_json_flag
from firmware_host.commands.hub import ROSTER
from firmware_host.errors import UsageError
from firmware_host.hub import met
from firmware_host.hub.league.ratings import TARGET
from firmware_host.hub.league.roster import RosterError
from firmware_host.hub.league.roster import read as read_roster
from firmware_host.hub.tonight import local_now
from firmware_host.night import topics
from firmware_host.night.credentials import read_secret
from firmware_host.night.mqtt import NotSent, send_once
from firmware_host.night.topics import SeatedTable, Seating, seating_payload
from firmware_host.seating import Night, Proposal, RoundTable, propose
from hardware.tomlfile import TomlFileError
from hardware.tomlfile import load as load_toml
from hardware.tomlreader import TomlReader

HOST_PASSWORD = Path("/etc/table-companion/host-password")
EXAMPLE = """\
players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
apart = [["Ann", "Bob"]]                 # never at the same table
rounds = [                               # the night's past rounds, one list of groups each
  [["Ann", "Cy", "Eve", "Gus"], ["Bob", "Dee", "Fay", "Hal"]],
]
ratings = { Ann = 112, Bob = 96 }        # optional, as the league shows them (a newcomer
                                         # 100); then every present player needs one
[[tables]]
name = "1"
game = "centennial"
[[tables]]
name = "2"
game = "sequence"
"""


def register(subparsers: Subparsers) -> None:
    parser = add_command(subparsers, "seat", description=textwrap.fill(
        "Propose the next round: who plays at which table, as few players meeting again as "
        "can be, never a pair marked apart, and with ratings the closest ratings at each "
        "table. With --hub, who met whom tonight and the ratings come from the hub's night. "
        "With --publish, show it on the night's page, on /tv and on each table's "
        "screen between games. Only on the command line of the hub's machine: the night's "
        "page has no host login, and anyone on the night's network can open it, so a button "
        "there would be anyone's to press; the broker lets only the host's login "
        f"({topics.HOST_USER}, its password readable by root alone) publish a seating."))
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "FILE looks like this:\n\n" + EXAMPLE
    parser.add_argument("file", type=Path, metavar="FILE", nargs="?",
                        help="the night as TOML (below)")
    parser.add_argument("--seed", type=int, default=0,
                        help="another seed gives another of the equally good seatings "
                             "(default 0)")
    add_json_flag(parser)
    hub = parser.add_argument_group("reading the night from the hub")
    hub.add_argument("--hub", metavar="URL|FILE",
                     help="the hub's address (http://hub.local:8080) or its file of nights: "
                          "every finished game of the night counts as a round, and every "
                          f"player gets the league's rating (a newcomer {TARGET:g})")
    hub.add_argument("--night", metavar="DATE",
                     help="the night to read (default: tonight as the hub shows it, or the "
                          "latest night in its file)")
    hub.add_argument("--roster", type=Path, default=ROSTER, metavar="FILE",
                     help=f"with a hub's file: the roster that names its players (default: "
                          f"{ROSTER}, if there is one)")
    night = parser.add_argument_group("showing it to the room")
    shown = night.add_mutually_exclusive_group()
    shown.add_argument("--publish", action="store_true",
                       help="send the seating to the night's broker for the page, /tv and "
                            "the tables' screens (it stays until the next or --clear)")
    shown.add_argument("--clear", action="store_true",
                       help="take the published seating down (no FILE needed)")
    night.add_argument("--broker", default="mqtt://localhost:1883", metavar="URL",
                       help="the broker (default: mqtt://localhost:1883, the hub's own)")
    night.add_argument("--user", default=topics.HOST_USER,
                       help=f"the host's login at the broker (default: {topics.HOST_USER})")
    night.add_argument("--password-file", type=Path, metavar="FILE", default=HOST_PASSWORD,
                       help=f"its password, in a file only its owner may read (default: "
                            f"{HOST_PASSWORD})")
    night.add_argument("--ca", type=Path, metavar="FILE",
                       help="for an mqtts:// broker: the certificate of the authority that "
                            "made the broker's (the night's night-ca.crt: on the hub "
                            "/etc/mosquitto/certs/night-ca.crt, on a table "
                            "/etc/table-companion/night-ca.crt; default: the system's "
                            "authorities)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.clear:  # kept by the broker, so a hub that keeps the seating hears it gone
        publish(args, seating_payload(Seating((), local_now().isoformat(timespec="seconds"))))
        print(f"The next round's seating is cleared at {args.broker}.", file=sys.stderr)
        return 0
    if args.file is None:
        raise UsageError("give the night's TOML file (or --clear)")
    night = read_night(args.file)
    said: list[str] = []
    if args.hub is not None:
        night, said = with_hub(night, read_hub(args))
    proposal = propose(night, args.seed)
    if args.json:
        print(json.dumps({**as_json(proposal), "hub": said}, indent=2))
    else:
        print("\n".join([*said, *proposal.explain()]))
    if args.publish:
        publish(args, seating_payload(as_seating(proposal, local_now())))
        print(f"Published to {args.broker}: on the night's page, /tv and the tables' screens.",
              file=sys.stderr)
    return 0


def publish(args: argparse.Namespace, payload: bytes) -> None:
    """``payload`` to the seating topic as the host, or a :class:`UsageError` saying why not."""
    try:
        broker = topics.parse_broker(args.broker)
    except ValueError as err:
        raise UsageError(f"--broker {args.broker}: {err}") from None
    if len(payload) > topics.MAX_PAYLOAD:
        raise UsageError(f"the seating is {len(payload)} bytes, more than the hub takes "
                         f"({topics.MAX_PAYLOAD}); use shorter names or fewer tables")
    password = read_secret(args.password_file, "--password-file")
    try:
        send_once(broker, args.user, password, topics.SEATING, payload, ca=args.ca)
    except NotSent as err:
        raise UsageError(f"not published: {err}") from None
    except OSError as err:  # the CA file: missing, unreadable, or not a certificate
        raise UsageError(f"--ca {args.ca}: cannot be used ({err.strerror or err}); give "
                         "the night's night-ca.crt") from None


def as_seating(proposal: Proposal, now: datetime) -> Seating:
    """The proposal as the night's seating message."""
    return Seating(tuple(SeatedTable(s.table.name, s.title, s.players, s.teams)
                         for s in proposal.tables),
                   now.isoformat(timespec="seconds"))


def read_hub(args: argparse.Namespace) -> met.Met:
    """The night at ``--hub``: a running hub's address, or its file of nights."""
    wanted = args.night or ""
    if wanted:
        try:
            date.fromisoformat(wanted)
        except ValueError:
            raise UsageError(f"--night {wanted}: not a date; write e.g. 2026-11-24") from None
    try:
        if args.hub.startswith(("http://", "https://")):
            return met.from_url(args.hub, wanted)
        path = Path(args.hub)
        if not path.is_file():
            raise UsageError(f"--hub {args.hub}: no such file; give the hub's address "
                             "(http://HOST:PORT) or its file of nights")
        roster = read_roster(args.roster)
        return met.from_file(path, roster, wanted)
    except (met.HubError, RosterError) as err:
        raise UsageError(f"--hub: {err}") from None


def with_hub(night: Night, found: met.Met) -> tuple[Night, list[str]]:
    """``night`` with the hub's games as past rounds and its ratings; what was read, in
    words, for the host to check."""
    if night.ratings:
        raise UsageError("the file gives ratings and --hub does too; drop the file's ratings "
                         "or --hub")
    players = list(night.players)
    rounds = found.rounds(players)
    ratings = {p: float(found.rating(p)) for p in players}
    new = [p for p in players if found.id_of(p) not in found.ratings]
    when = f"the night of {found.night}" if found.night else "the hub's night"
    said = [f"From the hub: {len(rounds)} finished game{'s' if len(rounds) != 1 else ''} "
            f"of {when} as past rounds"
            + (f"; {', '.join(new)} not rated yet, counted as a newcomer ({TARGET:g})"
               if new else "") + "."]
    return replace(night, rounds=night.rounds + rounds, ratings=ratings), said


def read_night(path: Path) -> Night:
    """The night in ``path``; a :class:`UsageError` naming the file and the bad key."""
    try:
        return night_from(load_toml(path, missing="no such file; give the night's TOML file"))
    except TomlFileError as err:
        raise UsageError(err.message(path)) from None


def night_from(data: Mapping[str, Any]) -> Night:
    reader = _Reader()
    reader.known(data, (), ("players", "tables", "rounds", "apart", "ratings"))
    players = reader.names(data.get("players"), ("players",))
    tables = reader.value(data, ("tables",), list, [], lambda found: None if found else "",
                          required=True, say=lambda _: "missing or not a list of tables; "
                          "write [[tables]] with name and game")
    table_list = []
    for number, table in enumerate(tables, 1):
        keys = ("tables", str(number))
        if not isinstance(table, dict) or set(table) != {"name", "game"}:
            raise reader.fail(keys, "each table needs exactly a name and a game")
        name, game = table["name"], table["game"]
        if not isinstance(name, str | int) or isinstance(name, bool) or not str(name).strip():
            raise reader.fail(keys, f"name {name!r} is not a name; write e.g. name = \"3\"")
        if not isinstance(game, str):
            raise reader.fail(keys, f"game {game!r} is not a game's name")
        table_list.append(RoundTable(str(name).strip(), game))
    rounds = reader.value(data, ("rounds",), list, [], say=lambda _: "not a list of rounds")
    round_list = []
    for number, round_ in enumerate(rounds, 1):
        keys = ("rounds", str(number))
        if not isinstance(round_, list):
            raise reader.fail(keys, "a round is a list of groups: [[\"Ann\", \"Bob\"], ...]")
        groups = tuple(reader.names(group, (*keys, str(g))) for g, group in enumerate(round_, 1))
        seated = [p for group in groups for p in group]
        twice = sorted({p for p in seated if seated.count(p) > 1})
        if twice:
            raise reader.fail(keys, f"{twice[0]} sits at two tables in this round")
        round_list.append(groups)
    apart = reader.value(data, ("apart",), list, [], say=lambda _: "not a list of pairs")
    pairs = []
    for number, pair in enumerate(apart, 1):
        names = reader.names(pair, ("apart", str(number)))
        if len(names) != 2:
            raise reader.fail(("apart", str(number)), "a pair is two names: [\"Ann\", \"Bob\"]")
        pairs.append((names[0], names[1]))
    ratings = reader.table(data, ("ratings",))
    for name in ratings:
        reader.value(ratings, ("ratings", name), float, 0.0,
                     say=lambda value: f"{value!r} is not a number")
    return Night(players, tuple(table_list), tuple(round_list), tuple(pairs),
                 {name: float(value) for name, value in ratings.items()})


class _Reader(TomlReader):
    """The night file's reads; a problem is a :class:`TomlFileError` naming its key, which
    :func:`read_night` shows with the file."""

    sort_unknown = True

    def fail(self, keys: tuple[str, ...], problem: str) -> TomlFileError:
        return TomlFileError(problem, keys)

    def unknown(self, keys: tuple[str, ...], key: str, allowed: Collection[str]) -> str:
        return f"unknown key; keys are {', '.join(allowed)}"

    def not_table(self, keys: tuple[str, ...], value: Any) -> str:
        return "not a table of ratings; write ratings = { Ann = 1500 }"

    def names(self, value: object, keys: tuple[str, ...]) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip()
                                                  for v in value):
            raise self.fail(keys, "not a list of names; write e.g. [\"Ann\", \"Bob\"]")
        return tuple(v.strip() for v in value)


def as_json(proposal: Proposal) -> dict[str, Any]:
    return {
        "seed": proposal.seed,
        "repeats": proposal.repeats,
        "exhaustive": proposal.exhaustive,
        "tables": [{"name": s.table.name, "game": s.table.game, "players": list(s.players),
                    "teams": [list(t) for t in s.teams],
                    "met_before": [[a, b, n] for a, b, n in s.met_before]}
                   for s in proposal.tables],
        "explanation": proposal.explain(),
    }
