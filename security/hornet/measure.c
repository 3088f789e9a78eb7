// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: measuring decisions into IMA.
 *
 * Each decision on a userspace load, and each change of the mode, the
 * accepted keyrings or the lock, is measured as IMA critical data into
 * CONFIG_SECURITY_HORNET_IMA_PCR, with the ima-buf template. No IMA policy
 * rule decides whether or where: a rule root loads at run time could
 * otherwise send the records elsewhere, or nowhere, and leave the quoted
 * PCR to a history of root's making. The state Hornet booted in is
 * measured at the end of boot, before init runs, so the first record of
 * every list is the state record with seq=1.
 *
 * The buffer of each entry is one line of ASCII, "key=value" pairs in a
 * fixed order (Documentation/admin-guide/LSM/Hornet.rst):
 *
 *   hornet-load:  version=2 mode= verdict= allowed= tag= payload= skid=
 *                 spki= keyring=
 *   hornet-state: version=2 seq= mode= keyrings= locked= pcr=
 *
 * Version 2 of the load record added spki=, the SHA-256 of the signer's
 * key: a key id alone is what anyone may write in a certificate. Version
 * 2 of the state record added pcr=, the PCR every record goes to, so that
 * a verifier knows the records it quotes are all there are.
 *
 * A load record carries no counter, so IMA measures identical decisions
 * once: the list grows with the distinct loaders a host runs, not with how
 * often it runs them. A state record carries a sequence number, so that
 * every change is measured and the last one in the list is the state the
 * host is in.
 *
 * IMA finds a record it holds already only after hashing it into every
 * bank and building its entry, and it audits each such duplicate; a loader
 * run again and again makes the same record every time. So Hornet keeps
 * the load records IMA has taken (never freed, as IMA never frees its
 * list: they grow together) and skips the call for those.
 */

#include <linux/bpf.h>
#include <linux/hashtable.h>
#include <linux/hex.h>
#include <linux/ima.h>
#include <linux/init.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/stringify.h>

#include "hornet.h"

#define HORNET_LOAD_RECORD_VERSION	2
#define HORNET_STATE_RECORD_VERSION	2

/*
 * Both written under hornet_policy_mutex; the load path reads
 * hornet_state_measured without it first, to skip the mutex once a state
 * record is in the list.
 */
static u64 hornet_state_seq;
static bool hornet_state_measured;

/**
 * struct hornet_measured - a load record IMA has in its list
 * @node: in hornet_measured_records, under hornet_measured_lock; read
 *	  under RCU, never removed
 * @hash: jhash() of the record
 * @len: the record's length
 * @rec: the record, not NUL-terminated
 */
struct hornet_measured {
	struct hlist_node node;
	u32 hash;
	u32 len;
	char rec[];
};

static DEFINE_HASHTABLE(hornet_measured_records, 10);
static DEFINE_SPINLOCK(hornet_measured_lock);

/**
 * hornet_signer_skid - find the key id at the end of a signer's description
 * @desc: "subject: key-id", as the PKCS#7 code describes a trusted signer
 * @skid: gets the key id, lowercase hex, or "-" if @desc ends in none
 * @size: the size of @skid, at least 2
 *
 * The key id is the certificate's subjectKeyIdentifier; a key whose
 * certificate has none is described by its serial number instead.
 */
void hornet_signer_skid(const char *desc, char *skid, size_t size)
{
	const char *id = NULL, *p;
	size_t len;

	for (p = desc; (p = strstr(p, ": ")); p += 2)
		id = p + 2;
	strscpy(skid, "-", size);
	if (!id)
		return;
	len = strlen(id);
	if (!len || len >= size || strspn(id, "0123456789abcdef") != len)
		return;
	memcpy(skid, id, len + 1);
}

/**
 * hornet_format_load - write the record of a decision on a userspace load
 * @buf: the buffer
 * @size: its size
 * @tag: the program's tag
 * @res: the verdict, the payload's digest and the signer
 * @mode: the mode the load was judged in
 * @allowed: whether the load goes on
 *
 * The payload and the keyring are "-" for a load that carried no
 * signature, the key id and the key's hash "-" for one that was not
 * verified.
 *
 * Return: the length of the record, or -E2BIG if @size is too small.
 */
int hornet_format_load(char *buf, size_t size, const u8 *tag,
		       const struct hornet_result *res, enum hornet_mode mode,
		       bool allowed)
{
	char payload[2 * SHA256_DIGEST_SIZE + 1] = "-";
	char spki[2 * SHA256_DIGEST_SIZE + 1] = "-";
	bool is_signed = res->verdict != HORNET_UNSIGNED;
	bool ok = res->verdict == HORNET_OK;
	const char *keyring = "-";
	int len;

	if (is_signed)
		keyring = hornet_keyring_name(res->keyring_id) ?: "user";
	if (res->has_payload)
		bin2hex(payload, res->payload, SHA256_DIGEST_SIZE)[0] = '\0';
	if (ok && res->has_signer_key)
		bin2hex(spki, res->signer_key, SHA256_DIGEST_SIZE)[0] = '\0';
	len = snprintf(buf, size,
		       "version=%d mode=%s verdict=%s allowed=%d tag=%*phN payload=%s skid=%s spki=%s keyring=%s",
		       HORNET_LOAD_RECORD_VERSION, hornet_mode_name(mode),
		       hornet_verdict_name(res->verdict), allowed,
		       BPF_TAG_SIZE, tag, payload,
		       ok && res->skid[0] ? res->skid : "-", spki,
		       keyring);
	return (size_t)len < size ? len : -E2BIG;
}

/**
 * hornet_format_state - write the record of Hornet's state
 * @buf: the buffer
 * @size: its size
 * @seq: the record's sequence number
 * @policy: the state
 *
 * Return: the length of the record, or -E2BIG if @size is too small.
 */
int hornet_format_state(char *buf, size_t size, u64 seq,
			const struct hornet_policy *policy)
{
	char keyrings[64];
	int len;

	if (hornet_format_keyrings(policy->keyrings, keyrings,
				   sizeof(keyrings)) <= 0)
		strscpy(keyrings, "none", sizeof(keyrings));
	strreplace(keyrings, ' ', ',');
	len = snprintf(buf, size,
		       "version=%d seq=%llu mode=%s keyrings=%s locked=%d pcr=%d",
		       HORNET_STATE_RECORD_VERSION, seq,
		       hornet_mode_name(policy->mode), keyrings, policy->locked,
		       CONFIG_SECURITY_HORNET_IMA_PCR);
	return (size_t)len < size ? len : -E2BIG;
}

/**
 * hornet_measure - hand one record to IMA
 * @event: the event name, "hornet-load" or "hornet-state"
 * @buf: the record
 * @len: its length
 *
 * The record goes to CONFIG_SECURITY_HORNET_IMA_PCR whatever IMA's policy
 * says.
 *
 * Return: 1 if IMA measured it now, 0 if the list holds it already or IMA
 * is not built in or not initialized, or IMA's error.
 */
static int hornet_measure(const char *event, const char *buf, int len)
{
	int err;

	err = ima_measure_critical_data_to_pcr(event, buf, len,
					       CONFIG_SECURITY_HORNET_IMA_PCR);
	switch (err) {
	case 0:
		return 1;
	case -ENOENT:	/* IMA is not built in, or not initialized */
	case -EEXIST:	/* the same entry is in the list already */
		return 0;
	default:
		return err;
	}
}

/**
 * hornet_measured_find - whether IMA has taken a load record already
 * @rec: the record
 * @len: its length
 * @hash: its jhash()
 *
 * The caller holds rcu_read_lock() or hornet_measured_lock.
 *
 * Return: true if hornet_measured_add() remembered @rec.
 */
static bool hornet_measured_find(const char *rec, u32 len, u32 hash)
{
	struct hornet_measured *m;

	hash_for_each_possible_rcu(hornet_measured_records, m, node, hash,
				   lockdep_is_held(&hornet_measured_lock))
		if (m->hash == hash && m->len == len &&
		    !memcmp(m->rec, rec, len))
			return true;
	return false;
}

/**
 * hornet_measured_add - remember a load record IMA has taken
 * @rec: the record
 * @len: its length
 * @hash: its jhash()
 *
 * Also for a record no IMA will take (not built in, or its initialization
 * failed): asking again would measure nothing either. Without memory the
 * record is not remembered, and the next identical decision asks IMA
 * again: nothing is lost but time.
 */
static void hornet_measured_add(const char *rec, u32 len, u32 hash)
{
	struct hornet_measured *m;

	m = kmalloc(struct_size(m, rec, len), GFP_KERNEL);
	if (!m)
		return;
	m->hash = hash;
	m->len = len;
	memcpy(m->rec, rec, len);
	spin_lock(&hornet_measured_lock);
	if (hornet_measured_find(rec, len, hash)) {
		spin_unlock(&hornet_measured_lock);
		kfree(m);
		return;
	}
	hash_add_rcu(hornet_measured_records, &m->node, hash);
	spin_unlock(&hornet_measured_lock);
}

/**
 * hornet_measure_policy - measure one state record
 * @policy: the mode, keyrings and lock to record
 *
 * The caller holds hornet_policy_mutex.
 *
 * Return: 0, or IMA's error.
 */
static int hornet_measure_policy(const struct hornet_policy *policy)
{
	char buf[HORNET_RECORD_MAX];
	int len, err;

	lockdep_assert_held(&hornet_policy_mutex);
	len = hornet_format_state(buf, sizeof(buf), hornet_state_seq + 1,
				  policy);
	if (len < 0)
		return len;
	err = hornet_measure("hornet-state", buf, len);
	if (err < 0)
		return err;
	if (err) {
		hornet_state_seq++;
		WRITE_ONCE(hornet_state_measured, true);
	}
	return 0;
}

/**
 * hornet_measure_boot_state - measure the state Hornet has had since boot,
 * unless a state record is in the list already
 *
 * The caller holds hornet_policy_mutex. An error is left for the next
 * record to meet: a list without a state record fails attestation anyway.
 */
static void hornet_measure_boot_state(void)
{
	if (!hornet_state_measured)
		hornet_measure_policy(&hornet_policy);
}

/**
 * hornet_measure_boot - measure the state Hornet booted in
 *
 * IMA is initialized by now (a late initcall) and init has not run, so
 * the first record of Hornet's PCR is this state record, seq=1. If IMA
 * could not take it, the next record tries again.
 *
 * Return: 0, always: a failure is left for the next record to meet.
 */
static int __init hornet_measure_boot(void)
{
	if (!hornet_enabled)
		return 0;
	mutex_lock(&hornet_policy_mutex);
	hornet_measure_boot_state();
	mutex_unlock(&hornet_policy_mutex);
	return 0;
}
late_initcall_sync(hornet_measure_boot);

/**
 * hornet_measure_state - measure the state Hornet is about to be in
 * @next: the mode, keyrings and lock as they are to be; the caller holds
 *	  hornet_policy_mutex and makes @next current only if this succeeds
 *
 * The state Hornet booted in is measured first, if nothing has measured
 * it yet, so that the list shows where every change started from.
 *
 * Return: 0, or IMA's error; the state must then stay as it is, so that
 * the list never shows another state than the host's.
 */
int hornet_measure_state(const struct hornet_policy *next)
{
	hornet_measure_boot_state();
	return hornet_measure_policy(next);
}

/**
 * hornet_measure_load - measure a decision on a userspace load
 * @prog: the program, tagged
 * @res: the verdict
 * @mode: the mode the load was judged in
 * @allowed: whether the load goes on
 *
 * The first record after boot that IMA takes is preceded by one of the
 * state Hornet is in, so that a list that holds loads always tells the
 * mode they were made under.
 *
 * A record IMA took before is not handed to it again (see the top of
 * this file).
 *
 * Return: 0 if the decision is in the list, or IMA is not built in or not
 * initialized, else IMA's error.
 */
int hornet_measure_load(const struct bpf_prog *prog,
			const struct hornet_result *res, enum hornet_mode mode,
			bool allowed)
{
	char buf[HORNET_RECORD_MAX];
	bool known;
	int len, err;
	u32 hash;

	if (!READ_ONCE(hornet_state_measured)) {
		mutex_lock(&hornet_policy_mutex);
		hornet_measure_boot_state();
		mutex_unlock(&hornet_policy_mutex);
	}
	len = hornet_format_load(buf, sizeof(buf), prog->tag, res, mode,
				 allowed);
	if (len < 0)
		return len;
	hash = jhash(buf, len, 0);
	rcu_read_lock();
	known = hornet_measured_find(buf, len, hash);
	rcu_read_unlock();
	if (known)
		return 0;
	err = hornet_measure("hornet-load", buf, len);
	if (err < 0)
		return err;
	hornet_measured_add(buf, len, hash);
	return 0;
}

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST
#include <kunit/test.h>

static const u8 hornet_test_tag[BPF_TAG_SIZE] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef
};

/**
 * hornet_test_load_record_verified - a verified load's record, field by field
 * @test: the KUnit test context
 */
static void hornet_test_load_record_verified(struct kunit *test)
{
	struct hornet_result res = {
		.verdict = HORNET_OK,
		.keyring_id = 1,
		.has_payload = true,
		.skid = "00aa11bb",
		.has_signer_key = true,
	};
	char buf[HORNET_RECORD_MAX];
	int len;

	memset(res.payload, 0x5a, sizeof(res.payload));
	memset(res.signer_key, 0xc3, sizeof(res.signer_key));
	len = hornet_format_load(buf, sizeof(buf), hornet_test_tag, &res,
				 HORNET_MODE_ENFORCE, true);
	KUNIT_EXPECT_STREQ(test, buf,
			   "version=2 mode=enforce verdict=ok allowed=1 tag=0123456789abcdef payload=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a skid=00aa11bb spki=c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3 keyring=secondary");
	KUNIT_EXPECT_EQ(test, len, (int)strlen(buf));
}

/**
 * hornet_test_load_record_unsigned - an unsigned load names no payload,
 * signer or keyring, whatever the attr held
 * @test: the KUnit test context
 */
static void hornet_test_load_record_unsigned(struct kunit *test)
{
	struct hornet_result res = {
		.verdict = HORNET_UNSIGNED,
		.keyring_id = 2,
		.skid = "00aa11bb",
		.has_signer_key = true,
	};
	char buf[HORNET_RECORD_MAX];

	hornet_format_load(buf, sizeof(buf), hornet_test_tag, &res,
			   HORNET_MODE_AUDIT, true);
	KUNIT_EXPECT_STREQ(test, buf,
			   "version=2 mode=audit verdict=unsigned allowed=1 tag=0123456789abcdef payload=- skid=- spki=- keyring=-");
}

/**
 * hornet_test_load_record_refused - a refused signed load keeps its payload
 * and keyring, and names no signer or key
 * @test: the KUnit test context
 */
static void hornet_test_load_record_refused(struct kunit *test)
{
	struct hornet_result res = {
		.verdict = HORNET_BADSIG,
		.keyring_id = 77,
		.has_payload = true,
		.skid = "00aa11bb",
		.has_signer_key = true,
	};
	char buf[HORNET_RECORD_MAX];

	hornet_format_load(buf, sizeof(buf), hornet_test_tag, &res,
			   HORNET_MODE_ENFORCE, false);
	KUNIT_EXPECT_STREQ(test, buf,
			   "version=2 mode=enforce verdict=badsig allowed=0 tag=0123456789abcdef payload=0000000000000000000000000000000000000000000000000000000000000000 skid=- spki=- keyring=user");
}

/**
 * hornet_test_load_record_fits - the longest load record fits the buffer,
 * and a buffer one byte short is refused, never cut
 * @test: the KUnit test context
 */
static void hornet_test_load_record_fits(struct kunit *test)
{
	struct hornet_result res = {
		.verdict = HORNET_OK,
		.keyring_id = 1,
		.has_payload = true,
		.has_signer_key = true,
	};
	char buf[HORNET_RECORD_MAX];
	int len;

	memset(res.skid, 'f', sizeof(res.skid) - 1);
	len = hornet_format_load(buf, sizeof(buf), hornet_test_tag, &res,
				 HORNET_MODE_ENFORCE, false);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, hornet_format_load(buf, len, hornet_test_tag,
						 &res, HORNET_MODE_ENFORCE,
						 false), -E2BIG);
	KUNIT_EXPECT_EQ(test, hornet_format_load(buf, len + 1, hornet_test_tag,
						 &res, HORNET_MODE_ENFORCE,
						 false), len);
}

/**
 * hornet_test_state_record - a state record, with its keyrings comma-joined
 * @test: the KUnit test context
 */
static void hornet_test_state_record(struct kunit *test)
{
	struct hornet_policy p = {
		.mode = HORNET_MODE_ENFORCE,
		.keyrings = HORNET_KEYRING_BUILTIN | HORNET_KEYRING_USER,
		.locked = true,
	};
	char buf[HORNET_RECORD_MAX];

	hornet_format_state(buf, sizeof(buf), 42, &p);
	KUNIT_EXPECT_STREQ(test, buf,
			   "version=2 seq=42 mode=enforce keyrings=builtin,user locked=1 pcr="
			   __stringify(CONFIG_SECURITY_HORNET_IMA_PCR));
	p.mode = HORNET_MODE_OFF;
	p.keyrings = HORNET_KEYRING_ALL;
	p.locked = false;
	hornet_format_state(buf, sizeof(buf), 1, &p);
	KUNIT_EXPECT_STREQ(test, buf,
			   "version=2 seq=1 mode=off keyrings=builtin,secondary,platform,user locked=0 pcr="
			   __stringify(CONFIG_SECURITY_HORNET_IMA_PCR));
}

/**
 * hornet_test_signer_skid - the key id is the hex after the last ": "
 * @test: the KUnit test context
 */
static void hornet_test_signer_skid(struct kunit *test)
{
	char skid[HORNET_SKID_MAX];

	hornet_signer_skid("Hornet build key: 5c1d00ff", skid, sizeof(skid));
	KUNIT_EXPECT_STREQ(test, skid, "5c1d00ff");
	hornet_signer_skid("O=a: b, CN=c: d: 0a0b", skid, sizeof(skid));
	KUNIT_EXPECT_STREQ(test, skid, "0a0b");
	hornet_signer_skid("CN=no key id", skid, sizeof(skid));
	KUNIT_EXPECT_STREQ(test, skid, "-");
	hornet_signer_skid("CN=x: not-hex", skid, sizeof(skid));
	KUNIT_EXPECT_STREQ(test, skid, "-");
	hornet_signer_skid("CN=x: ", skid, sizeof(skid));
	KUNIT_EXPECT_STREQ(test, skid, "-");
	hornet_signer_skid("CN=x: 0a0b", skid, 4);
	KUNIT_EXPECT_STREQ(test, skid, "-");
	hornet_signer_skid("CN=x: 0a0b", skid, 5);
	KUNIT_EXPECT_STREQ(test, skid, "0a0b");
}

/**
 * hornet_test_measured_records - a remembered record is found by its whole
 * text, once, and a record that differs in any byte or in length is not
 * @test: the KUnit test context
 */
static void hornet_test_measured_records(struct kunit *test)
{
	static const char rec[] = "kunit: a record no load makes, a";
	static const char other[] = "kunit: a record no load makes, b";
	u32 len = sizeof(rec) - 1, hash = jhash(rec, len, 0);
	bool before, found, same_hash, other_hash, shorter;
	struct hornet_measured *m;
	int n = 0;

	/*
	 * Looked up under RCU, judged after: a failed expectation may sleep,
	 * which an RCU read-side section must not.
	 */
	rcu_read_lock();
	before = hornet_measured_find(rec, len, hash);
	rcu_read_unlock();
	hornet_measured_add(rec, len, hash);
	hornet_measured_add(rec, len, hash);
	rcu_read_lock();
	found = hornet_measured_find(rec, len, hash);
	same_hash = hornet_measured_find(other, len, hash);
	other_hash = hornet_measured_find(other, len, jhash(other, len, 0));
	shorter = hornet_measured_find(rec, len - 1, hash);
	hash_for_each_possible_rcu(hornet_measured_records, m, node, hash)
		if (m->len == len && !memcmp(m->rec, rec, len))
			n++;
	rcu_read_unlock();
	KUNIT_EXPECT_FALSE(test, before);
	KUNIT_EXPECT_TRUE(test, found);
	KUNIT_EXPECT_FALSE(test, same_hash);
	KUNIT_EXPECT_FALSE(test, other_hash);
	KUNIT_EXPECT_FALSE(test, shorter);
	KUNIT_EXPECT_EQ(test, n, 1);
}

static struct kunit_case hornet_measure_test_cases[] = {
	KUNIT_CASE(hornet_test_load_record_verified),
	KUNIT_CASE(hornet_test_load_record_unsigned),
	KUNIT_CASE(hornet_test_load_record_refused),
	KUNIT_CASE(hornet_test_load_record_fits),
	KUNIT_CASE(hornet_test_state_record),
	KUNIT_CASE(hornet_test_signer_skid),
	KUNIT_CASE(hornet_test_measured_records),
	{}
};

static struct kunit_suite hornet_measure_test_suite = {
	.name = "hornet_measure",
	.test_cases = hornet_measure_test_cases,
};

kunit_test_suite(hornet_measure_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
