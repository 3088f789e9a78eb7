# swtpm.bash: the private software TPM a QEMU guest gets as its TPM 2.0,
# for tests/vm/run and tests/realhost/run. Source it from bash.

# swtpm_start STATE RUN
#
# Starts swtpm in the background with its state in STATE (made if
# missing) and its control socket and log in RUN. Sets swtpm_pid to the
# process and swtpm_qemu_args to the QEMU arguments of a tpm-tis device
# on that socket. swtpm exits by itself when QEMU closes the socket
# (--terminate); the caller still kills swtpm_pid on its way out, for a
# QEMU that never started. Returns 1 when the socket did not appear
# within 5 seconds.
swtpm_start() {
	local state=$1 run=$2
	mkdir -p "$state"
	swtpm socket --tpm2 --tpmstate dir="$state" \
		--ctrl type=unixio,path="$run/swtpm.sock" \
		--log file="$run/swtpm.log" --terminate &
	swtpm_pid=$!
	for _ in $(seq 50); do
		[ -S "$run/swtpm.sock" ] && break
		sleep 0.1
	done
	[ -S "$run/swtpm.sock" ] || return 1
	swtpm_qemu_args=(-chardev "socket,id=chrtpm,path=$run/swtpm.sock"
			 -tpmdev emulator,id=tpm0,chardev=chrtpm
			 -device tpm-tis,tpmdev=tpm0)
}
