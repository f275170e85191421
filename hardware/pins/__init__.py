"""Pins: choosing the pin factory (real or mock), the short-memory mock pins, the types every
driver is handed, and a clock tests move by hand."""
