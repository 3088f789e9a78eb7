// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: verify the signature of a BPF_PROG_LOAD itself (Linux 6.12).
 *
 * The BPF core of 6.12 checks no signature, so Hornet does: over the
 * payload of verdict.c (the program's instructions, then the value of the
 * map in fd_array[0] when fd_array_cnt is 1; a signed load names at most
 * one). The check runs once the verifier has bound the program's maps, in
 * the loading task: the map is then the one the program will use (with
 * fd_array_cnt the verifier binds it first and resolves every map index to
 * it without reading fd_array again), and the program must use no other.
 *
 * The verifier rewrites the instructions in place, so the signed ones are
 * kept from the start of the load: the signature and the instructions are
 * copied from the caller once, before the verifier runs. Each piece is then
 * hashed where it lives, in one pass, through
 * pkcs7_supply_detached_data_vec().
 *
 * From Linux 7.3 the BPF core checks the signature, and verify_core.c
 * takes this file's place. Only this file and that one differ between the
 * two kernels.
 */

#include <crypto/pkcs7.h>
#include <crypto/sha2.h>
#include <keys/asymmetric-type.h>
#include <keys/system_keyring.h>
#include <linux/assoc_array.h>
#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/key.h>
#include <linux/key-type.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <linux/verification.h>

#include "hornet.h"

/**
 * hornet_classify - map an error from the PKCS#7 code to a verdict
 * @err: what pkcs7_parse_message() or verify_pkcs7_message_sig() returned
 *
 * Return: the verdict for @err.
 */
static enum hornet_verdict hornet_classify(int err)
{
	switch (err) {
	case 0:
		return HORNET_OK;
	case -ENOKEY:
		return HORNET_UNKNOWNKEY;
	case -EKEYREJECTED:
		return HORNET_BADSIG;
	case -ENOPKG:
		return HORNET_UNSUPPORTED;
	case -EBADMSG:
	case -EINVAL:
	case -EMSGSIZE:	/* the ASN.1 decoder reads no message of 64 KiB */
		return HORNET_MALFORMED;
	default:
		return HORNET_ERROR;
	}
}

/**
 * hornet_verify_payload - check a signature over a payload held as pieces
 * @sig: the PKCS#7 message
 * @sig_len: its length
 * @vec: the payload
 * @nvec: the number of pieces
 * @keyring: what verify_pkcs7_message_sig() takes as trusted keys
 * @res: gets the signer's description and the hash of its key on success,
 *	 and the payload's SHA-256 when the verification computed it
 *
 * Return: 0 or the error from the PKCS#7 code.
 */
static int hornet_verify_payload(const void *sig, size_t sig_len,
				 const struct kvec *vec, unsigned int nvec,
				 struct key *keyring, struct hornet_result *res)
{
	struct pkcs7_message *pkcs7;
	const char *signer;
	int err;

	pkcs7 = pkcs7_parse_message(sig, sig_len);
	if (IS_ERR(pkcs7))
		return PTR_ERR(pkcs7);
	err = pkcs7_supply_detached_data_vec(pkcs7, vec, nvec);
	if (!err)
		err = verify_pkcs7_message_sig(NULL, 0, pkcs7, keyring,
					       VERIFYING_BPF_SIGNATURE,
					       NULL, NULL);
	if (!err) {
		signer = pkcs7_get_trusted_signer(pkcs7) ?: "?";
		strscpy(res->signer, signer, sizeof(res->signer));
		hornet_signer_skid(signer, res->skid, sizeof(res->skid));
		res->has_signer_key =
			!pkcs7_get_trusted_signer_key(pkcs7, res->signer_key);
		res->has_payload = hornet_pkcs7_sha256(pkcs7, res->payload);
	}
	pkcs7_free_message(pkcs7);
	return err;
}

/**
 * hornet_pending_take - copy what a signed load's check needs, once
 * @attr: the load's attributes, whose pointers are userspace pointers
 * @prog: the program, with its instructions copied in, before the verifier
 * @pending: set to the copy, to free with hornet_pending_free(), when
 *	     %HORNET_OK is returned
 *
 * Return:
 * * %HORNET_OK		- @pending holds the signature and the instructions
 * * %HORNET_UNSIGNED	- the load carries no signature
 * * %HORNET_MALFORMED	- the signature is empty
 * * %HORNET_FAULT	- the signature could not be read
 * * %HORNET_BADMAP	- fd_array_cnt names more than one map
 * * %HORNET_ERROR	- out of memory
 */
enum hornet_verdict hornet_pending_take(const union bpf_attr *attr,
					const struct bpf_prog *prog,
					struct hornet_pending **pending)
{
	enum hornet_verdict verdict;
	struct hornet_pending *p;
	void *sig;

	*pending = NULL;
	if (!attr->signature)
		return HORNET_UNSIGNED;
	if (!attr->signature_size)
		return HORNET_MALFORMED;
	verdict = hornet_pending_new(attr, prog, &p);
	if (verdict != HORNET_OK)
		return verdict;
	sig = kvmemdup_bpfptr(make_bpfptr(attr->signature, false),
			      attr->signature_size);
	if (IS_ERR(sig)) {
		hornet_pending_free(p);
		return PTR_ERR(sig) == -EFAULT ? HORNET_FAULT : HORNET_ERROR;
	}
	p->sig = sig;
	p->sig_len = attr->signature_size;
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
	struct sha256_state sctx;
	unsigned int i;

	sha256_init(&sctx);
	for (i = 0; i < nvec; i++)
		sha256_update(&sctx, vec[i].iov_base, vec[i].iov_len);
	sha256_final(&sctx, digest);
}

/**
 * hornet_check_signed - verify a signed load against the maps it was bound
 * @prog: the program, after the verifier, before it has an id
 * @pending: the signature and the instructions, from the start of the load
 * @res: filled with the verdict, its errno and the signer
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
	int err;

	res->verdict = pending->keyring_verdict;
	if (res->verdict == HORNET_OK)
		res->verdict = hornet_payload_vec(prog, pending, &vec);
	if (res->verdict != HORNET_OK) {
		res->err = res->verdict == HORNET_ERROR ? -ENOMEM :
			   hornet_verdict_errno(res->verdict);
		goto out;
	}
	err = hornet_verify_payload(pending->sig, pending->sig_len, vec, nvec,
				    keyring, res);
	if (!res->has_payload) {
		hornet_payload_digest(vec, nvec, res->payload);
		res->has_payload = true;
	}
	res->verdict = hornet_classify(err);
	res->err = res->verdict == HORNET_ERROR ? err :
		   hornet_verdict_errno(res->verdict);
out:
	kfree(vec);
}

/**
 * hornet_core_refused - whether the BPF core refuses a load whatever Hornet
 *			 decides
 * @prog: the program being loaded
 * @res: left alone
 *
 * The 6.12 core checks no signature, so it refuses nothing on that account.
 *
 * Return: 0.
 */
int hornet_core_refused(const struct bpf_prog *prog, struct hornet_result *res)
{
	return 0;
}

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST
#include <kunit/test.h>

/**
 * hornet_test_classify - each error of the PKCS#7 code gets its verdict
 * @test: the KUnit test context
 */
static void hornet_test_classify(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, hornet_classify(-EKEYREJECTED), HORNET_BADSIG);
	KUNIT_EXPECT_EQ(test, hornet_classify(-ENOKEY), HORNET_UNKNOWNKEY);
	KUNIT_EXPECT_EQ(test, hornet_classify(-EBADMSG), HORNET_MALFORMED);
	KUNIT_EXPECT_EQ(test, hornet_classify(-EMSGSIZE), HORNET_MALFORMED);
	KUNIT_EXPECT_EQ(test, hornet_classify(-ENOPKG), HORNET_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, hornet_classify(-ENOMEM), HORNET_ERROR);
}

static struct kunit_case hornet_verify_test_cases[] = {
	KUNIT_CASE(hornet_test_classify),
	{}
};

static struct kunit_suite hornet_verify_test_suite = {
	.name = "hornet_verify",
	.test_cases = hornet_verify_test_cases,
};

kunit_test_suite(hornet_verify_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
