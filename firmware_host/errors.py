"""Errors that several layers of the daemon share, so none imports them from a layer above.

The command line (``cli.py``) turns a :class:`UsageError` into one line and exit status 2;
the config, journal, referee and simulator raise it for values a user must correct.
"""

from __future__ import annotations


class UsageError(Exception):
    """A value the user must correct (an argument, a config key, a file); printed as one line,
    exit status 2."""
