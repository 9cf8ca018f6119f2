"""The browser client's pure modules (the draft table, the move log), under Node.js's own test runner.

The tests themselves are in ``tests/js/*.test.mjs``; ``make test`` installs Debian's ``nodejs``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent / "js"


def test_the_clients_pure_modules_pass_their_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (Debian's nodejs package; make test installs it)")
    files = sorted(str(path) for path in SCRIPTS.glob("*.test.mjs"))
    assert files, f"no tests in {SCRIPTS}"
    run = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout, run.stdout
