"""For tests that build a throwaway root or a fake Raspberry Pi in a private mount namespace:
they need root and a working ``unshare --mount`` (qemu-user, for one, has none). In CI
(TABLE_COMPANION_CI set) such a test runs regardless, so a missing piece fails it."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

import pytest


@functools.cache
def private_mounts_work() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


needs_private_mounts = pytest.mark.skipif(
    not os.environ.get("TABLE_COMPANION_CI") and not private_mounts_work(),
    reason="needs root and a working unshare --mount (CI has both)")
