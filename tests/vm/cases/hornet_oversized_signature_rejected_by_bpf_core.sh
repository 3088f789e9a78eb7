# vm-append: hornet.mode=enforce
# A signature_size above 64 KiB is refused with E2BIG by the BPF core before
# any LSM sees the load: in every mode, with no Hornet decision record and
# no change to any of Hornet's counters (the whole counters file reads the
# same before and after). Control: the same load with the signature's own
# size reaches Hornet, which records it and counts it.
# control-without-hornet-off: the refusal is the BPF core's, before any LSM, in every mode (the case runs all three); its control is the same load with the signature's own size, which reaches Hornet and is counted
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

seen=$(counter seen)
expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_2big_control
expect_load_audit h_2big_control verdict=ok mode=enforce res=1 errno=0
[ "$(counter seen)" -gt "$seen" ] || fail "the control's load was not counted in seen"

for mode in enforce audit off; do
	[ "$(hornet_mode)" = "$mode" ] || set_mode "$mode"
	for size in 65537 4294967295; do
		name=h_2big_$(echo "$mode" | cut -c1)$size
		name=$(echo "$name" | cut -c1-15)
		before=$(cat "$HORNET_FS/counters")
		[ -n "$before" ] || fail "the counters file is empty"
		expect_load_refused $E2BIG --sig "$HDATA/build.p7s" --sig-size "$size" \
			--prog-name "$name"
		expect_no_audit prog_name="$name"
		expect_eq "counters after an oversized signature in $mode mode" \
			"$(cat "$HORNET_FS/counters")" "$before"
	done
done
