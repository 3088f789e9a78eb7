# vm-append: hornet.mode=enforce
# The counters move by exactly one decision per load: a verified load counts
# as seen and verified, a refusal as seen and refused, an unverified load
# allowed by audit mode as seen and audited. Off mode checks nothing and
# counts nothing.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

snapshot() {
	c_seen=$(counter seen)
	c_verified=$(counter verified)
	c_refused=$(counter refused)
	c_audited=$(counter audited)
}

# expect_moved SEEN VERIFIED REFUSED AUDITED: how much each moved.
expect_moved() {
	expect_eq "seen moved by" $(($(counter seen) - c_seen)) "$1"
	expect_eq "verified moved by" $(($(counter verified) - c_verified)) "$2"
	expect_eq "refused moved by" $(($(counter refused) - c_refused)) "$3"
	expect_eq "audited moved by" $(($(counter audited) - c_audited)) "$4"
}

snapshot
expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_cnt_enf_ok
expect_load_audit h_cnt_enf_ok verdict=ok mode=enforce res=1 errno=0
expect_moved 1 1 0 0

snapshot
expect_load_refused $EPERM --unsigned --prog-name h_cnt_enf_uns
expect_load_audit h_cnt_enf_uns verdict=unsigned mode=enforce res=0 errno=-$EPERM
expect_moved 1 0 1 0

snapshot
expect_load_refused $EKEYREJECTED --sig "$HDATA/build.p7s" --flip-blob 0 --prog-name h_cnt_enf_bad
expect_load_audit h_cnt_enf_bad verdict=badsig mode=enforce res=0 errno=-$EKEYREJECTED
expect_moved 1 0 1 0

set_mode audit
snapshot
expect_load_ok --unsigned --prog-name h_cnt_aud_uns
expect_load_audit h_cnt_aud_uns verdict=unsigned mode=audit res=1 errno=-$EPERM
expect_moved 1 0 0 1

snapshot
expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_cnt_aud_ok
expect_load_audit h_cnt_aud_ok verdict=ok mode=audit res=1 errno=0
expect_moved 1 1 0 0

set_mode off
snapshot
expect_load_ok --unsigned --prog-name h_cnt_off_uns
expect_no_audit prog_name=h_cnt_off_uns
expect_moved 0 0 0 0
