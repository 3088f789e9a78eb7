# vm-append: hornet.mode=enforce
# A signature_size above 64 KiB is refused with E2BIG by the BPF core before
# any LSM sees the load: in every mode, with no Hornet decision record and
# no change to Hornet's counters.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

for mode in enforce audit off; do
	[ "$(hornet_mode)" = "$mode" ] || set_mode "$mode"
	for size in 65537 4294967295; do
		name=h_2big_$(echo "$mode" | cut -c1)$size
		name=$(echo "$name" | cut -c1-15)
		seen=$(counter seen)
		expect_load_refused $E2BIG --sig "$HDATA/build.p7s" --sig-size "$size" \
			--prog-name "$name"
		expect_no_audit prog_name="$name"
		expect_eq "seen after an oversized signature in $mode mode" "$(counter seen)" "$seen"
	done
done
