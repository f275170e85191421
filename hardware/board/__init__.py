"""The board: the reed-switch matrix under the spaces, and a mock board of magnets for tests."""
