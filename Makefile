# WIMS: two commands on a fresh machine — `make run` and `make test`. See README.md.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: run test lint check soak bench-filters bench-sources bench-mcrdr bench-kb bench-webmon bench-hosts bench-workspace bench-feeds bench-distribution clean

$(STAMP): pyproject.toml setup.py filters/compiled_sources.py filters/_html5_walk.pyx filters/_html5_text.pxi filters/_compiled_loops.pyx filters/_compiled_tokens.pyx
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	@touch $@

## run: set up (venv, migrations, demo account and sites) and start web app, worker + beat and demo sites
run: $(STAMP)
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py bootstrap --demo
	DEBUG=1 exec $(BIN)/python manage.py runall --demo

## test: the whole suite (SQLite + embedded broker unless DATABASE_URL / CELERY_BROKER_URL say otherwise), on
## TEST_WORKERS pytest-xdist workers (default 2: many tests wait on Celery workers, servers and Chromium, so two
## overlap well even on 2 cores); each has its own test database, broker folder and, on Redis, database number
## (the URL's + 0, + 1, ...: tests/settings.py). TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= 2
test: $(STAMP)
	$(BIN)/pytest -n $(TEST_WORKERS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench-filters: $(BENCH_STAMP)
	$(BIN)/python tests/bench/bench_filters.py

## bench-sources: page kind (article or not) on wcxb-dev-kinds and crawl-to-the-future, and the link level on real
## pages (crawl-to-the-future, newspaper4k's home pages in var/home-pages when there) -> docs/benchmarks/sources.md
bench-sources: $(BENCH_STAMP)
	$(BIN)/python tests/bench/bench_sources.py
	$(BIN)/python tests/bench/bench_links.py

bench-mcrdr: $(BENCH_STAMP)
	$(BIN)/python tests/bench/bench_mcrdr.py

## bench-kb: validation and commit speed with 100,000 stored cases on PostgreSQL -> docs/benchmarks/mcrdr-storage.md
bench-kb: $(BENCH_STAMP)
	$(BIN)/python tests/bench/bench_kb.py

## bench-webmon: 1,000 local sites on PostgreSQL + Redis, the worker layout of docs/operations.md (1 and 2 network workers,
## a prefork worker to process) -> docs/benchmarks/webmon.md
bench-webmon: $(STAMP)
	$(BIN)/python tests/bench/bench_webmon.py --split --workers 1,2

## bench-hosts: two worker sets (two machines' worth: own node names and var/) against one set, one PostgreSQL and
## one Redis, bench-webmon's 1,000 local sites: fetched once, politeness across sets, costs -> docs/benchmarks/hosts.md
bench-hosts: $(STAMP)
	$(BIN)/python tests/bench/bench_hosts.py

## bench-feeds: feed speed on PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/wims) -> docs/benchmarks/feeds.md
bench-feeds: $(BENCH_STAMP)
	$(BIN)/python tests/bench/bench_feeds.py

## bench-workspace: inbox and article page speed with 100,000 articles and 10,000 rules (PostgreSQL)
bench-workspace: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/wims} $(BIN)/python tests/bench/bench_workspace.py

## bench-distribution: search, REST API and digest speed on PostgreSQL with 100,000 articles -> docs/benchmarks/distribution.md
bench-distribution: $(STAMP)
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/wims} $(BIN)/python tests/bench/bench_distribution.py

clean:
	rm -rf var/broker var/test-* var/static

## soak: the live stack (runall --demo) with hostile sites and injected faults for SOAK_MINUTES (default 10);
## PostgreSQL/Redis when DATABASE_URL / CELERY_BROKER_URL say so -> SOAK_REPORT (Markdown) when given
SOAK_MINUTES ?= 10
soak: $(STAMP)
	$(BIN)/python -m tests.soak.run --minutes $(SOAK_MINUTES) $(if $(SOAK_REPORT),--report $(SOAK_REPORT))
