# make run: set up and start the server; open the address it prints in a browser.
# make test: set up and run the linters, the type checker and every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The steps of make test share the compiled modules: one at a time.
.NOTPARALLEL:

.PHONY: run test lint typecheck unit setup browser compiler accel accel-clean unit-compiled clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	@echo "Starting the game server: open the address below in a browser to play (Ctrl-C stops it)."
	@$(BIN)/tilerummy serve

# The browser tests drive Debian's Chromium, and the client's pure modules are tested
# with Node.js's own test runner; install them only when they are missing.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@command -v node >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs; }

# Compiling the solver (make accel) needs the C compiler Python was built
# with and the Python headers; install them only when they are missing.
compiler:
	@$(PYTHON) -c 'import os, shutil, sys, sysconfig; cc = (sysconfig.get_config_var("CC") or "cc").split()[0]; sys.exit(not (shutil.which(cc) and os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))))' || { \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc python3-dev; }

# The solver's search modules compiled with mypyc, next to their sources
# (optional: the solver runs as plain Python without them); nothing is done
# when they are up to date.
accel: $(STAMP) compiler
	$(BIN)/python tools/compile_solver.py

accel-clean:
	$(PYTHON) tools/compile_solver.py --clean

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools

typecheck: $(STAMP)
	$(BIN)/mypy

# Every test on the plain solver, then the solver's own tests on the compiled one.
unit: $(STAMP) browser
	TILERUMMY_SOLVER=pure $(BIN)/pytest src tests docs

unit-compiled: accel
	env -u TILERUMMY_SOLVER TILERUMMY_REQUIRE_COMPILED=1 $(BIN)/pytest -q tests/test_solver.py tests/test_solver_exact.py tests/test_solver_changes.py tests/test_peer.py tests/test_solver_compiled.py tests/test_solver_wide.py

test: lint typecheck unit unit-compiled

clean:
	$(PYTHON) tools/compile_solver.py --clean
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
