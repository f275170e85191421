"""Broker passwords: read from a file only its owner may read, or refused in one line."""

from __future__ import annotations

from pathlib import Path

from firmware_host.errors import UsageError


class CredentialsError(UsageError, ValueError):
    """The password file is missing, empty or open to others; the message says which."""


def read_secret(path: Path, key: str) -> str:
    """The first line of a password file that only its owner may read; ``key`` says where
    the file was named (``FILE, line N: night.credentials`` or ``--password-file``)."""
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CredentialsError(f"{key}: {path} does not exist; write the broker password "
                               "there (chmod 600)") from None
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise CredentialsError(f"{key}: {path} cannot be read ({reason})") from None
    if mode & 0o077:
        raise CredentialsError(f"{key}: {path} may be read by others (mode {mode & 0o777:o}); "
                               f"chmod 600 {path}")
    secret = text.splitlines()[0].strip() if text.strip() else ""
    if not secret:
        raise CredentialsError(f"{key}: {path} is empty; write the broker password there")
    return secret
