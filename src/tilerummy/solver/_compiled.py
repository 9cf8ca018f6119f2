"""Whether the solver's search modules run compiled or as plain Python.

``tools/compile_solver.py`` (``make accel``) may compile them with mypyc next
to their sources, where Python would import them first, and writes a stamp
with a digest of every source they were compiled from: theirs and those of
the package's modules they import (mypyc builds in what it saw of those).
The compiled modules are used only when every one of them is there and
loads, and the stamp matches every source; otherwise, or when
``TILERUMMY_SOLVER=pure`` is set, the plain sources are loaded instead,
before anything imports the compiled ones. Both run the same code and give
the same answers. This module needs only the standard library: the build
tool loads it by its path.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

#: The modules that may be compiled, each after those it imports.
MODULES = ("_search", "_layers", "_keep", "_solve")
#: The compiled modules' shared library (mypyc's group), in the same package.
GROUP = "_native"
HERE = Path(__file__).resolve().parent
#: The package's root, which the stamp's paths are relative to.
PACKAGE_ROOT = HERE.parent
STAMP = HERE / "_compiled.json"
#: What a compilation leaves next to the sources, by module name.
PRODUCTS = (*MODULES, f"{GROUP}__mypyc")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_files() -> list[Path]:
    """The compiled modules and their shared library, as far as they exist."""
    return [
        HERE / f"{name}{suffix}"
        for name in PRODUCTS
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (HERE / f"{name}{suffix}").exists()
    ]


def problem() -> str | None:
    """Why the compiled modules cannot be used (None: they can); "not
    built" when there are none."""
    built = {path.name.split(".")[0] for path in compiled_files()}
    if not built:
        return "not built"
    if len(built) < len(PRODUCTS):
        return "only some of them are there"
    try:
        stamp = json.loads(STAMP.read_text())
        changed = [
            path
            for path, sha in stamp["sources"].items()
            if not (PACKAGE_ROOT / path).is_file() or digest(PACKAGE_ROOT / path) != sha
        ]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "the stamp recording their sources is missing or unreadable"
    if changed:
        return f"sources they were compiled from have changed since ({', '.join(sorted(changed))})"
    return None


def available() -> bool:
    """Whether the compiled modules are there and match their sources."""
    return problem() is None


def _load_sources(package: str) -> None:
    """Import the plain modules from their sources, so that every later
    import of them (and of each other) finds these."""
    parent = sys.modules[package]
    for name in MODULES:
        spec = importlib.util.spec_from_file_location(f"{package}.{name}", HERE / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        setattr(parent, name, module)


def select(package: str) -> bool:
    """Put either the compiled modules or the plain ones in ``sys.modules``
    (see the module's doc) and tell which: True for the compiled ones.
    Compiled modules that cannot be used are passed over with a warning."""
    reason = problem()
    if reason == "not built":
        return False
    if os.environ.get("TILERUMMY_SOLVER", "").strip().lower() == "pure":
        _load_sources(package)
        return False
    if reason is None:
        try:
            importlib.import_module(f"{package}._solve")  # and the others, which it imports
        except ImportError as error:
            for name in PRODUCTS:
                sys.modules.pop(f"{package}.{name}", None)
            reason = f"they do not load ({error})"
        else:
            return True
    warnings.warn(
        f"running the solver's plain modules, not the compiled ones: {reason} "
        "(compile them again with `make accel`, or remove them with `make accel-clean`)",
        RuntimeWarning,
        stacklevel=2,
    )
    _load_sources(package)
    return False
