# The protection bench (bench/protection/README.md): TR-96-20's services
# under each protection scheme.  Included by the top-level Makefile; the C
# driver is part of `make build` (target c), the Rust service and the wasm
# one only of `make bench-protection` and of the tests where their
# toolchains are.

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

# Software fault isolation: services.c and its door sfi_entry.c to wasm32
# (clang, lld), back to C (wasm2c), compiled with wasm2c's runtime into a
# library protbench loads from beside itself.  The runtime checks every
# access's bounds instead of installing a SIGSEGV handler for guard pages,
# so the caller's handler stays in force.  A wasm32 store to NULL lands in
# the sandbox's own memory: the faulty service writes past 4 GB instead.
PROT_WASM      := $(PROT_OUT)/libprotection_wasm.so
WASM2C_RUNTIME := /usr/share/wabt/wasm2c
# (wasm-ld refuses an undefined symbol, so the module imports nothing)
WASM_CFLAGS    := --target=wasm32 -O2 -nostdlib -ffreestanding -fno-builtin -DSVC_FAULT_ADDRESS=0xfffffff0u \
                  -Wl,--no-entry -Wl,--export=sfi_call -Wl,--export=sfi_heap_base -Wl,--export=sfi_out_len_slot
WASM_RT_FLAGS  := -DWASM_RT_MEMCHECK_SIGNAL_HANDLER=0 -Wno-unused-value -Wno-unused-function

$(PROT_OUT)/services.wasm: $(PROT_SRC)/services.c $(PROT_SRC)/sfi_entry.c $(PROT_SRC)/services.h
	@mkdir -p $(dir $@)
	clang $(WASM_CFLAGS) -I$(PROT_SRC) -o $@ $(PROT_SRC)/services.c $(PROT_SRC)/sfi_entry.c

$(PROT_OUT)/services_wasm.c: $(PROT_OUT)/services.wasm
	wasm2c $< -n protection -o $@

$(PROT_WASM): $(PROT_OUT)/services_wasm.c $(PROT_SRC)/sfi_host.c $(PROT_SRC)/services.h
	$(CC) $(CFLAGS) $(WARN) $(WASM_RT_FLAGS) -fPIC -shared -I$(PROT_OUT) -I$(PROT_SRC) -I$(WASM2C_RUNTIME) -o $@ \
		$(PROT_SRC)/sfi_host.c $(PROT_OUT)/services_wasm.c $(WASM2C_RUNTIME)/wasm-rt-impl.c -lm

protection-c: $(PROTBENCH) ## build the protection bench's driver and its C schemes
protection-rust: $(PROT_RUST) ## build the Rust service of the protection bench (needs cargo)
protection-wasm: $(PROT_WASM) ## build the protection bench's software fault isolation (needs clang, lld, wabt)

bench-protection: $(PROTBENCH) ## the protection schemes on TR-96-20's benchmarks: build/bench/protection/results.tsv (PROTECTION_ARGS=...)
	@$(MAKE) --no-print-directory deps APT_NEEDS="wamerican clang lld wabt"
	@$(MAKE) --no-print-directory $(PROT_WASM)
	@if command -v cargo >/dev/null; then $(MAKE) --no-print-directory $(PROT_RUST); \
	else echo "no cargo here: the rust scheme is skipped"; fi
	$(PROTBENCH) run $(PROTECTION_ARGS) > $(PROT_RESULT).part && mv $(PROT_RESULT).part $(PROT_RESULT)
	python3 $(PROT_SRC)/summarize.py $(PROT_RESULT)

.PHONY: protection-c protection-rust protection-wasm bench-protection
