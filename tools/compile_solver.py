"""Compile the move solver's search modules with mypyc, in place.

The solver is plain Python and needs nothing else; compiled, the same
sources take 20 to 30% less time (docs/solver.md, "Compiled"). This writes
the compiled modules next to their sources under src/tilerummy/solver/, where
Python prefers them, and a stamp with a digest of every source they were
built from (theirs and those of the package's modules they import): when
one changes, the solver runs the plain modules, with a warning, until this
is run again. Nothing is done when the compiled modules are up to date.

Run: python tools/compile_solver.py [--force | --clean]
(``make accel``; needs a C compiler, the Python headers, mypy and setuptools.)
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "src"


def _runtime() -> ModuleType:
    """tilerummy/solver/_compiled.py, loaded by its path: importing the
    package would import the solver itself."""
    path = SOURCES / "tilerummy" / "solver" / "_compiled.py"
    spec = importlib.util.spec_from_file_location("_tilerummy_compiled", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUNTIME = _runtime()


def _imported(path: Path) -> set[Path]:
    """The package's modules this source imports (relative imports, and
    absolute ones of ``tilerummy``), as files."""
    module = ".".join(path.relative_to(SOURCES).with_suffix("").parts)
    package = module.rsplit(".", 1)[0].split(".")
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: list[list[str]] = []
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = [*base, *(node.module.split(".") if node.module else [])]
            names = [target, *([*target, alias.name] for alias in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        for parts in names:
            if not parts or parts[0] != "tilerummy":
                continue
            for candidate in (SOURCES.joinpath(*parts).with_suffix(".py"), SOURCES.joinpath(*parts, "__init__.py")):
                if candidate.is_file():
                    found.add(candidate)
    return found


def sources() -> list[Path]:
    """The compiled modules' sources and every module of the package they
    import, directly or not."""
    todo = [RUNTIME.HERE / f"{name}.py" for name in RUNTIME.MODULES]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(_imported(path))
    return sorted(seen)


def clean(*, quiet: bool = False) -> None:
    """Remove the compiled modules (for any Python version) and the stamp."""
    found = [
        path for name in RUNTIME.PRODUCTS for path in RUNTIME.HERE.glob(f"{name}.*") if path.suffix in {".so", ".pyd"}
    ]
    if RUNTIME.STAMP.exists():
        found.append(RUNTIME.STAMP)
    for path in found:
        path.unlink()
        if not quiet:
            print(f"removed {path.relative_to(ROOT)}")
    if not found and not quiet:
        print("no compiled solver modules to remove")


def compile_modules() -> None:
    # Imported here so that --clean works without them (setuptools through
    # importlib: not every version of it is typed).
    from mypyc.build import mypycify

    setup = importlib.import_module("setuptools").setup
    clean(quiet=True)
    relative = [f"tilerummy/solver/{name}.py" for name in RUNTIME.MODULES]
    here = Path.cwd()
    os.chdir(SOURCES)  # the modules' names come from their paths under src/
    try:
        with tempfile.TemporaryDirectory(prefix="tilerummy-mypyc-") as work:
            os.environ["MYPY_CACHE_DIR"] = str(Path(work) / "mypy-cache")  # not left in src/
            extensions = mypycify(
                relative, opt_level="3", group_name=f"tilerummy.solver.{RUNTIME.GROUP}", target_dir=work
            )
            setup(
                name="tilerummy-solver-compiled",
                ext_modules=extensions,
                script_args=["--quiet", "build_ext", "--inplace", "--build-temp", work, "--build-lib", work],
            )
    finally:
        os.chdir(here)
    digests = {path.relative_to(RUNTIME.PACKAGE_ROOT).as_posix(): RUNTIME.digest(path) for path in sources()}
    RUNTIME.STAMP.write_text(json.dumps({"sources": digests}, indent=1) + "\n")
    for path in RUNTIME.compiled_files():
        print(f"compiled {path.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compile the solver's search modules with mypyc, in place.")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--force", action="store_true", help="compile even when the compiled modules are up to date")
    what.add_argument("--clean", action="store_true", help="remove the compiled modules instead")
    args = parser.parse_args(argv)
    if args.clean:
        clean()
    elif not args.force and RUNTIME.available():
        print("the compiled solver modules are up to date")
    else:
        compile_modules()
    return 0


if __name__ == "__main__":
    sys.exit(main())
