# Builds Betacut the way engine-testing frameworks (OpenBench and others) expect:
#   make EXE=<path>     release build, copied to <path>
#   make                the same, to ./betacut
# Extra rustc flags go in RUSTFLAGS as usual (e.g. RUSTFLAGS="-C target-cpu=native").
EXE ?= betacut
CARGO ?= cargo

.PHONY: all clean

all:
	$(CARGO) build --release
	@if [ -f target/release/betacut.exe ]; then \
		cp target/release/betacut.exe "$(EXE)"; \
	else \
		cp target/release/betacut "$(EXE)"; \
	fi

clean:
	$(CARGO) clean
