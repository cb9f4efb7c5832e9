# layout-opt: the two entry points are `make demo` and `make test`.
# Both run scripts/bootstrap.sh first, which installs the system packages (a fast no-op when
# everything is present).

CARGO ?= cargo
LIT   ?= /usr/lib/llvm-22/bin/lit

.PHONY: demo test bootstrap build test-rust test-lit test-fuzz test-python

bootstrap:
	@bash scripts/bootstrap.sh

build: bootstrap
	$(CARGO) build --workspace --quiet

demo: build
	@bash scripts/demo.sh

test-rust: bootstrap
	$(CARGO) test --workspace

test-lit: build
	@bash scripts/run-lit.sh

# Fuzzing smoke run (deterministic, bounded to well under 60 s; scripts/fuzz for longer runs).
test-fuzz: build
	@bash scripts/fuzz --smoke

# The Python package (python/, docs/python.md): builds the wheel, runs its pytest suite against
# the tools `build` made.
test-python: build
	@bash scripts/python-test.sh

test: test-rust test-lit test-fuzz test-python
