"""The simulator: the daemon on mock pins with keys for hands and the screen in the terminal, and
TOML scenarios played on a manual clock into PNG frames and a GIF."""
