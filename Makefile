# make run: set up and start the server; open the address it prints in a browser.
# make test: set up and run the linters, the type checker and every test.
# make cluster: two server processes as one service on http://127.0.0.1:8000/ (docs/deploy.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run cluster test lint typecheck unit setup browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	@echo "Starting the game server: open the address below in a browser to play (Ctrl-C stops it)."
	@$(BIN)/tilerummy serve

# PostgreSQL from TILERUMMY_DB, else one started here (.ci/postgres.sh); Redis from
# TILERUMMY_REDIS, else one the cluster starts for itself. PROCESSES=N for more processes, PORT=P.
PROCESSES ?= 2
PORT ?= 8000
cluster: $(STAMP)
	@db="$${TILERUMMY_DB:-$$(bash .ci/postgres.sh)}"; \
	if [ -z "$$db" ]; then echo "No PostgreSQL: set TILERUMMY_DB=postgresql://... (docs/deploy.md)"; exit 1; fi; \
	echo "Starting $(PROCESSES) server processes as one service: open the address below (Ctrl-C stops them)."; \
	$(BIN)/tilerummy cluster --processes $(PROCESSES) --port $(PORT) --db "$$db" $${TILERUMMY_REDIS:+--redis "$$TILERUMMY_REDIS"}

# The browser tests drive Debian's Chromium (its headless build, lighter on the CPU), and the
# client's pure modules are tested with Node.js's own test runner; install them only when missing.
browser:
	@command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell; }
	@command -v node >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs; }

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools

typecheck: $(STAMP)
	$(BIN)/mypy

# One worker per core; the browser tests (marked as one group, run first) all run in one of them,
# with one server and one Chromium, while the others share out the rest of the tests. Compiled
# modules are kept even where the environment says not to write them: the workers then load
# what collecting the tests compiled, rather than each compiling every module again.
# PostgreSQL and Redis for the server's and the cluster's tests: the ones named by
# TILERUMMY_TEST_POSTGRES_URL and TILERUMMY_TEST_REDIS_URL, else local ones started here.
unit: $(STAMP) browser
	@postgres="$${TILERUMMY_TEST_POSTGRES_URL:-$$(bash .ci/postgres.sh)}"; \
	redis="$${TILERUMMY_TEST_REDIS_URL:-$$(bash .ci/redis.sh)}"; \
	[ -n "$$postgres" ] || echo "make test: no PostgreSQL, its tests will skip (see postgres.sh above)" >&2; \
	[ -n "$$redis" ] || echo "make test: no Redis, the cluster's tests will skip (see redis.sh above)" >&2; \
	env -u PYTHONDONTWRITEBYTECODE TILERUMMY_TEST_POSTGRES_URL="$$postgres" TILERUMMY_TEST_REDIS_URL="$$redis" \
		$(BIN)/pytest -n auto --dist loadgroup src tests docs

test: lint typecheck unit

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
