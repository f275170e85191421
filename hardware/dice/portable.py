"""The Pixels dice code that runs on the Pi and on the Pico W bridge alike.

Decoding a die's advertisement and making throws of the dice's reports is the same code on
both: this module is copied beside ``firmware/pico/dice.py`` on a Pico W, so it must run under
MicroPython as well as CPython. Hence no imports (but for mypy, under a ``TYPE_CHECKING`` no
interpreter sets), no dataclasses or enums, annotations that are built-in types or strings,
none on attributes (``# type:`` comments there), and plain loops instead of helpers
MicroPython may lack (``bytes.hex``, ``int.from_bytes`` with keywords, ``min`` with a
default, ``:=`` in a comprehension). The Pi's side
(:mod:`hardware.dice.pixels`, :mod:`hardware.dice.throws`) wraps it in typed values and events.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # never true when run: the types are for mypy alone
    from collections.abc import Collection
    from typing import Any, Protocol

    class Report(Protocol):
        """What the assembler reads of a decoded advertisement."""

        @property
        def state(self) -> int: ...
        @property
        def face(self) -> int: ...
        @property
        def at_rest(self) -> bool: ...
        @property
        def battery(self) -> int: ...
        @property
        def charging(self) -> bool: ...

COMPANY_ID = 0x0D39
"""Systemic Games' Bluetooth company identifier, the key of a die's manufacturer data."""
INFO_UUID16 = 0x180A
"""The Device Information service, whose service data carries the pixel id."""
MANUFACTURER_BYTES = 5
SERVICE_BYTES = 8

UNKNOWN = 0
ROLLED = 1  # came to rest on a face after what looked like a proper roll
HANDLING = 2
ROLLING = 3
CROOKED = 4  # came to rest, but not flat on a face
ON_FACE = 5  # at rest on a face without having been rolled (or too little to count)
STATES = (UNKNOWN, ROLLED, HANDLING, ROLLING, CROOKED, ON_FACE)
MOVING = (HANDLING, ROLLING)
AT_REST = (ROLLED, ON_FACE)

SETTLE = 4.0
"""Seconds the dice of a throw have, after the first came to rest, for the rest to land."""
QUIET = 2.0
"""Seconds a die in a throw may go unheard (it advertises every 187.5 ms) before the throw is
dropped and the die named: well within the 5 s a player waits to be told."""
ABSENT = 30.0
"""Seconds a die out of a throw may go unheard before it is named as missing."""
GATHER = 0.6
"""With no count (a throw is the dice that moved), seconds with every moved die at rest, after
the last landed, before they are one throw: three of a die's advertisements, time for a die
still tumbling to have said so."""
LOW_BATTERY = 15  # percent, when not charging
RECHARGED = 5  # percent above LOW_BATTERY before a low battery is told again


def hex_bytes(data: bytes) -> str:
    """``b"\\x06\\x21"`` -> ``"06 21"``, ``"nothing"`` for no bytes."""
    return " ".join([f"{byte:02x}" for byte in data]) or "nothing"


def parse_advert(data: bytes) -> "tuple[int, int, int, int, int, bool]":
    """``(leds, design, state, face_index, battery, charging)`` from a die's manufacturer data
    (without its company id). Raises ValueError saying what is wrong: a wrong length, an
    unknown roll state, a face index beyond the die's LEDs or a battery level over 100%."""
    if len(data) != MANUFACTURER_BYTES:
        raise ValueError(f"a Pixels advertisement has {MANUFACTURER_BYTES} bytes, not "
                         f"{len(data)} ({hex_bytes(data[:16])}): not a Pixels die, or a "
                         "firmware from before July 2022 (update it in the Pixels app)")
    leds, design, state, face_index, battery = data[0], data[1], data[2], data[3], data[4]
    if state not in STATES:
        raise ValueError(f"roll state {state} is not one a Pixels die sends "
                         f"({hex_bytes(data)})")
    if leds == 0 or face_index >= leds:
        raise ValueError(f"face index {face_index} on a die of {leds} LEDs "
                         f"({hex_bytes(data)})")
    level = battery & 0x7F
    if level > 100:
        raise ValueError(f"battery level {level}% is over 100% ({hex_bytes(data)})")
    return leds, design, state, face_index, level, bool(battery & 0x80)


def parse_pixel_id(data: bytes) -> int:
    """The die's unique id from its service data (``[pixelId, buildTimestamp]``, both u32
    little-endian). Raises ValueError for a wrong length or an id of 0, which the firmware
    never sends."""
    if len(data) != SERVICE_BYTES:
        raise ValueError(f"a Pixels service data has {SERVICE_BYTES} bytes, not "
                         f"{len(data)} ({hex_bytes(data[:16])})")
    ident = data[0] | data[1] << 8 | data[2] << 16 | data[3] << 24
    if ident == 0:
        raise ValueError(f"pixel id 0 is no die's ({hex_bytes(data)})")
    return ident


def format_id(ident: int) -> str:
    """A pixel id as the config and the Pixels app write it: eight hex digits."""
    return f"{ident:08X}"


def which_die(address: str, service: "bytes | None",
              named: "Collection[str] | None") -> "str | None":
    """The named die an advertisement is from, by the pixel id in its service data or by its
    address; None for another table's. ``named`` None: any die, by its pixel id (its address
    when it sends none), as pairing looks for them. Raises ValueError for bad service data."""
    ident = None if service is None else format_id(parse_pixel_id(service))
    if named is None:
        return ident or address
    if ident in named:
        return ident
    return address if address in named else None


def ad_fields(payload: bytes) -> "list[tuple[int, bytes]]":
    """The ``(type, bytes)`` fields of a raw advertising or scan-response payload, as a radio
    without bleak's parsing hands it over (the Pico W's). A field whose length runs past the
    end stops the walk: what came before it is kept."""
    fields = []
    at = 0
    while at < len(payload):
        length = payload[at]
        if length == 0 or at + 1 + length > len(payload):
            break
        fields.append((payload[at + 1], bytes(payload[at + 2 : at + 1 + length])))
        at += 1 + length
    return fields


def pixels_parts(payloads: "list[bytes | None]") -> "tuple[bytes | None, bytes | None]":
    """``(manufacturer data, pixel id service data)`` of a die in raw payloads (its
    advertisement and scan response), each without its 2-byte key; None for what is absent."""
    manufacturer = service = None
    for payload in payloads:
        for kind, data in ad_fields(payload or b""):
            if len(data) < 2:
                continue
            key = data[0] | data[1] << 8
            if kind == 0xFF and key == COMPANY_ID:
                manufacturer = data[2:]
            elif kind == 0x16 and key == INFO_UUID16:
                service = data[2:]
    return manufacturer, service


class Reading:
    """One decoded advertisement, as the assembler reads it (the Pi's is a dataclass with the
    same attributes)."""

    def __init__(self, leds: int, design: int, state: int, face_index: int, battery: int,
                 charging: bool) -> None:
        self.leds, self.state, self.face_index = leds, state, face_index
        self.die_type, self.colorway = design >> 4, design & 0x0F
        self.battery, self.charging = battery, charging
        self.face = face_index + 1
        self.at_rest = state in AT_REST


def reading(data: bytes) -> Reading:
    """The advertisement in ``data``, decoded; raises ValueError as :func:`parse_advert`."""
    return Reading(*parse_advert(data))


class _Die:
    """What one named die last said: when it was heard, and what is already told of it."""

    def __init__(self, heard: float) -> None:
        self.heard = heard
        self.face = None  # type: int | None  # the face it last rested on
        self.battery_told = False
        self.absent_told = False


class Assembler:
    """Throws of ``count`` dice out of the named ``dice``' reports (``count`` 0: of the dice
    that moved, however many, as a bridge that cannot be told the count sends them; the table
    then checks the count, so a game that holds dice rerolls some).

    A die that starts moving (handling, rolling) joins the throw being made; once the dice
    that moved have all come to rest and are exactly as many as a throw takes (with no count,
    once they have rested for :data:`GATHER`), their faces are one throw, in the order the
    dice are named. A die that lands crooked is asked to be rolled
    again (the throw waits for it), a die that goes quiet in a throw drops the throw and is
    named, and rests of too few or too many dice drop it with a word of what was seen. Dice
    not named are ignored. :meth:`heard` takes each report (anything with ``state``, ``face``,
    ``at_rest``, ``battery`` and ``charging``), :meth:`tick` the time passing; both return
    what the table must hear, made by :meth:`thrown` and :meth:`said`. The clock is passed in,
    so every timeout is tested without sleeping."""

    def __init__(self, dice: "list[str] | tuple[str, ...]", count: int, now: float,
                 settle: float = SETTLE, quiet: float = QUIET, absent: float = ABSENT,
                 low_battery: int = LOW_BATTERY) -> None:
        dice = list(dice)
        if not dice or len(set(dice)) != len(dice):
            raise ValueError(f"the dice must be named once each, not {dice!r}")
        self.names = {}  # type: dict[str, int]
        for number, die in enumerate(dice):
            self.names[die] = number + 1
        self.order = dice
        self.count = count
        self.settle, self.quiet, self.absent, self.low_battery = settle, quiet, absent, low_battery
        self._dice = {}  # type: dict[str, _Die]
        for die in dice:
            self._dice[die] = _Die(now)
        # die -> the face it rests on, None while moving
        self._moved = {}  # type: dict[str, int | None]
        self._crooked = set()  # type: set[str]
        self._first_rest = None  # type: float | None
        self._last_rest = None  # type: float | None

    def thrown(self, faces: "tuple[int, ...]") -> "Any":
        """What a throw is told as: ``("DICE", faces)`` here, an event on the Pi."""
        return ("DICE", faces)

    def said(self, heard: bool, message: str) -> "Any":
        """What a word about the dice is told as; ``heard`` False for a die gone missing."""
        return ("SAY", heard, message)

    def name(self, die: str) -> str:
        return f"die {self.names[die]} ({die})"

    def heard(self, die: str, advert: "Report", now: float) -> "list[Any]":
        """A report from ``die``: what it makes of the throw, and of its battery."""
        seen = self._dice.get(die)
        if seen is None:
            return []  # another table's die
        seen.heard = now
        seen.absent_told = False
        told = self._battery(die, seen, advert)
        rested_before = seen.face
        seen.face = advert.face if advert.at_rest else None
        if (advert.at_rest and die not in self._moved
                and rested_before is not None and rested_before != advert.face):
            self._moved[die] = None  # its motion was not heard, but it rests on another face
        if advert.state in MOVING:
            self._moved[die] = None
            self._crooked.discard(die)
        elif die not in self._moved or self._moved[die] is not None or die in self._crooked:
            pass  # at rest and not in the throw, or already counted: a report repeated
        elif advert.state == CROOKED:
            self._crooked.add(die)
            told.append(self.said(True, self.name(die) + " landed crooked: roll it again"))
        elif advert.at_rest:
            self._moved[die] = advert.face
            if self._first_rest is None:
                self._first_rest = now
            self._last_rest = now
        return told + self._finished()

    def tick(self, now: float) -> "list[Any]":
        """What time passing makes of the throw: a die gone quiet, dice too few to land."""
        told = []  # type: list[Any]
        quiet = [die for die in self._moved if now - self._dice[die].heard >= self.quiet]
        if quiet:
            named = ", ".join([self.name(die) for die in quiet])
            told.append(self._drop(named + " went quiet in the throw: no throw taken, "
                                   "throw again"))
        elif self.count == 0:
            if (self._last_rest is not None and now - self._last_rest >= GATHER
                    and self._all_landed()):
                told.append(self._throw())
        elif (self._first_rest is not None and now - self._first_rest >= self.settle
              and not self._crooked):
            told.append(self._drop(f"{self._landed()} of {self.count} dice came to rest: no "
                                   f"throw taken, throw {self.count} again"))
        for die in self.order:
            seen = self._dice[die]
            if not seen.absent_told and die not in self._moved and now - seen.heard >= self.absent:
                seen.absent_told = True
                told.append(self.said(False, f"{self.name(die)} not heard for "
                                      f"{self.absent:.0f} s: is it awake and near? (a phone "
                                      "connected to it keeps it silent)"))
        return told

    def due(self) -> "float | None":
        """When :meth:`tick` has something to look at next, if no report comes first."""
        times = [self._dice[die].heard + self.quiet for die in self._moved]
        if self.count == 0 and self._last_rest is not None:
            times.append(self._last_rest + GATHER)
        elif self._first_rest is not None:
            times.append(self._first_rest + self.settle)
        for die in self.order:
            if not self._dice[die].absent_told:
                times.append(self._dice[die].heard + self.absent)
        return min(times) if times else None

    def missing(self) -> "list[str]":
        """The named dice told as not heard, for ``selftest`` and the screen."""
        return [die for die in self.order if self._dice[die].absent_told]

    def _all_landed(self) -> bool:
        return bool(self._moved) and None not in self._moved.values() and not self._crooked

    def _finished(self) -> "list[Any]":
        if self.count == 0 or not self._all_landed():
            return []  # with no count, the time passing says when the throw is whole
        if len(self._moved) > self.count:
            return [self._drop(f"{len(self._moved)} dice moved, a throw takes {self.count}: "
                               f"no throw taken, throw {self.count} again")]
        if len(self._moved) < self.count:
            return []  # the others may still land, within the settle time
        return [self._throw()]

    def _throw(self) -> "Any":
        faces = []
        for die in self.order:
            face = self._moved.get(die)
            if face is not None:
                faces.append(face)
        self._reset()
        return self.thrown(tuple(faces))

    def _landed(self) -> int:
        return len([face for face in self._moved.values() if face is not None])

    def _battery(self, die: str, seen: _Die, advert: "Report") -> "list[Any]":
        if seen.battery_told:  # told until charging, or clearly above the mark again
            seen.battery_told = not (advert.charging
                                     or advert.battery > self.low_battery + RECHARGED)
            return []
        if advert.battery > self.low_battery or advert.charging:
            return []
        seen.battery_told = True
        return [self.said(True, f"{self.name(die)} battery at {advert.battery}%: "
                          "charge it soon")]

    def _drop(self, message: str) -> "Any":
        self._reset()
        return self.said(True, message)

    def _reset(self) -> None:
        self._moved.clear()
        self._crooked.clear()
        self._first_rest = self._last_rest = None
