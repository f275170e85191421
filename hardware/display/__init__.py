"""The screen: the display protocol, the SSD1306/SH1106 driver that sends only changed pages,
its factory and SPI lines, a recorder mock, emulators (PNG, GIF, terminal), the fallback that
keeps the daemon running without a panel, and sample frames."""
