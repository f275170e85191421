"""The daemon: the only place that wires games, hardware and the journal together.

Its core (config, journal, loop, referee, menu, views, notify, daemon, serial device, self-test,
shared errors) sits here; ``screens/`` draws views, ``sensing/`` turns board changes into
actions, ``commands/`` is the command line and ``sim/`` the simulator. The core imports neither
``commands/`` nor ``sim/``.
"""
