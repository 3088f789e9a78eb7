# vm-kernel: 7.3
# vm-append: hornet.mode=off
# Proves: the second kernel, Linux 7.3 with Hornet (make kernel-7.3), boots
# with the project's initramfs and runs a command: it is 7.3, the BPF LSM
# and Hornet run (here in mode off, as hornet.mode= asks), the guest's
# mounts are there, and its builtin
# trusted keyring holds the 6.12 kernel's test keys (the CA, the build
# keys and the revoked key), so that what the build key signs can verify.
set -eu
fail() { echo "FAIL: $*" >&2; exit 1; }

release=$(uname -r)
echo "uname -r: $release"
case "$release" in
7.3.*) ;;
*) fail "booted $release, not 7.3" ;;
esac

lsms=$(cat /sys/kernel/security/lsm)
echo "LSMs: $lsms"
case ",$lsms," in *,bpf,*) ;; *) fail "the BPF LSM is not running" ;; esac
case ",$lsms," in *,hornet,*) ;; *) fail "Hornet is not running" ;; esac
[ "$(cat /sys/kernel/security/hornet/mode)" = off ] ||
	fail "Hornet's mode is $(cat /sys/kernel/security/hornet/mode), not off"

for m in /sys/fs/bpf /sys/kernel/security /sys/kernel/debug /sys/kernel/tracing; do
	grep -q " $m " /proc/mounts || fail "$m is not mounted"
done

# The keys, by subject, as on the 6.12 kernel: the CA, the two build keys
# and the revoked key in the builtin keyring (4 keys), and the revoked key
# again in the blacklist (1). /proc/keys cuts the type to "asymmetri".
keys=$(sed -n 's/.* asymmetri[a-z]* *\(Hornet [^:]*\): .*/\1/p' /proc/keys | sort)
printf 'asymmetric keys:\n%s\n' "$keys" | sed 's/^/  /'
want=$(printf '%s\n' "Hornet build key" "Hornet build key (ECDSA)" "Hornet revoked key" \
	"Hornet revoked key" "Hornet test CA" | sort)
[ "$keys" = "$want" ] || fail "the keys are not the test keys"
grep -q ' keyring *\.builtin_trusted_keys: 4$' /proc/keys ||
	fail "the builtin keyring does not hold 4 keys: $(grep builtin_trusted /proc/keys)"
grep -q ' keyring *\.blacklist: 1$' /proc/keys ||
	fail "the blacklist does not hold 1 key: $(grep blacklist /proc/keys)"
echo "ok: Linux $release booted and ran a command"
