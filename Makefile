# Fork bomb killer for Linux 6.12: build, boot and test harness.
# `make help` lists the targets.

BUILD ?= $(CURDIR)/build
export BUILD
export KERNEL_SRC

S := scripts

.PHONY: help deps source apply kernel stock-kernel nofbk-kernel debug-kernel bench-kernel lockstat-kernel \
	initramfs system-image check check-quick check-kunit check-debug check-configs \
	check-system check-kernel-selftests check-mutants series demo demo-system bench clean distclean

help:
	@echo 'Fork bomb killer for Linux 6.12 -- targets:'
	@echo '  make demo          the main job: stock vs patched kernel on real fork bombs,'
	@echo '                     side by side, with a table and a picture ($$(BUILD)/demo/)'
	@echo '  make check         build, boot, run every KUnit and kselftest test on the test'
	@echo '                     kernel, then on the debug kernel (check-debug); prints'
	@echo '                     "N passed, N failed, N skipped" and fails if anything failed;'
	@echo '                     bounded to CHECK_MINUTES (60), builds included'
	@echo '  make check-quick   only the first half of check: the suite on the test kernel'
	@echo '  make check-kunit   only the KUnit boot'
	@echo '  make check-debug   the suite on a KASAN/lockdep/kmemleak kernel booted with'
	@echo '                     panic_on_warn, failing on any report in the kernel log'
	@echo '  make check-configs the feature builds warning-free at W=1 in odd configs'
	@echo '  make check-kernel-selftests  the kernel'"'"'s own cgroup and clone3 selftests'
	@echo '                     on the stock and the patched kernel, test by test; writes'
	@echo '                     the stock results make check compares with (scripts/golden/)'
	@echo '  make check-mutants deliberate breakages of the series, each of which the'
	@echo '                     suite must catch: a table of which tests caught them'
	@echo '  make check-system  the patched kernel in a Debian 12 guest with systemd:'
	@echo '                     bombs in a login session, as root, in a service, in a'
	@echo '                     container; busy programs beside a memory hog'
	@echo '  make demo-system   those bombs on the stock and the patched kernel, side by'
	@echo '                     side, in the Debian guest ($$(BUILD)/demo-system/)'
	@echo '  make series        the patch series with a cover letter in $$(BUILD)/series/,'
	@echo '                     checkpatch --strict clean, git am tested on a fresh tree'
	@echo '  make bench         fork overhead, recovery times, scorer cost, a bomb of'
	@echo '                     100,000 processes in a 14 GiB guest, lock contention,'
	@echo '                     the cost of a small cgroup'"'"'s OOM beside 50,000 processes,'
	@echo '                     of an unprivileged fork loop at its RLIMIT_NPROC, and of'
	@echo '                     the history on a host whose kswapd never sleeps'
	@echo '                     ($$(BUILD)/bench/; PARTS= picks parts, see bench.sh)'
	@echo '  make kernel        the patched test kernel at $$(BUILD)/bzImage'
	@echo '  make stock-kernel  the same config without the series at $$(BUILD)/bzImage-stock'
	@echo '  make bench-kernel  the test kernel plus the irqsoff tracer ($$(BUILD)/bzImage-bench)'
	@echo '  make lockstat-kernel  the test kernel plus CONFIG_LOCK_STAT ($$(BUILD)/bzImage-lockstat)'
	@echo '  make initramfs     the test guest userland at $$(BUILD)/initramfs.cpio.gz'
	@echo '  make system-image  the Debian 12 guest image (mmdebstrap) at $$(BUILD)/system/'
	@echo '  make apply         lay the series into the kernel tree $$(BUILD)/linux'
	@echo '  make deps          install the Debian packages all of this needs'
	@echo '  make clean         remove build products, keep the extracted kernel tree'
	@echo '  make distclean     remove $$(BUILD) entirely'
	@echo 'Variables: BUILD=dir (default ./build), KERNEL_SRC=/path/to/linux-6.12 (instead'
	@echo 'of Debian'"'"'s linux-source-6.12), JOBS=n (default: all CPUs).'

deps:
	$(S)/deps.sh

source: deps
	$(S)/get-source.sh

apply: source
	$(S)/apply.sh

kernel: apply
	$(S)/build-kernel.sh patched

stock-kernel: source
	$(S)/stock-tree.sh
	$(S)/build-kernel.sh stock

nofbk-kernel: apply
	$(S)/build-kernel.sh nofbk

debug-kernel: apply
	$(S)/build-kernel.sh debug

bench-kernel: apply
	$(S)/build-kernel.sh bench

lockstat-kernel: apply
	$(S)/build-kernel.sh lockstat

initramfs: apply
	$(S)/build-initramfs.sh

# make check's time (CHECK_MINUTES, scripts/check.sh) counts from here,
# before its builds: the start of make, taken when this file is read.
check: export FBK_CHECK_START := $(shell date +%s)
check: kernel initramfs
	$(S)/check.sh

check-quick: kernel initramfs
	$(S)/run-plan.sh

check-kunit: kernel initramfs
	$(S)/run-plan.sh -o '^kunit$$'

check-debug: debug-kernel initramfs
	$(S)/check-debug.sh

check-configs: apply
	$(S)/check-configs.sh

system-image: deps
	$(S)/system-image.sh

check-system: kernel initramfs system-image
	$(S)/check-system.sh

demo-system: kernel stock-kernel initramfs system-image
	$(S)/demo-system.sh

check-kernel-selftests: kernel stock-kernel initramfs
	$(S)/check-kernel-selftests.sh

check-mutants: deps
	$(S)/check-mutants.sh

series: apply
	$(S)/deps.sh python3-ply python3-git
	$(S)/series.sh

demo: kernel stock-kernel initramfs
	$(S)/demo.sh

bench: kernel stock-kernel nofbk-kernel bench-kernel lockstat-kernel initramfs
	$(S)/bench.sh

clean:
	rm -rf $(BUILD)/obj $(BUILD)/logs $(BUILD)/series $(BUILD)/demo $(BUILD)/bench \
		$(BUILD)/demo-system $(BUILD)/system/data* \
		$(BUILD)/initramfs $(BUILD)/kselftest $(BUILD)/stage $(BUILD)/*.cpio.gz \
		$(BUILD)/bzImage*

distclean:
	rm -rf $(BUILD)
