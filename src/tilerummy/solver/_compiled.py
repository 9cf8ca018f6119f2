"""Whether the solver's search modules run compiled or as plain Python.

``tools/compile_solver.py`` (``make accel``) may compile them with mypyc next
to their sources, where Python would import them first. They are used only
when the stamp it writes matches every source (a module edited since would
otherwise run as it was), and not when ``TILERUMMY_SOLVER=pure`` is set; in
either case the plain sources are loaded instead, before anything imports
the compiled ones. Both run the same code and give the same answers.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

#: The modules that may be compiled, each after those it imports.
MODULES = ("_search", "_layers", "_keep", "_solve")
_HERE = Path(__file__).resolve().parent
_STAMP = _HERE / "_compiled.json"


def _built(name: str) -> bool:
    return any((_HERE / f"{name}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _stamp_matches() -> bool:
    try:
        stamp = json.loads(_STAMP.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and all(
        stamp.get(name) == hashlib.sha256((_HERE / f"{name}.py").read_bytes()).hexdigest() for name in MODULES
    )


def _load_sources(package: str) -> None:
    """Import the plain modules from their sources, so that every later
    import of them (and of each other) finds these."""
    parent = sys.modules[package]
    for name in MODULES:
        spec = importlib.util.spec_from_file_location(f"{package}.{name}", _HERE / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        setattr(parent, name, module)


def available() -> bool:
    """Whether every module is compiled from its present source."""
    return all(_built(name) for name in MODULES) and _stamp_matches()


def choose(package: str) -> bool:
    """Make the solver's modules the compiled ones or the plain ones (see
    the module's doc); True when they are compiled."""
    built = [name for name in MODULES if _built(name)]
    if not built:
        return False
    if os.environ.get("TILERUMMY_SOLVER", "").strip().lower() == "pure":
        _load_sources(package)
        return False
    if len(built) < len(MODULES) or not _stamp_matches():
        warnings.warn(
            "the compiled solver modules do not match their sources; running the plain ones "
            "(compile them again with `make accel`, or remove them with `make accel-clean`)",
            RuntimeWarning,
            stacklevel=3,
        )
        _load_sources(package)
        return False
    return True
