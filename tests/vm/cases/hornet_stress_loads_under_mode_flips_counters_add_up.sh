# vm-append: hornet.mode=enforce
# vm-opts: --timeout 900
# Four processes load at once for a while: a signed loader, an unsigned
# one, a tampered one (hornet_load) and the signed light skeleton, whose
# loader runs and loads a child; each program is freed as soon as its
# process is done with it. Meanwhile the mode flips between audit and
# enforce. Each process loads at least ROUNDS times and goes on until the
# mode has flipped MIN_FLIPS times, so that a fast machine cannot finish
# the loads between two flips. Afterwards:
#  - every signed load and every skeleton worked, in either mode;
#  - no unsigned or tampered load worked in enforce, each failed with its
#    own errno, and each worked in audit; "in enforce" is judged twice:
#    by Hornet's records (mode=enforce res=1), and apart from Hornet, by
#    the clocks: no such load that worked began and ended inside a spell
#    that the flipper's own write timestamps put in enforce (and some
#    refused ones did, so the spells are real);
#  - the counters moved by exactly the decisions made: seen by every load
#    plus one child per skeleton, verified by the signed loads and the
#    skeleton loaders, refused and audited by the unsigned and tampered
#    loads that were refused or let through;
#  - the programs file lists exactly the live programs, once the freed
#    ones are gone.
# Control: the audit spells of the same run, in which unsigned and
# tampered loads go through (at least one must, or the case fails), so the
# refusals in the enforce spells are Hornet's.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

ROUNDS=20
MIN_FLIPS=20
c_seen=$(counter seen) c_verified=$(counter verified)
c_refused=$(counter refused) c_audited=$(counter audited)

rm -f /tmp/stress.*
# more N: whether a loop that has loaded N times goes on: until ROUNDS,
# and then until the flipper has flipped MIN_FLIPS times
# (/tmp/stress.flipped).
more() {
	[ "$1" -lt "$ROUNDS" ] || [ ! -e /tmp/stress.flipped ]
}

# loop NAME KEY CMD...: run CMD while more says so, keeping its KEY= line
# in /tmp/stress.NAME; /tmp/stress.NAME.done says it is over (a finished
# background job is still a process to kill -0 until the shell reaps it)
# and holds how many loads it tried.
loop() {
	_n=$1 _key=$2
	shift 2
	_i=0
	while more "$_i"; do
		"$@" | grep -E "^$_key="
		_i=$((_i + 1))
	done >"/tmp/stress.$_n"
	echo "$_i" >"/tmp/stress.$_n.done"
}
loop signed errno hornet_load load --sig "$HDATA/build.p7s" --prog-name h_st_signed &
p1=$!
loop unsigned '(errno|load_ns)' hornet_load load --unsigned --prog-name h_st_unsigned &
p2=$!
loop tampered '(errno|load_ns)' hornet_load load --sig "$HDATA/build.p7s" --flip-blob 3 --prog-name h_st_tampered &
p3=$!
loop skel load lskel_probe-build &
p4=$!
flips=0
# Each write's mode and its CLOCK_MONOTONIC span, "MODE START END".
flip() {
	hornet_write "$HORNET_FS/mode" "$1" >/tmp/stress.w || fail "writing the mode $1"
	grep -qx errno=0 /tmp/stress.w || fail "writing the mode $1: $(cat /tmp/stress.w)"
	echo "$1 $(sed -n 's/^write_ns=\([0-9]*\)-\([0-9]*\)$/\1 \2/p' /tmp/stress.w)" >>/tmp/stress.flips
}
while [ "$(ls /tmp/stress.*.done 2>/dev/null | wc -l)" -lt 4 ]; do
	flip audit
	sleep 0.01
	flip enforce
	# Enforce spells long enough for whole loads to fall inside some.
	sleep 0.03
	flips=$((flips + 1))
	[ "$flips" = "$MIN_FLIPS" ] && : >/tmp/stress.flipped
done
# Not a bare wait: the audit listener runs in the background too.
wait "$p1" "$p2" "$p3" "$p4"
say "mode flipped $flips times"
[ "$flips" -ge "$MIN_FLIPS" ] || fail "the loads ended before the mode had flipped $MIN_FLIPS times"

count() { grep -cx "$2" "/tmp/stress.$1" || true; }
# How many loads each process tried: at least ROUNDS.
n_signed=$(cat /tmp/stress.signed.done) n_unsigned=$(cat /tmp/stress.unsigned.done)
n_tampered=$(cat /tmp/stress.tampered.done) n_skel=$(cat /tmp/stress.skel.done)
say "loads: signed=$n_signed unsigned=$n_unsigned tampered=$n_tampered skeleton=$n_skel"
for _n in "$n_signed" "$n_unsigned" "$n_tampered" "$n_skel"; do
	[ "$_n" -ge "$ROUNDS" ] || fail "a process loaded $_n times, fewer than $ROUNDS"
done
sig_ok=$(count signed errno=0)
uns_ok=$(count unsigned errno=0) uns_no=$(count unsigned "errno=-$EPERM")
tam_ok=$(count tampered errno=0) tam_no=$(count tampered "errno=-$EKEYREJECTED")
skel_ok=$(count skel load=0)
say "signed ok=$sig_ok unsigned ok=$uns_ok refused=$uns_no tampered ok=$tam_ok refused=$tam_no skeleton ok=$skel_ok"
expect_eq "signed loads that worked" "$sig_ok" "$n_signed"
expect_eq "skeletons that loaded" "$skel_ok" "$n_skel"
expect_eq "unsigned loads accounted for" $((uns_ok + uns_no)) "$n_unsigned"
expect_eq "tampered loads accounted for" $((tam_ok + tam_no)) "$n_tampered"
[ "$((uns_no + tam_no))" -ge 1 ] || fail "no load was refused: enforce never applied"
[ "$((uns_ok + tam_ok))" -ge 1 ] || fail "no load went through in audit: audit never applied"
# Every unsigned or tampered load that worked was let through in audit.
expect_no_audit prog_name=h_st_unsigned mode=enforce res=1
expect_no_audit prog_name=h_st_tampered mode=enforce res=1
# The same by the clocks alone. Enforce spells: from boot (the case runs
# in enforce) to the start of the first write of audit, and from the end
# of each write of enforce to the start of the next write of audit. A
# load inside one began after the mode was enforce and ended before
# anyone began to change it.
in_enforce=$(cat /tmp/stress.flips /tmp/stress.unsigned /tmp/stress.tampered | awk '
	BEGIN { n = 0; open = 1; from = 0 }
	$1 == "audit" && NF == 3 { if (open) { s[n] = from; e[n] = $2; n++ } open = 0; next }
	$1 == "enforce" && NF == 3 { open = 1; from = $3; next }
	/^errno=/ { err = $0; next }
	/^load_ns=/ {
		split(substr($0, 9), t, "-")
		loads++; le[loads] = err; ls[loads] = t[1]; lt[loads] = t[2]
	}
	END {
		for (i = 1; i <= loads; i++)
			for (j = 0; j < n; j++)
				if (ls[i] >= s[j] && lt[i] <= e[j]) {
					if (le[i] == "errno=0") worked++; else refused++
					break
				}
		printf "%d %d\n", worked, refused
	}')
say "unsigned or tampered loads inside an enforce spell by the clocks: worked=${in_enforce% *} refused=${in_enforce#* }"
expect_eq "unsigned or tampered loads that worked inside an enforce spell" "${in_enforce% *}" 0
[ "${in_enforce#* }" -ge 1 ] || fail "no refused load lay inside an enforce spell: the clocks prove nothing"

# Each skeleton is two decisions: its loader and its one child.
expect_eq "seen moved by" $(($(counter seen) - c_seen)) \
	$((n_signed + n_unsigned + n_tampered + 2 * n_skel))
expect_eq "verified moved by" $(($(counter verified) - c_verified)) $((sig_ok + skel_ok))
expect_eq "refused moved by" $(($(counter refused) - c_refused)) $((uns_no + tam_no))
expect_eq "audited moved by" $(($(counter audited) - c_audited)) $((uns_ok + tam_ok))

# Programs are freed after an RCU grace period: wait for the list to settle.
i=0
while :; do
	live=$(hornet_load ids | sort -n | tr '\n' ' ')
	listed=$(sed 1d "$HORNET_FS/programs" | cut -d' ' -f1 | sort -n | tr '\n' ' ')
	[ "$live" = "$listed" ] && break
	i=$((i + 1))
	[ "$i" -le "$HORNET_WAIT_STEPS" ] || fail "programs lists '$listed', the live programs are '$live'"
	sleep 0.05
done
