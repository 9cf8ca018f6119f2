"""Compile the move solver's search modules with mypyc, in place.

The solver is plain Python and needs nothing else; compiled, the same
sources run about half as fast again (docs/solver.md, "Compiled"). This
writes the compiled modules next to their sources under src/tilerummy/solver/,
where Python prefers them, and a stamp recording which sources they were
compiled from: when a source changes, the solver sees the stamp no longer
matches and runs the plain modules until this is run again.

Run: .venv/bin/python tools/compile_solver.py [--clean]
(``make accel``; needs a C compiler, the Python headers, mypy and setuptools.)
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "src"
PACKAGE = SOURCES / "tilerummy" / "solver"
# Kept in step with tilerummy/solver/_compiled.py, which cannot be imported here
# without importing the solver itself.
MODULES = ("_search", "_layers", "_keep", "_solve")
STAMP = PACKAGE / "_compiled.json"
GROUP = "tilerummy.solver._native"


def compiled_files() -> list[Path]:
    """The files a compilation leaves in the package."""
    names = (*MODULES, GROUP.rsplit(".", 1)[1] + "__mypyc")
    return sorted(path for name in names for path in PACKAGE.glob(f"{name}.*") if path.suffix in {".so", ".pyd"})


def clean() -> None:
    for path in [*compiled_files(), STAMP]:
        if path.exists():
            path.unlink()
            print(f"removed {path.relative_to(ROOT)}")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compile_modules() -> None:
    # Imported here so that --clean works without them (setuptools through
    # importlib: not every version of it is typed).
    from mypyc.build import mypycify

    setup = importlib.import_module("setuptools").setup

    clean()
    relative = [f"tilerummy/solver/{name}.py" for name in MODULES]
    os.chdir(SOURCES)  # the modules' names come from their paths under src/
    with tempfile.TemporaryDirectory(prefix="tilerummy-mypyc-") as work:
        extensions = mypycify(relative, opt_level="3", group_name=GROUP, target_dir=work)
        setup(
            name="tilerummy-solver-compiled",
            ext_modules=extensions,
            script_args=["--quiet", "build_ext", "--inplace", "--build-temp", work, "--build-lib", work],
        )
    STAMP.write_text(json.dumps({name: digest(PACKAGE / f"{name}.py") for name in MODULES}, indent=1) + "\n")
    for path in compiled_files():
        print(f"compiled {path.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compile the solver's search modules with mypyc, in place.")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules instead")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
    else:
        compile_modules()
    return 0


if __name__ == "__main__":
    sys.exit(main())
