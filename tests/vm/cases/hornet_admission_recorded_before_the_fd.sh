# vm-append: hornet.mode=enforce
# Hornet records a load as admitted when it lets it through, before the
# BPF core gives the program an fd (docs/Hornet.rst, "What Hornet does not
# cover"): a signed load from a process that has no fd left (RLIMIT_NOFILE
# 4: the blob map takes the last one) verifies, is recorded ok with res=1,
# and then fails in the BPF core with EMFILE. The programs file, which
# lists a program from its first fd on, drops it once it is freed.
# Control: the same load with one fd more loads and runs, with the same
# record.
# control-without-hornet-off: a claim about the record: the same load with one fd more loads and runs with the same record, so the record is the admission, not the fd
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_errno -24 sh -c 'ulimit -n 4; exec hornet_load load --sig "$1" --prog-name h_nofd' sh \
	"$HDATA/build.p7s"
expect_load_audit h_nofd verdict=ok mode=enforce res=1 errno=0
wait_programs_gone h_nofd

expect_errno 0 sh -c 'ulimit -n 5; exec hornet_load load --sig "$1" --prog-name h_onefd' sh \
	"$HDATA/build.p7s"
[ "$(out_field run)" = ok ] || fail "the control loaded but did not run"
expect_load_audit h_onefd verdict=ok mode=enforce res=1 errno=0
