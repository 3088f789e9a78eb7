# vm-append: hornet.mode=enforce
# The programs file names every signer and loader, so only root may read
# it: mode 0400, owned by uid 0, and another user's read fails with
# EACCES (control: root reads it, and the world-readable counters file
# reads as uid 1000). A signer cannot forge a line of it: a key that the
# CA vouches for, whose common name holds a newline and then what reads
# as a program's line ("1 0000000000000000 forged ok user 0 -"), is put
# in the secondary keyring and signs a load that verifies; the file then
# shows that load's line with the newline written as \012, and no line
# that starts with the forged text.
# control-without-hornet-off: for the file's mode only: uid 1000 reads the world-readable counters file, and root reads programs; the escaping of the signer has no control
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

expect_eq "mode and owner of programs" "$(stat -c '%a %u' "$HORNET_FS/programs")" "400 0"
expect_eq "mode and owner of counters (control: world-readable)" \
	"$(stat -c '%a %u' "$HORNET_FS/counters")" "444 0"
if nocap --uid 1000 cat "$HORNET_FS/programs" >/tmp/programs.other 2>/tmp/programs.err; then
	fail "uid 1000 read the programs file: $(head -c 200 /tmp/programs.other)"
fi
expect_eq "what uid 1000 was told" "$(cat /tmp/programs.err)" \
	"cat: can't open '$HORNET_FS/programs': Permission denied"
nocap --uid 1000 cat "$HORNET_FS/counters" >/dev/null ||
	fail "control: uid 1000 cannot read the counters file"

hornet_keyctl padd asymmetric "" %:.secondary_trusted_keys <"$HDATA/forged.der" >/dev/null ||
	fail "the CA-issued forged-name certificate did not go into the secondary keyring"
expect_load_ok --sig "$HDATA/forged.p7s" --keyring 1 --prog-name h_forged_cn
expect_load_audit h_forged_cn verdict=ok keyring=secondary mode=enforce res=1 errno=0
expect_signer forged

tag=$(out_field tag)
skid=$(cat "$HDATA/forged.skid")
# Read while the program lives: hornet_load has closed it, so load it
# again and keep it open while the file is read.
hornet_load load --sig "$HDATA/forged.p7s" --keyring 1 --prog-name h_forged_cn2 --hold \
	>/tmp/forged.out 2>&1 &
holder=$!
# Stops the holder if the case fails before the kill below; once that
# kill ran, the shell may have reaped it, and this step must not fail.
on_exit "kill $holder 2>/dev/null || :"
i=0
until grep -q " h_forged_cn2 " "$HORNET_FS/programs"; do
	i=$((i + 1))
	[ "$i" -le 200 ] || { cat /tmp/forged.out; fail "the held program never showed in programs"; }
	sleep 0.05
done
cat "$HORNET_FS/programs" >/tmp/programs.root
sed 's/^/  | /' /tmp/programs.root
line=$(grep " h_forged_cn2 " /tmp/programs.root)
expect_eq "the forged-name load's line" "$(echo "$line" | cut -d' ' -f2-)" \
	"$tag h_forged_cn2 ok user 0 Hornet test keys: evil\\0121 0000000000000000 forged ok user 0 -: $skid"
! grep -q '^1 0000000000000000 forged' /tmp/programs.root ||
	fail "a signer's name started a line of the programs file"
[ "$(grep -c . /tmp/programs.root)" = "$(($(grep -c '^[0-9]' /tmp/programs.root) + 1))" ] ||
	fail "a line of programs is neither the header nor a program"
kill "$holder"
