// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: what a signed load is judged on, whichever kernel checks its
 * signature.
 *
 * On 6.12 Hornet checks the PKCS#7 signature itself (verify.c); from 7.3
 * the BPF core does and Hornet reads its verdict (verify_core.c). Both
 * hold a signed load to the same rules, which live here: the payload is
 * the program's instructions followed by the value of each map of
 * fd_array, in order, and each of those maps must be a frozen
 * single-element array; a keyring vouches only as the policy allows; and
 * each verdict has one name and one errno.
 */

#include <crypto/pkcs7.h>
#include <crypto/sha2.h>
#include <keys/asymmetric-type.h>
#include <keys/system_keyring.h>
#include <linux/assoc_array.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/key.h>
#include <linux/key-type.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <linux/verification.h>

#include "hornet.h"

struct hornet_verdict_info {
	const char *name;
	int err;
};

/* The errno that enforce mode returns for each verdict. */
static const struct hornet_verdict_info hornet_verdicts[HORNET_VERDICT_MAX] = {
	[HORNET_OK]		= { "ok", 0 },
	[HORNET_UNSIGNED]	= { "unsigned", -EPERM },
	[HORNET_BADSIG]		= { "badsig", -EKEYREJECTED },
	[HORNET_UNKNOWNKEY]	= { "unknownkey", -ENOKEY },
	[HORNET_MALFORMED]	= { "malformed", -EBADMSG },
	[HORNET_UNSUPPORTED]	= { "unsupported", -ENOPKG },
	[HORNET_BADMAP]		= { "badmap", -EPERM },
	[HORNET_BADATTR]	= { "badattr", -EINVAL },
	[HORNET_FAULT]		= { "fault", -EFAULT },
	[HORNET_BADKEYRING]	= { "badkeyring", -EINVAL },
	[HORNET_KEYRING_DENIED]	= { "keyring_denied", -EKEYREJECTED },
	[HORNET_SEALED]		= { "sealed", -EPERM },
	[HORNET_HIDDEN]		= { "hidden", -EPERM },
	[HORNET_UNVERIFIED]	= { "unverified", -EPERM },
	[HORNET_BUSY]		= { "busy", -EBUSY },
	[HORNET_SPENT]		= { "spent", -EPERM },
	[HORNET_SHARED_FDS]	= { "shared_fds", -EPERM },
	[HORNET_KERNEL]		= { "kernel", 0 },
	[HORNET_ERROR]		= { "error", -EINVAL },
};

/**
 * hornet_verdict_name - the name of a verdict, as audit records show it
 * @verdict: an enum hornet_verdict
 *
 * Return: the name, or "?" for an unknown verdict.
 */
const char *hornet_verdict_name(enum hornet_verdict verdict)
{
	if (verdict >= HORNET_VERDICT_MAX)
		return "?";
	return hornet_verdicts[verdict].name;
}

/**
 * hornet_verdict_errno - the errno that enforce mode returns for a verdict
 * @verdict: an enum hornet_verdict
 *
 * Return: 0 for a verdict that allows the load, a negative errno otherwise.
 */
int hornet_verdict_errno(enum hornet_verdict verdict)
{
	if (verdict >= HORNET_VERDICT_MAX)
		return -EINVAL;
	return hornet_verdicts[verdict].err;
}

/**
 * struct hornet_blob - what Hornet needs to know of one map in the payload
 * @value: the map's single value
 * @size: its size in bytes
 * @map_type: the map's type
 * @max_entries: the map's number of entries
 * @mmapable: whether the map was made with BPF_F_MMAPABLE
 * @frozen: whether BPF_MAP_FREEZE was applied and no write that began
 *	    before it is still in flight
 */
struct hornet_blob {
	const void *value;
	u32 size;
	u32 map_type;
	u32 max_entries;
	bool mmapable;
	bool frozen;
};

/**
 * hornet_payload_build - lay out the payload of a load as pieces
 * @vec: @nr_blobs + 1 entries to fill
 * @insns: the program's instructions
 * @insn_cnt: the number of instructions
 * @blobs: the maps of fd_array, in order
 * @nr_blobs: their number
 *
 * Only a frozen array map with exactly one element can carry signed data:
 * anything else could change after the check or hold more than was signed.
 * Nor can a map that userspace may map into memory: a page of it that a
 * write pinned (process_vm_writev(), io_uring fixed buffers, O_DIRECT)
 * before munmap() stays writable after the freeze, and the map's write
 * count no longer shows it.
 *
 * Return:
 * * %0		- @vec holds the instructions, then each value
 * * %-EPERM	- a map is not a frozen single-element array, or is mmapable
 */
static int hornet_payload_build(struct kvec *vec, const struct bpf_insn *insns,
				u32 insn_cnt, const struct hornet_blob *blobs,
				u32 nr_blobs)
{
	u32 i;

	vec[0].iov_base = (void *)insns;
	vec[0].iov_len = insn_cnt * sizeof(*insns);
	for (i = 0; i < nr_blobs; i++) {
		const struct hornet_blob *b = &blobs[i];

		if (b->map_type != BPF_MAP_TYPE_ARRAY || b->max_entries != 1 ||
		    b->mmapable || !b->frozen || !b->value)
			return -EPERM;
		vec[i + 1].iov_base = (void *)b->value;
		vec[i + 1].iov_len = b->size;
	}
	return 0;
}

/**
 * hornet_describe_maps - describe the maps a program was given in fd_array
 * @prog: the program, after the verifier; its maps cannot change any more
 * @cnt: fd_array_cnt of the load
 * @blobs: filled with the description of used_maps[0..@cnt - 1]
 *
 * With fd_array_cnt the verifier binds the maps of fd_array first, in
 * order, so they are the first @cnt used maps. A map bound from anywhere
 * else (a map fd in an instruction), a BTF object or a repeated map in
 * fd_array makes the count differ, and the load is refused: every map the
 * program uses must be covered by the signature.
 *
 * Return:
 * * %0		- @blobs describes exactly the program's maps
 * * %-EPERM	- the program uses more or fewer maps than fd_array names
 */
static int hornet_describe_maps(struct bpf_prog *prog, u32 cnt,
				struct hornet_blob *blobs)
{
	struct bpf_prog_aux *aux = prog->aux;
	u32 i, zero = 0;
	int err = 0;

	mutex_lock(&aux->used_maps_mutex);
	if (aux->used_map_cnt != cnt) {
		err = -EPERM;
		goto out;
	}
	for (i = 0; i < cnt; i++) {
		struct bpf_map *map = aux->used_maps[i];

		blobs[i].map_type = map->map_type;
		blobs[i].max_entries = map->max_entries;
		blobs[i].mmapable = map->map_flags & BPF_F_MMAPABLE;
		/* A syscall write raises the write count before it looks
		 * at frozen, and copies the value from the caller after:
		 * one that slipped in just before the freeze may still be
		 * copying. The verifier's bpf_map_is_rdonly() asks the same.
		 * Any write that raises the count later sees frozen.
		 */
		blobs[i].frozen = READ_ONCE(map->frozen);
		/* frozen first, then the count: pairs with map_freeze() */
		smp_rmb();
		blobs[i].frozen &= !bpf_map_write_active(map);
		blobs[i].size = map->value_size;
		blobs[i].value = NULL;
		/* An array's value lives as long as the map, which the
		 * program holds.
		 */
		if (map->map_type == BPF_MAP_TYPE_ARRAY) {
			rcu_read_lock();
			blobs[i].value = map->ops->map_lookup_elem(map, &zero);
			rcu_read_unlock();
		}
	}
out:
	mutex_unlock(&aux->used_maps_mutex);
	return err;
}

/*
 * The tag the keys code sets on a keyring's pointer to a keyring it holds
 * (security/keys/keyring.c); a pointer to any other key is untagged.
 */
#define HORNET_KEYRING_PTR_SUBTYPE	0x2UL

/**
 * struct hornet_vouching - a keyring named by serial, as it is being judged
 * @keyring: the keyring
 * @check: the restriction every key linked into it since was checked by
 */
struct hornet_vouching {
	struct key *keyring;
	key_restrict_link_func_t check;
};

/**
 * hornet_key_vouched - check one key of a keyring named by serial again
 * @object: the keyring's pointer to the key
 * @data: the struct hornet_vouching
 *
 * A restriction set on a keyring that already held keys says nothing of
 * those keys, so each is put through the restriction again.
 *
 * Return: 0 if the restriction accepts the key, -EKEYREJECTED otherwise,
 * and for a nested keyring, whose keys would be searched too.
 */
static int hornet_key_vouched(const void *object, void *data)
{
	const struct hornet_vouching *v = data;
	const struct key *key = object;

	if ((unsigned long)object & HORNET_KEYRING_PTR_SUBTYPE)
		return -EKEYREJECTED;
	if (key->type != &key_type_asymmetric ||
	    v->check(v->keyring, key->type, &key->payload, NULL))
		return -EKEYREJECTED;
	return 0;
}

/**
 * hornet_keyring_vouched - whether the caller could not have chosen what a
 *			    keyring named by serial holds
 * @keyring: the keyring
 * @keyrings: the HORNET_KEYRING_* bits the policy accepts
 *
 * Any process can make a keyring and fill it with its own keys. One counts
 * only when every key it holds, and every key it can ever be given, is
 * vouched for by keyrings that the policy accepts: it must be restricted
 * to keys signed by a key in the builtin keyring (or, when the policy
 * accepts the secondary keyring, in either), and each key it held before
 * the restriction was set must pass it too.
 *
 * Return: true if @keyring may vouch for a signer.
 */
static bool hornet_keyring_vouched(struct key *keyring, u32 keyrings)
{
	struct key_restriction *restriction = keyring->restrict_link;
	struct hornet_vouching v = { .keyring = keyring };
	int err;

	if (!restriction || restriction->key)
		return false;
	if (restriction->check == restrict_link_by_builtin_trusted ||
	    (restriction->check ==
		     restrict_link_by_builtin_and_secondary_trusted &&
	     (keyrings & HORNET_KEYRING_SECONDARY)))
		v.check = restriction->check;
	else
		return false;

	down_read(&keyring->sem);
	err = assoc_array_iterate(&keyring->keys, hornet_key_vouched, &v);
	up_read(&keyring->sem);
	return err == 0;
}

/**
 * hornet_resolve_keyring - turn keyring_id into a keyring and check policy
 * @id: keyring_id from the attr
 * @keyrings: the HORNET_KEYRING_* bits the policy accepts
 * @keyring: set to what verify_pkcs7_message_sig() takes; drop it with
 *	     hornet_keyring_put()
 *
 * Return: %HORNET_OK, %HORNET_BADKEYRING or %HORNET_KEYRING_DENIED.
 */
enum hornet_verdict hornet_resolve_keyring(s32 id, u32 keyrings,
					   struct key **keyring)
{
	key_ref_t ref;
	struct key *key;
	u32 need;

	switch (id) {
	case 0:
		*keyring = NULL;
		need = HORNET_KEYRING_BUILTIN;
		break;
	case 1:		/* VERIFY_USE_SECONDARY_KEYRING */
		*keyring = VERIFY_USE_SECONDARY_KEYRING;
		need = HORNET_KEYRING_SECONDARY;
		break;
	case 2:		/* VERIFY_USE_PLATFORM_KEYRING */
		*keyring = VERIFY_USE_PLATFORM_KEYRING;
		need = HORNET_KEYRING_PLATFORM;
		break;
	default:
		ref = lookup_user_key(id, 0, KEY_NEED_SEARCH);
		if (IS_ERR(ref))
			return HORNET_BADKEYRING;
		key = key_ref_to_ptr(ref);
		if (key->type != &key_type_keyring) {
			key_put(key);
			return HORNET_BADKEYRING;
		}
		if (!(keyrings & HORNET_KEYRING_USER) ||
		    !hornet_keyring_vouched(key, keyrings)) {
			key_put(key);
			return HORNET_KEYRING_DENIED;
		}
		*keyring = key;
		return HORNET_OK;
	}
	return (keyrings & need) ? HORNET_OK : HORNET_KEYRING_DENIED;
}

/**
 * hornet_keyring_put - drop what hornet_resolve_keyring() returned
 * @keyring: the keyring, or one of the special values for a system keyring
 */
void hornet_keyring_put(struct key *keyring)
{
	if (keyring && keyring != VERIFY_USE_SECONDARY_KEYRING &&
	    keyring != VERIFY_USE_PLATFORM_KEYRING)
		key_put(keyring);
}

/**
 * hornet_attr_signable - whether a signed load carries only what was signed
 * @attr: the load's attributes
 *
 * The signature covers the instructions and the blob, nothing else of the
 * attr. A program BTF with func_info, line_info or CO-RE relocations is
 * applied by the verifier after the check: a relocation rewrites the
 * immediate or offset of a signed instruction to a value the caller's own
 * BTF chooses. A light skeleton's loader has none of them (its children
 * do, from its blob), so a signed load that has any is refused, whatever
 * its counts say.
 *
 * Return: %HORNET_OK, or %HORNET_BADATTR.
 */
enum hornet_verdict hornet_attr_signable(const union bpf_attr *attr)
{
	if (attr->prog_btf_fd || attr->func_info || attr->func_info_cnt ||
	    attr->func_info_rec_size || attr->line_info ||
	    attr->line_info_cnt || attr->line_info_rec_size ||
	    attr->core_relos || attr->core_relo_cnt ||
	    attr->core_relo_rec_size)
		return HORNET_BADATTR;
	return HORNET_OK;
}

/**
 * hornet_keyring_forget - drop a task's judged keyring, if any
 * @task: the task's blob
 *
 * Safe in any context a task is freed in.
 */
void hornet_keyring_forget(struct hornet_task *task)
{
	if (task->judged)
		hornet_keyring_put(task->keyring);
	task->judged = false;
	task->keyring = NULL;
}

/**
 * hornet_keyring_judge - judge a signed load's keyring as the bpf() call
 *			  begins
 * @cmd: the bpf() command
 * @attr: its attributes, the kernel's copy that the BPF core reads too
 * @kernel: whether the command comes from kernel context
 *
 * A keyring named by serial holds what its owner put in it, and that can
 * change while the load goes on. From 7.3 the BPF core verifies against
 * it before any BPF_PROG_LOAD hook runs, so a judgment made in a hook
 * would be about the keyring as it is later, not as the core used it. So
 * the keyring is judged here, before the core or Hornet reads it, and the
 * task keeps it, with a reference, for the load's check. A keyring judged
 * to vouch stays so: its restriction cannot be lifted, it can only be
 * given keys the restriction accepts, and the reference keeps its serial
 * from naming another keyring. The load's check takes the judgment with
 * hornet_pending_new(); the task's next bpf() call from userspace, or
 * its end, drops one that no load took. Should a BPF LSM program skip
 * this hook (fmod_ret on security_bpf), the load finds no judgment and
 * fails, also when it finds a stale judgment of another keyring_id.
 */
void hornet_keyring_judge(int cmd, const union bpf_attr *attr, bool kernel)
{
	struct hornet_task *task;

	if (kernel)
		return;
	task = hornet_task_blob();
	hornet_keyring_forget(task);
	if (cmd != BPF_PROG_LOAD || !attr->signature)
		return;
	task->keyring_verdict =
		hornet_resolve_keyring(attr->keyring_id,
				       READ_ONCE(hornet_policy.keyrings),
				       &task->keyring);
	if (task->keyring_verdict != HORNET_OK)
		task->keyring = NULL;
	task->keyring_id = attr->keyring_id;
	task->judged = true;
}

/**
 * hornet_btfs_chosen - whether a program uses a BTF object its caller chose
 * @prog: the program, after the verifier
 *
 * An ld_imm64 of a kernel symbol (BPF_PSEUDO_BTF_ID) names its BTF by an
 * fd in the instruction, and a kfunc call by an index into fd_array past
 * fd_array_cnt; the verifier writes the symbol's or the function's
 * address, looked up by a name in that BTF, into the instruction. The
 * signature covers the fd number, not the object the caller put behind
 * it. Only vmlinux's BTF, which no fd names, is the kernel's own choice.
 *
 * Return: true if @prog uses a BTF object other than vmlinux's, or a
 * kfunc of a module.
 */
static bool hornet_btfs_chosen(const struct bpf_prog *prog)
{
	const struct bpf_prog_aux *aux = prog->aux;
	u32 i;

	if (aux->kfunc_btf_tab)
		return true;
	for (i = 0; i < aux->used_btf_cnt; i++) {
		const struct btf *btf = aux->used_btfs[i].btf;

		if (!btf_is_kernel(btf) || btf_is_module(btf))
			return true;
	}
	return false;
}

/**
 * hornet_pkcs7_sha256 - the payload's SHA-256, as a signer's check computed it
 * @pkcs7: a message checked with %VERIFYING_BPF_SIGNATURE
 * @digest: gets the SHA-256 of the payload
 *
 * That usage refuses signed attributes, so the digest a signer's signature
 * was checked against is the digest of the payload itself. When any signer
 * used SHA-256, the payload is not hashed a second time for the records,
 * however many signers the message has.
 *
 * Return: true if @digest was set; false when no signer's SHA-256 digest
 * was worked out.
 */
bool hornet_pkcs7_sha256(const struct pkcs7_message *pkcs7, u8 *digest)
{
	const char *algo;
	const u8 *buf;
	unsigned int i;
	u32 len;
	int err;

	for (i = 0; (err = pkcs7_get_signer_digest(pkcs7, i, &buf, &len,
						   &algo)) != -ENOENT; i++) {
		if (!err && !strcmp(algo, "sha256") &&
		    len == SHA256_DIGEST_SIZE) {
			memcpy(digest, buf, SHA256_DIGEST_SIZE);
			return true;
		}
	}
	return false;
}

/**
 * hornet_payload_vec - lay out a signed load's payload from its bound maps
 * @prog: the program, after the verifier; its maps cannot change any more
 * @pending: what the start of the load kept: the instructions as given,
 *	     and fd_array_cnt
 * @vec: set, on %HORNET_OK, to fd_array_cnt + 1 pieces to kfree(): the
 *	 instructions, then the value of each map of fd_array, in order
 *
 * Return:
 * * %HORNET_OK		- @vec holds the payload
 * * %HORNET_BADMAP	- the program uses a map fd_array does not name, a
 *			  map that is not a frozen single-element array, or
 *			  a BTF object its caller chose
 * * %HORNET_ERROR	- out of memory
 */
enum hornet_verdict hornet_payload_vec(struct bpf_prog *prog,
				       const struct hornet_pending *pending,
				       struct kvec **vec)
{
	u32 cnt = pending->fd_array_cnt;
	enum hornet_verdict verdict = HORNET_ERROR;
	struct hornet_blob *blobs;
	struct kvec *v;

	*vec = NULL;
	v = kcalloc(cnt + 1, sizeof(*v), GFP_KERNEL);
	blobs = kcalloc(cnt, sizeof(*blobs), GFP_KERNEL);
	if (!v || (cnt && !blobs))
		goto out;
	verdict = HORNET_BADMAP;
	if (hornet_btfs_chosen(prog) || hornet_describe_maps(prog, cnt, blobs) ||
	    hornet_payload_build(v, pending->insns, pending->insn_cnt, blobs,
				 cnt))
		goto out;
	verdict = HORNET_OK;
	*vec = v;
	v = NULL;
out:
	kfree(blobs);
	kfree(v);
	return verdict;
}

/**
 * hornet_pending_new - keep what every kernel's check of a signed load needs
 * @attr: the load's attributes
 * @prog: the program, with its instructions copied in, before the verifier
 *	  rewrites them
 * @pending: set, on %HORNET_OK, to the instructions as given, their count,
 *	     keyring_id, the keyring as hornet_keyring_judge() judged it
 *	     when the call began, and fd_array_cnt, to free with
 *	     hornet_pending_free()
 *
 * Return:
 * * %HORNET_OK		- @pending is set
 * * %HORNET_BADATTR	- the load carries BTF info or relocations
 * * %HORNET_BADMAP	- fd_array_cnt names more than one map
 * * %HORNET_ERROR	- out of memory, or the keyring was not judged as
 *			  the call began
 */
enum hornet_verdict hornet_pending_new(const union bpf_attr *attr,
				       const struct bpf_prog *prog,
				       struct hornet_pending **pending)
{
	struct hornet_task *task = hornet_task_blob();
	struct hornet_pending *p;

	if (hornet_attr_signable(attr) != HORNET_OK)
		return HORNET_BADATTR;
	/* The payload does not frame the maps' values: with two maps, the
	 * caller's value sizes could move the boundary between them under
	 * one signature. A light skeleton's loader has one blob.
	 */
	if (attr->fd_array_cnt > 1)
		return HORNET_BADMAP;
	p = kzalloc_obj(*p, GFP_KERNEL);
	if (!p)
		return HORNET_ERROR;
	p->insns = kvmemdup(prog->insnsi, bpf_prog_insn_size(prog),
			    GFP_KERNEL);
	if (!p->insns) {
		kfree(p);
		return HORNET_ERROR;
	}
	if (!task->judged || task->keyring_id != attr->keyring_id) {
		kvfree(p->insns);
		kfree(p);
		return HORNET_ERROR;
	}
	p->keyring_verdict = task->keyring_verdict;
	p->keyring = task->keyring;
	task->judged = false;
	task->keyring = NULL;
	p->insn_cnt = prog->len;
	p->keyring_id = attr->keyring_id;
	p->fd_array_cnt = attr->fd_array_cnt;
	*pending = p;
	return HORNET_OK;
}

/**
 * hornet_pending_free - free what hornet_pending_take() copied
 * @pending: the copy, or NULL
 *
 * Safe in any context the kernel frees programs in.
 */
void hornet_pending_free(struct hornet_pending *pending)
{
	if (!pending)
		return;
	hornet_keyring_put(pending->keyring);
	kvfree(pending->sig);
	kvfree(pending->insns);
	kfree(pending->vouched);
	kfree(pending);
}

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST
#include <kunit/test.h>

static const struct bpf_insn hornet_test_insns[] = {
	BPF_MOV64_IMM(BPF_REG_0, 7),
	BPF_EXIT_INSN(),
};

static const u8 hornet_test_value_a[] = { 1, 2, 3, 4, 5 };
static const u8 hornet_test_value_b[64] = { [0] = 0xaa, [63] = 0x55 };

/**
 * hornet_test_blob - a frozen single-element array blob for the tests
 * @value: the value
 * @size: its size
 *
 * Return: the blob description.
 */
static struct hornet_blob hornet_test_blob(const void *value, u32 size)
{
	return (struct hornet_blob) {
		.value = value, .size = size, .map_type = BPF_MAP_TYPE_ARRAY,
		.max_entries = 1, .frozen = true,
	};
}

/**
 * hornet_test_payload_order - the pieces are the instructions, then each value, in order
 * @test: the KUnit test context
 */
static void hornet_test_payload_order(struct kunit *test)
{
	struct hornet_blob blobs[2] = {
		hornet_test_blob(hornet_test_value_a, sizeof(hornet_test_value_a)),
		hornet_test_blob(hornet_test_value_b, sizeof(hornet_test_value_b)),
	};
	struct kvec vec[3] = {};

	KUNIT_ASSERT_EQ(test, hornet_payload_build(vec, hornet_test_insns, 2,
						   blobs, 2), 0);
	KUNIT_EXPECT_PTR_EQ(test, vec[0].iov_base, (void *)hornet_test_insns);
	KUNIT_EXPECT_EQ(test, vec[0].iov_len, sizeof(hornet_test_insns));
	KUNIT_EXPECT_PTR_EQ(test, vec[1].iov_base, (void *)hornet_test_value_a);
	KUNIT_EXPECT_EQ(test, vec[1].iov_len, sizeof(hornet_test_value_a));
	KUNIT_EXPECT_PTR_EQ(test, vec[2].iov_base, (void *)hornet_test_value_b);
	KUNIT_EXPECT_EQ(test, vec[2].iov_len, sizeof(hornet_test_value_b));
}

/*
 * SHA-256 of hornet_test_insns (b7 00 00 00 07 00 00 00, 95 00 .. 00)
 * followed by hornet_test_value_b, computed off the kernel with Python's
 * hashlib.
 */
static const u8 hornet_test_payload_sha256[SHA256_DIGEST_SIZE] = {
	0x93, 0x35, 0x0f, 0x34, 0x03, 0xa7, 0xb0, 0x89,
	0x67, 0x37, 0x78, 0xaa, 0x70, 0x95, 0xfd, 0x08,
	0x97, 0x7a, 0x86, 0x43, 0xfa, 0xf7, 0xec, 0x62,
	0xf6, 0x1c, 0x78, 0x9e, 0xf9, 0x12, 0xf1, 0xb8,
};

/**
 * hornet_test_payload_digest - the digest Hornet measures is that of the whole payload
 * @test: the KUnit test context
 *
 * hornet_payload_build() and hornet_payload_digest() together give the
 * SHA-256 of the instructions followed by the value, as computed outside
 * the kernel; one changed byte of the value changes it.
 */
static void hornet_test_payload_digest(struct kunit *test)
{
	u8 value[sizeof(hornet_test_value_b)];
	struct hornet_blob blob = hornet_test_blob(value, sizeof(value));
	u8 got[SHA256_DIGEST_SIZE];
	struct kvec vec[2];

	memcpy(value, hornet_test_value_b, sizeof(value));
	KUNIT_ASSERT_EQ(test, hornet_payload_build(vec, hornet_test_insns, 2,
						   &blob, 1), 0);
	hornet_payload_digest(vec, ARRAY_SIZE(vec), got);
	KUNIT_EXPECT_MEMEQ(test, got, hornet_test_payload_sha256, sizeof(got));

	value[31] ^= 1;
	hornet_payload_digest(vec, ARRAY_SIZE(vec), got);
	KUNIT_EXPECT_MEMNEQ(test, got, hornet_test_payload_sha256, sizeof(got));
}

/**
 * hornet_test_payload_rejects_maps - only frozen single-element array maps carry signed data
 * @test: the KUnit test context
 */
static void hornet_test_payload_rejects_maps(struct kunit *test)
{
	struct hornet_blob good = hornet_test_blob(hornet_test_value_a,
						   sizeof(hornet_test_value_a));
	struct hornet_blob bad;
	struct kvec vec[3];

	bad = good;
	bad.frozen = false;
	KUNIT_EXPECT_EQ(test, hornet_payload_build(vec, hornet_test_insns, 2,
						   &bad, 1), -EPERM);
	bad = good;
	bad.map_type = BPF_MAP_TYPE_HASH;
	KUNIT_EXPECT_EQ(test, hornet_payload_build(vec, hornet_test_insns, 2,
						   &bad, 1), -EPERM);
	bad = good;
	bad.map_type = BPF_MAP_TYPE_PERCPU_ARRAY;
	KUNIT_EXPECT_EQ(test, hornet_payload_build(vec, hornet_test_insns, 2,
						   &bad, 1), -EPERM);
	bad = good;
	bad.max_entries = 2;
	KUNIT_EXPECT_EQ(test, hornet_payload_build(vec, hornet_test_insns, 2,
						   &bad, 1), -EPERM);
	bad = good;
	bad.value = NULL;
	KUNIT_EXPECT_EQ(test, hornet_payload_build(vec, hornet_test_insns, 2,
						   &bad, 1), -EPERM);
	bad = good;
	bad.mmapable = true;
	KUNIT_EXPECT_EQ(test, hornet_payload_build(vec, hornet_test_insns, 2,
						   &bad, 1), -EPERM);
	/* A bad map anywhere in the array fails the whole payload. */
	{
		struct hornet_blob two[2] = { good, good };

		two[1].frozen = false;
		KUNIT_EXPECT_EQ(test, hornet_payload_build(vec, hornet_test_insns,
							   2, two, 2), -EPERM);
	}
	KUNIT_EXPECT_EQ(test, hornet_payload_build(vec, hornet_test_insns, 2,
						   NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, vec[0].iov_len, sizeof(hornet_test_insns));
}

/**
 * hornet_test_verdict_table - verdict names are distinct and the errno table holds
 * @test: the KUnit test context
 */
static void hornet_test_verdict_table(struct kunit *test)
{
	int i, j;

	for (i = 0; i < HORNET_VERDICT_MAX; i++) {
		KUNIT_EXPECT_NOT_NULL(test, hornet_verdicts[i].name);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, hornet_verdict_name(i),
					    hornet_verdict_name(j));
	}
	KUNIT_EXPECT_EQ(test, hornet_verdict_errno(HORNET_UNSIGNED), -EPERM);
	KUNIT_EXPECT_EQ(test, hornet_verdict_errno(HORNET_MALFORMED), -EBADMSG);
	KUNIT_EXPECT_EQ(test, hornet_verdict_errno(HORNET_UNSUPPORTED), -ENOPKG);
	KUNIT_EXPECT_EQ(test, hornet_verdict_errno(HORNET_UNKNOWNKEY), -ENOKEY);
	KUNIT_EXPECT_EQ(test, hornet_verdict_errno(HORNET_BADSIG), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, hornet_verdict_errno(HORNET_BADMAP), -EPERM);
	KUNIT_EXPECT_EQ(test, hornet_verdict_errno(HORNET_BADATTR), -EINVAL);
	KUNIT_EXPECT_EQ(test, hornet_verdict_errno(HORNET_BADKEYRING), -EINVAL);
	KUNIT_EXPECT_EQ(test, hornet_verdict_errno(HORNET_FAULT), -EFAULT);
}

/**
 * hornet_test_attr_signable - a signed load may carry no BTF info or relocation
 * @test: the KUnit test context
 *
 * Each field alone makes the load %HORNET_BADATTR, a pointer with a zero
 * count too; the fields a light skeleton's loader sets do not.
 */
static void hornet_test_attr_signable(struct kunit *test)
{
	static const size_t fields[] = {
		offsetof(union bpf_attr, prog_btf_fd),
		offsetof(union bpf_attr, func_info_rec_size),
		offsetof(union bpf_attr, func_info),
		offsetof(union bpf_attr, func_info_cnt),
		offsetof(union bpf_attr, line_info_rec_size),
		offsetof(union bpf_attr, line_info),
		offsetof(union bpf_attr, line_info_cnt),
		offsetof(union bpf_attr, core_relos),
		offsetof(union bpf_attr, core_relo_cnt),
		offsetof(union bpf_attr, core_relo_rec_size),
	};
	union bpf_attr attr = {
		.prog_type = BPF_PROG_TYPE_SYSCALL,
		.insn_cnt = 2,
		.insns = 0x1000,
		.license = 0x2000,
		.prog_flags = BPF_F_SLEEPABLE,
		.fd_array = 0x3000,
		.fd_array_cnt = 1,
		.signature = 0x4000,
		.signature_size = 512,
		.keyring_id = 1,
		.log_level = 1,
		.log_buf = 0x5000,
		.log_size = 4096,
	};
	union bpf_attr bad;
	size_t i;

	KUNIT_EXPECT_EQ(test, hornet_attr_signable(&attr), HORNET_OK);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		bad = attr;
		*((u8 *)&bad + fields[i]) = 1;
		KUNIT_EXPECT_EQ_MSG(test, hornet_attr_signable(&bad),
				    HORNET_BADATTR, "field at offset %zu",
				    fields[i]);
	}
}

/**
 * hornet_test_pending_needs_judged_keyring - a signed load takes only the
 *					      keyring judged for its own call
 * @test: the KUnit test context
 *
 * A load whose bpf() call was not judged as it began (a BPF LSM program
 * that skipped the hook) gets %HORNET_ERROR, and so does one that finds a
 * judgment of another keyring_id. The control: judged for its own
 * keyring_id, the load takes the judgment, which no second load can take.
 */
static void hornet_test_pending_needs_judged_keyring(struct kunit *test)
{
	struct hornet_pending *pending = NULL;
	union bpf_attr attr = {
		.prog_type = BPF_PROG_TYPE_SYSCALL,
		.insn_cnt = 2,
		.fd_array = 0x3000,
		.fd_array_cnt = 1,
		.signature = 0x4000,
		.signature_size = 512,
		.keyring_id = 0,
	};
	union bpf_attr other = attr;
	struct hornet_task *task;
	struct bpf_prog *prog;

	if (!hornet_enabled)
		kunit_skip(test, "Hornet is not an enabled LSM");
	task = hornet_task_blob();
	prog = bpf_prog_alloc(bpf_prog_size(2), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, prog);
	prog->len = 2;
	other.keyring_id = 1;

	hornet_keyring_forget(task);
	KUNIT_EXPECT_EQ(test, hornet_pending_new(&attr, prog, &pending),
			HORNET_ERROR);
	KUNIT_EXPECT_NULL(test, pending);

	hornet_keyring_judge(BPF_PROG_LOAD, &other, false);
	KUNIT_EXPECT_EQ(test, hornet_pending_new(&attr, prog, &pending),
			HORNET_ERROR);
	KUNIT_EXPECT_NULL(test, pending);
	hornet_keyring_forget(task);

	hornet_keyring_judge(BPF_PROG_LOAD, &attr, false);
	KUNIT_EXPECT_EQ(test, hornet_pending_new(&attr, prog, &pending),
			HORNET_OK);
	KUNIT_EXPECT_FALSE(test, task->judged);
	if (pending) {
		KUNIT_EXPECT_EQ(test, pending->keyring_id, 0);
		KUNIT_EXPECT_EQ(test, pending->insn_cnt, 2);
		hornet_pending_free(pending);
		pending = NULL;
	}
	KUNIT_EXPECT_EQ(test, hornet_pending_new(&attr, prog, &pending),
			HORNET_ERROR);
	KUNIT_EXPECT_NULL(test, pending);
	__bpf_prog_free(prog);
}

static struct kunit_case hornet_payload_test_cases[] = {
	KUNIT_CASE(hornet_test_payload_order),
	KUNIT_CASE(hornet_test_payload_digest),
	KUNIT_CASE(hornet_test_payload_rejects_maps),
	KUNIT_CASE(hornet_test_verdict_table),
	KUNIT_CASE(hornet_test_attr_signable),
	KUNIT_CASE(hornet_test_pending_needs_judged_keyring),
	{}
};

static struct kunit_suite hornet_payload_test_suite = {
	.name = "hornet_payload",
	.test_cases = hornet_payload_test_cases,
};

kunit_test_suite(hornet_payload_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
