"""The edges: drivers for every part the companion touches, each handed its backend.

Drivers never open hardware themselves or read the wall clock: they take a gpiozero pin factory,
an ``emit`` function and a clock, so the same code runs on a Pi and on mock pins. Shared by all
parts: :mod:`~hardware.errors`, :mod:`~hardware.events` (what drivers emit),
:mod:`~hardware.backoff` and :mod:`~hardware.status_reporter`. Nothing here imports ``games``
or ``firmware_host``.
"""
