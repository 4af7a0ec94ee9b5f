# The protection bench (bench/protection/README.md): TR-96-20's services
# under each protection scheme.  Included by the top-level Makefile; the C
# driver is part of `make build` (target c), the Rust service only of
# `make bench-protection` and of the tests where cargo is.

PROT_SRC    := bench/protection
PROT_OUT    := $(BUILD)/bench/protection
PROTBENCH   := $(PROT_OUT)/protbench
PROT_RUST   := $(PROT_OUT)/libprotection_rs.so
PROT_RESULT := $(PROT_OUT)/results.tsv
# the driver's options for `make bench-protection` (protbench.c lists them)
PROTECTION_ARGS ?= --reps 5
# A service imports nothing: no libc, and none of the calls the compiler
# makes up for loops (memset, memcpy) or for stack protection.  The
# recipe fails if services.o is left with an undefined symbol.
PROT_FREESTANDING := -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns -fno-stack-protector

$(PROT_OUT)/services.o: $(PROT_SRC)/services.c $(PROT_SRC)/services.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(PROT_FREESTANDING) -c -o $@ $<
	@if nm -u $@ | grep .; then echo "$@ imports the symbols above"; rm -f $@; exit 1; fi

$(PROTBENCH): $(PROT_SRC)/protbench.c $(PROT_SRC)/schemes.c $(PROT_SRC)/scheme_process.c $(PROT_SRC)/schemes.h $(PROT_OUT)/services.o
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter %.c,$^) $(PROT_OUT)/services.o -ldl

# built offline: the crate has no dependencies
$(PROT_RUST): $(PROT_SRC)/rust/Cargo.toml $(PROT_SRC)/rust/src/lib.rs
	@mkdir -p $(dir $@)
	cargo build --offline --release --quiet --manifest-path $< --target-dir $(abspath $(PROT_OUT)/cargo)
	cp $(PROT_OUT)/cargo/release/libprotection_rs.so $@

protection-c: $(PROTBENCH) ## build the protection bench's driver and its C schemes
protection-rust: $(PROT_RUST) ## build the Rust service of the protection bench (needs cargo)

bench-protection: $(PROTBENCH) ## the protection schemes on TR-96-20's benchmarks: build/bench/protection/results.tsv (PROTECTION_ARGS=...)
	@$(MAKE) --no-print-directory deps APT_NEEDS=wamerican
	@if command -v cargo >/dev/null; then $(MAKE) --no-print-directory $(PROT_RUST); \
	else echo "no cargo here: the rust scheme is skipped"; fi
	$(PROTBENCH) run $(PROTECTION_ARGS) > $(PROT_RESULT).part && mv $(PROT_RESULT).part $(PROT_RESULT)
	python3 $(PROT_SRC)/summarize.py $(PROT_RESULT)

.PHONY: protection-c protection-rust bench-protection
