"""Smart dice read over Bluetooth: the Pixels advertisement's decoder, the throw assembler
that makes one throw of the dice a throw takes, and the scan-only reader that feeds it."""
