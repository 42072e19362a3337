PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean cluster cluster-down

$(STAMP): pyproject.toml Makefile
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,ray]'  # ray: tests/bots/test_arena_ray.py runs a local Ray
	# compile the kernel once (numba keeps it on disk): the tests and servers then load it
	$(BIN)/python -c 'from twinrack.server.jobs import warm_up; warm_up()'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/twinrack serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP) lint typecheck
	$(BIN)/pytest -n 2 --dist loadgroup

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_card.py
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_table.py --tables 20 --seconds 10 --breakdown
	$(BIN)/python benchmarks/bench_server.py --tables 200 --seconds 30

# a local cluster (PostgreSQL, Redis, three workers, nginx on 127.0.0.1:8080) in .cluster/
cluster: $(STAMP)
	deploy/cluster.sh up

cluster-down:
	deploy/cluster.sh down

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
