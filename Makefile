# One-command entry points; each sets up .venv first (idempotent).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip

.PHONY: setup chat test bench lint clean

$(VENV)/.ready: pyproject.toml
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	# CPU torch first: a plain 'torch' requirement would pull a ~3 GB CUDA build.
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -e '.[test]' --config-settings editable_mode=strict
	touch $@

setup: $(VENV)/.ready

chat: setup
	$(VENV)/bin/penchant chat

test: setup
	$(VENV)/bin/pytest

bench: setup
	$(PY) bench/run.py --quick

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) build *.egg-info
