"""Controls: the push buttons, the dice button, the knob and menu buttons, the input set that
polls them with the board, and the mock table whose hands press them in tests and the simulator."""
