"""Pin maps as data (TOML), read by ``hardware.wiring.pinmap``; their drawings and BOM."""
