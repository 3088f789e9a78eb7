# vm-append: hornet.mode=enforce
# Only SHA-256, SHA-384 and SHA-512 are accepted, from every signer. A
# signature by a trusted key over the right payload, with SHA-224 or SHA-1,
# is refused with ENOPKG (verdict unsupported), and so is a message whose
# second signer used SHA-1. On 7.3 the core verifies all of these, and
# Hornet refuses them.
# Control: in audit mode, where Hornet refuses nothing, the same three
# loads load and run on both kernels, each recorded unsupported with the
# errno enforce mode gave (res=1, errno=-ENOPKG): the refusal is Hornet's.
. "$(dirname "$0")/hornet_lib.sh"
hornet_begin

for md in sha224 sha1; do
	expect_load_refused $ENOPKG --sig "$HDATA/build-$md.p7s" --prog-name "h_md_$md"
	expect_load_audit "h_md_$md" verdict=unsupported mode=enforce res=0 errno=-$ENOPKG
done

# Every signer counts. The build key's SHA-256 signature comes first, then
# a SHA-1 one by the team key (trusted through the CA) over the same
# payload: a check of the first signer alone would load it. The control,
# the same SHA-256 signature alone, loads.
expect_load_ok --sig "$HDATA/build.p7s" --prog-name h_md_first
expect_load_audit h_md_first verdict=ok mode=enforce res=1 errno=0
expect_load_refused $ENOPKG --sig "$HDATA/build+team-sha1.p7s" --prog-name h_md_mixed
expect_load_audit h_md_mixed verdict=unsupported mode=enforce res=0 errno=-$ENOPKG

set_mode audit
for sig in sha224:build-sha224 sha1:build-sha1 mixed:build+team-sha1; do
	expect_load_ok --sig "$HDATA/${sig#*:}.p7s" --prog-name "h_amd_${sig%%:*}"
	expect_load_audit "h_amd_${sig%%:*}" verdict=unsupported mode=audit res=1 errno=-$ENOPKG
done
