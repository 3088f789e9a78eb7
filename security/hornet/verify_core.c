// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: judge a signed BPF_PROG_LOAD on the BPF core's verdict (Linux 7.3).
 *
 * From 7.3 the BPF core checks a load's signature itself, in bpf_check(),
 * over the instructions followed by the value of each map of fd_array, in
 * order: the payload of verdict.c. A signature that does not verify fails
 * the load there, before any LSM hook runs, so a load that reaches Hornet
 * with a signature was verified, and prog->aux->sig says so and against
 * which keyring. Hornet does not check the PKCS#7 message again: it holds
 * the verified load to its own rules, as on 6.12 (verdict.c), which the
 * core does not apply: the keyring policy, at most one map in the payload,
 * a frozen single-element array.
 *
 * Who signed, the hash of their key and the payload's digest, for the
 * records, are read from the message the core verified, which it shows
 * the LSM hook in prog->aux->sig.pkcs7 (series-7.3, patches 0006-0007),
 * never from the caller's memory, which may have changed since.
 *
 * Before 7.3 Hornet checks the signature itself, and verify.c takes this
 * file's place. Only this file and that one differ between the kernels.
 */

#include <crypto/pkcs7.h>
#include <crypto/sha2.h>
#include <keys/system_keyring.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/key.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <linux/verification.h>

#include "hornet.h"

/**
 * hornet_digest_accepted - whether Hornet accepts a signer's digest
 * @algo: the digest's name, as the PKCS#7 parser gives it (may be NULL)
 *
 * The core accepts a signature with any digest the PKCS#7 parser knows,
 * SHA-1 included. Hornet holds 7.3 to what 6.12's check accepts.
 *
 * Return: true for SHA-256, SHA-384 and SHA-512.
 */
static bool hornet_digest_accepted(const char *algo)
{
	static const char *const accepted[] = { "sha256", "sha384", "sha512" };

	return algo && match_string(accepted, ARRAY_SIZE(accepted), algo) >= 0;
}

/**
 * hornet_core_digests_accepted - whether each signer used a digest Hornet
 *				  accepts
 * @pkcs7: the message the core verified
 *
 * Return: true if the message has signers and hornet_digest_accepted()
 * takes the digest of each.
 */
static bool hornet_core_digests_accepted(const struct pkcs7_message *pkcs7)
{
	const char *algo;
	unsigned int i;

	for (i = 0; !pkcs7_get_signer_hash_algo(pkcs7, i, &algo); i++)
		if (!hornet_digest_accepted(algo))
			return false;
	return i > 0;
}

/**
 * hornet_core_vouched - read who vouched from the message the core verified
 * @pkcs7: the message, prog->aux->sig.pkcs7 during security_bpf_prog_load()
 *
 * Return: the signer's description and key hash and, for a SHA-256
 * signature, the payload's digest, in a new struct hornet_result; NULL
 * for want of memory.
 */
static struct hornet_result *hornet_core_vouched(struct pkcs7_message *pkcs7)
{
	struct hornet_result *v;
	const char *signer;

	v = kzalloc_obj(*v, GFP_KERNEL);
	if (!v)
		return NULL;
	signer = pkcs7_get_trusted_signer(pkcs7) ?: "?";
	strscpy(v->signer, signer, sizeof(v->signer));
	hornet_signer_skid(signer, v->skid, sizeof(v->skid));
	v->has_signer_key = !pkcs7_get_trusted_signer_key(pkcs7, v->signer_key);
	v->has_payload = hornet_pkcs7_sha256(pkcs7, v->payload);
	return v;
}

/**
 * hornet_core_verdict - name the reason the core refused a signature
 * @attr: the load's attributes
 * @err: the core's error (prog->aux->sig.err)
 *
 * The core reports its reasons as errnos, some of which it gives for more
 * than one: -EINVAL is BTF info or relocations on a signed load, an empty
 * or oversized signature, a keyring_id that names no keyring, or a map in
 * fd_array that is not an array.
 *
 * Return: the verdict the record carries for @err.
 */
static enum hornet_verdict hornet_core_verdict(const union bpf_attr *attr,
					       int err)
{
	enum hornet_verdict verdict;
	struct key *keyring = NULL;

	switch (err) {
	case -EKEYREJECTED:
		return HORNET_BADSIG;
	case -ENOKEY:
		return HORNET_UNKNOWNKEY;
	case -EBADMSG:
	case -EMSGSIZE:
		return HORNET_MALFORMED;
	case -ENOPKG:
		return HORNET_UNSUPPORTED;
	case -EFAULT:
		return HORNET_FAULT;
	case -EPERM:	/* a map not frozen, or not exclusive */
	case -EBUSY:	/* a write to a map still in flight */
		return HORNET_BADMAP;
	case -EINVAL:
		/* series-7.3 0009: BTF info or relocations on a signed load */
		if (hornet_attr_signable(attr) != HORNET_OK)
			return HORNET_BADATTR;
		verdict = hornet_resolve_keyring(attr->keyring_id,
						 HORNET_KEYRING_ALL, &keyring);
		if (verdict == HORNET_BADKEYRING)
			return HORNET_BADKEYRING;
		if (verdict == HORNET_OK)
			hornet_keyring_put(keyring);
		if (!attr->signature_size ||
		    attr->signature_size > KMALLOC_MAX_CACHE_SIZE)
			return HORNET_MALFORMED;
		return attr->fd_array_cnt ? HORNET_BADMAP : HORNET_MALFORMED;
	default:
		return HORNET_ERROR;
	}
}

/**
 * hornet_pending_take - keep what a signed load's check needs, once
 * @attr: the load's attributes
 * @prog: the program, with its instructions copied in, after the BPF core
 *	  checked the signature and before the verifier rewrote anything
 * @pending: set to what is kept, to free with hornet_pending_free(), when
 *	     %HORNET_OK is returned
 *
 * The signature itself is not kept: the core has checked it already, and
 * who it found vouching is read now, while the core still holds the
 * message it verified.
 *
 * Return:
 * * %HORNET_OK		- @pending holds the instructions as signed
 * * %HORNET_UNSIGNED	- the load carries no signature
 * * other		- the core refused the signature, for this reason
 * * %HORNET_UNSUPPORTED	- the core verified it, but a signer used a
 *			  digest other than SHA-256, SHA-384 or SHA-512
 * * %HORNET_BADMAP	- fd_array_cnt names more than one map
 * * %HORNET_ERROR	- out of memory, or no verified message to read
 */
enum hornet_verdict hornet_pending_take(const union bpf_attr *attr,
					const struct bpf_prog *prog,
					struct hornet_pending **pending)
{
	struct pkcs7_message *pkcs7 = prog->aux->sig.pkcs7;
	enum hornet_verdict verdict;
	struct hornet_pending *p;

	*pending = NULL;
	if (!attr->signature)
		return HORNET_UNSIGNED;
	if (prog->aux->sig.err)
		return hornet_core_verdict(attr, prog->aux->sig.err);
	if (!pkcs7)
		return HORNET_ERROR;
	if (!hornet_core_digests_accepted(pkcs7))
		return HORNET_UNSUPPORTED;
	verdict = hornet_pending_new(attr, prog, &p);
	if (verdict != HORNET_OK)
		return verdict;
	p->vouched = hornet_core_vouched(pkcs7);
	if (!p->vouched) {
		hornet_pending_free(p);
		return HORNET_ERROR;
	}
	*pending = p;
	return HORNET_OK;
}

/**
 * hornet_payload_digest - the SHA-256 of a payload held as pieces
 * @vec: the payload
 * @nvec: the number of pieces
 * @digest: gets the digest, for the measurement of the load
 */
void hornet_payload_digest(const struct kvec *vec, unsigned int nvec,
			   u8 *digest)
{
	struct sha256_ctx ctx;
	unsigned int i;

	sha256_init(&ctx);
	for (i = 0; i < nvec; i++)
		sha256_update(&ctx, vec[i].iov_base, vec[i].iov_len);
	sha256_final(&ctx, digest);
}

/**
 * hornet_core_keyring - check the keyring the core verified against
 * @prog: the program
 * @keyring: what hornet_resolve_keyring() returned for the load's
 *	     keyring_id
 *
 * keyring_id is read from the kernel's copy of the attributes, as the core
 * read it; a keyring named by serial must still be the one the core used.
 *
 * Return: true if the core's verdict is about @keyring.
 */
static bool hornet_core_keyring(const struct bpf_prog *prog,
				struct key *keyring)
{
	switch (prog->aux->sig.keyring_type) {
	case BPF_SIG_KEYRING_BUILTIN:
		return !keyring;
	case BPF_SIG_KEYRING_SECONDARY:
		return keyring == VERIFY_USE_SECONDARY_KEYRING;
	case BPF_SIG_KEYRING_PLATFORM:
		return keyring == VERIFY_USE_PLATFORM_KEYRING;
	case BPF_SIG_KEYRING_USER:
		return keyring && keyring != VERIFY_USE_SECONDARY_KEYRING &&
		       keyring != VERIFY_USE_PLATFORM_KEYRING &&
		       key_serial(keyring) == prog->aux->sig.keyring_serial;
	default:
		return false;
	}
}

/**
 * hornet_check_signed - judge a signed load the core verified
 * @prog: the program, after the verifier, before it has an id
 * @pending: the instructions, from the start of the load
 * @res: filled with the verdict, its errno, the signer and the payload's
 *	 digest
 *
 * The keyring is the one hornet_keyring_judge() judged as the load began,
 * before anything read it.
 */
void hornet_check_signed(struct bpf_prog *prog,
			 const struct hornet_pending *pending,
			 struct hornet_result *res)
{
	unsigned int nvec = pending->fd_array_cnt + 1;
	struct key *keyring = pending->keyring;
	struct kvec *vec = NULL;

	res->verdict = pending->keyring_verdict;
	if (res->verdict == HORNET_OK &&
	    (prog->aux->sig.verdict != BPF_SIG_VERIFIED ||
	     !hornet_core_keyring(prog, keyring)))
		res->verdict = HORNET_BADSIG;
	if (res->verdict == HORNET_OK)
		res->verdict = hornet_payload_vec(prog, pending, &vec);
	if (res->verdict == HORNET_OK) {
		const struct hornet_result *v = pending->vouched;

		strscpy(res->signer, v->signer, sizeof(res->signer));
		strscpy(res->skid, v->skid, sizeof(res->skid));
		res->has_signer_key = v->has_signer_key;
		memcpy(res->signer_key, v->signer_key, sizeof(res->signer_key));
		res->has_payload = true;
		if (v->has_payload)
			memcpy(res->payload, v->payload, sizeof(res->payload));
		else
			hornet_payload_digest(vec, nvec, res->payload);
	}
	res->err = res->verdict == HORNET_ERROR ? -ENOMEM :
		   hornet_verdict_errno(res->verdict);
	kfree(vec);
}

/**
 * hornet_core_refused - whether the BPF core refuses a load whatever Hornet
 *			 decides
 * @prog: the program being loaded, during security_bpf_prog_load()
 * @res: gets the digest of the payload the signature was refused over,
 *	 when the core could work it out
 *
 * The core calls the hook for a load whose signature it refused, so that
 * the refusal is recorded (series-7.3, patch 0008), and fails the load
 * with its own error afterwards.
 *
 * Return: that error, or 0.
 */
int hornet_core_refused(const struct bpf_prog *prog, struct hornet_result *res)
{
	if (prog->aux->sig.err && prog->aux->sig.pkcs7)
		res->has_payload = hornet_pkcs7_sha256(prog->aux->sig.pkcs7,
						       res->payload);
	return prog->aux->sig.err;
}

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST
#include <kunit/test.h>

/**
 * hornet_test_core_digests - the digests Hornet accepts of what the core
 *			      verified
 * @test: the KUnit context
 *
 * The names are those the PKCS#7 parser gives; "none" is a signature
 * over the data itself, NULL a digest it named with nothing.
 */
static void hornet_test_core_digests(struct kunit *test)
{
	static const char *const refused[] = {
		"sha1", "sha224", "sha3-256", "sha3-384", "sha3-512", "sm3",
		"streebog256", "streebog512", "none", "SHA256", "sha2560", "",
	};
	unsigned int i;

	KUNIT_EXPECT_TRUE(test, hornet_digest_accepted("sha256"));
	KUNIT_EXPECT_TRUE(test, hornet_digest_accepted("sha384"));
	KUNIT_EXPECT_TRUE(test, hornet_digest_accepted("sha512"));
	KUNIT_EXPECT_FALSE(test, hornet_digest_accepted(NULL));
	for (i = 0; i < ARRAY_SIZE(refused); i++)
		KUNIT_EXPECT_FALSE_MSG(test, hornet_digest_accepted(refused[i]),
				       "digest \"%s\"", refused[i]);
}

/**
 * hornet_test_core_verdicts - each refusal of the core gets its verdict
 * @test: the KUnit context
 *
 * -EINVAL stands for several of the core's reasons; the attributes tell
 * them apart.
 */
static void hornet_test_core_verdicts(struct kunit *test)
{
	union bpf_attr attr = { .signature_size = 256 };

	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EKEYREJECTED),
			HORNET_BADSIG);
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -ENOKEY),
			HORNET_UNKNOWNKEY);
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EBADMSG),
			HORNET_MALFORMED);
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EMSGSIZE),
			HORNET_MALFORMED);
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -ENOPKG),
			HORNET_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EFAULT),
			HORNET_FAULT);
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EPERM),
			HORNET_BADMAP);
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EBUSY),
			HORNET_BADMAP);
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EIO), HORNET_ERROR);

	/* -EINVAL: a signature of no size, or too big to copy */
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EINVAL),
			HORNET_MALFORMED);
	attr.signature_size = 0;
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EINVAL),
			HORNET_MALFORMED);
	attr.signature_size = KMALLOC_MAX_CACHE_SIZE + 1;
	attr.fd_array_cnt = 1;
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EINVAL),
			HORNET_MALFORMED);
	/* a map in fd_array the core would not hash */
	attr.signature_size = 256;
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EINVAL),
			HORNET_BADMAP);
	/* a keyring_id that names no keyring, whatever else is wrong */
	attr.keyring_id = 0x7ffffff0;
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EINVAL),
			HORNET_BADKEYRING);
	/* the system keyrings by their special ids are keyrings */
	attr.keyring_id = 1;
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EINVAL),
			HORNET_BADMAP);
	attr.keyring_id = 2;
	KUNIT_EXPECT_EQ(test, hornet_core_verdict(&attr, -EINVAL),
			HORNET_BADMAP);
}

static struct kunit_case hornet_core_test_cases[] = {
	KUNIT_CASE(hornet_test_core_digests),
	KUNIT_CASE(hornet_test_core_verdicts),
	{}
};

static struct kunit_suite hornet_core_test_suite = {
	.name = "hornet_core",
	.test_cases = hornet_core_test_cases,
};

kunit_test_suite(hornet_core_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
