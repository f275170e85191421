"""Pin maps as code: parsing and checking the TOML maps in the top-level ``wiring/`` folder, and
drawing them as an SVG diagram and a bill of materials.

They live in ``hardware/`` rather than beside the maps because a pin map names the drivers
(controls, matrix geometry, display) and the drivers are built from it: placed in ``wiring/``,
the two packages would import each other. ``wiring/`` stays data: maps, drawings, BOM.
"""
