# The independent oracle of lskel-sign --verify: compile a light skeleton
# into a program, run it under bpf_trace, and judge the bpf() calls it
# made (check_trace.py). Sourced after tests/host/lib.sh.
# shellcheck shell=bash
ORACLE=$ROOT/tests/oracle
ORACLE_BUILD=$ROOT/build/oracle
BPF_TRACE=$ORACLE_BUILD/bpf_trace
UAPI=$ROOT/build/kbuild/usr/include
LIBBPF=$ROOT/build/libbpf

command -v clang-19 >/dev/null || fail "clang-19 is not installed"
[ -s "$UAPI/linux/bpf.h" ] && [ -s "$LIBBPF/include/bpf/skel_internal.h" ] && [ -s "$LIBBPF/libbpf.a" ] ||
	fail "no UAPI or libbpf under build/: run 'make kernel' first"
make -s -C "$ORACLE" O="$ORACLE_BUILD" >&2 || fail "cannot build bpf_trace"

# The compilers and optimisation levels every header is built with, each
# in its default C dialect.
ORACLE_BUILDS=("gcc -O0" "gcc -O2" "clang-19 -O0" "clang-19 -O2")

# oracle_driver HEADER NAME CC OPT EXE: a program that does what a user of
# the skeleton does (NAME__open_and_load(), then NAME__destroy()), built
# against libbpf's own skel_internal.h, and linked with libbpf so that a
# header may call into it.
oracle_driver() {
	local h=$1 name=$2 cc=$3 opt=$4 exe=$5
	cat >"$exe.c" <<EOC
#include <errno.h>
#include <stddef.h>
#include "$(basename "$h")"

int main(void)
{
	struct $name *skel = ${name}__open_and_load();

	${name}__destroy(skel);
	return 0;
}
EOC
	"$cc" "$opt" -w -I"$(dirname "$h")" -I"$UAPI" -isystem "$LIBBPF/include" "$exe.c" \
		-o "$exe" -Wl,--as-needed "$LIBBPF/libbpf.a" -lelf -lz 2>"$exe.cc-err"
}

# oracle_trace EXE TRACE: runs EXE under bpf_trace, stdin /dev/null. With
# ORACLE_TMP_FILE=SRC:NAME, EXE runs in a mount namespace whose /tmp is a
# tmpfs of its own holding a copy of SRC as /tmp/NAME (for a header that
# opens a fixed path there); EXE and TRACE must then be in one folder.
oracle_trace() {
	local exe=$1 trace=$2
	if [ -z "${ORACLE_TMP_FILE:-}" ]; then
		"$BPF_TRACE" -t 20 -o "$trace" -- "$exe" </dev/null >/dev/null 2>&1 ||
			echo "timeout" >>"$trace"
		return 0
	fi
	cp "${ORACLE_TMP_FILE%%:*}" "$exe.tmpfile"
	(cd "$(dirname "$exe")" && unshare -m --propagation private sh -c \
		'mount -t tmpfs oracle /tmp && cp "./$4.tmpfile" "/tmp/$1" &&
		exec "$2" -t 20 -o "./$3" -- "./$4"' \
		sh "${ORACLE_TMP_FILE#*:}" "$BPF_TRACE" "$(basename "$trace")" "$(basename "$exe")" \
		</dev/null >/dev/null 2>&1) || echo "timeout" >>"$trace"
}

# oracle_holds HEADER NAME PAYLOAD INSNS_LEN SIG: under each of
# ORACLE_BUILDS, the program built from HEADER loads PAYLOAD (INSNS_LEN
# bytes of instructions, then data) with SIG, and nothing else. Prints one
# line per build and what differed; returns 1 if any build differs or does
# not compile, and sets ORACLE_HELD to the number of builds that held.
# Builds run two at a time.
oracle_holds() {
	local h=$1 name=$2 payload=$3 n=$4 sig=$5 b i=0 rc=0 dir
	dir=$(mktemp -d "$tmp/oracle.XXXXXX")
	for b in "${ORACLE_BUILDS[@]}"; do
		(
			set -- $b
			exe=$dir/drv$i
			if ! oracle_driver "$h" "$name" "$1" "$2" "$exe"; then
				echo "$b: does not compile: $(head -n 3 "$exe.cc-err" | tr '\n' ' ')" >"$dir/verdict$i"
				exit 0
			fi
			oracle_trace "$exe" "$dir/trace$i"
			python3 "$ORACLE/check_trace.py" check "$dir/trace$i" "$payload" "$n" "$sig" \
				>"$dir/why$i" 2>&1 || true
			echo "$b: $(paste -sd ';' "$dir/why$i")" >"$dir/verdict$i"
		) &
		i=$((i + 1))
		[ $((i % 2)) = 0 ] && wait
	done
	wait
	ORACLE_HELD=0
	for ((i = 0; i < ${#ORACLE_BUILDS[@]}; i++)); do
		cat "$dir/verdict$i"
		if grep -q ': ok$' "$dir/verdict$i"; then
			ORACLE_HELD=$((ORACLE_HELD + 1))
		else
			rc=1
		fi
	done
	ORACLE_LAST=$dir
	return $rc
}
