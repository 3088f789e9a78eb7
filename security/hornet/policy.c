// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: the mode, the lock and the accepted-keyring policy.
 *
 * The policy is one small struct. Writers (securityfs, the boot parameter)
 * serialise on hornet_policy_mutex; the load hook reads each field once
 * with READ_ONCE() and never sleeps on the mutex.
 */

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "hornet.h"

struct hornet_policy hornet_policy = {
	.mode = IS_ENABLED(CONFIG_SECURITY_HORNET_MODE_ENFORCE) ?
			HORNET_MODE_ENFORCE :
		IS_ENABLED(CONFIG_SECURITY_HORNET_MODE_OFF) ?
			HORNET_MODE_OFF : HORNET_MODE_AUDIT,
	.keyrings = HORNET_KEYRING_DEFAULT,
};

/* Serialises writers of hornet_policy; the load hook never takes it. */
DEFINE_MUTEX(hornet_policy_mutex);

static const char *const hornet_mode_names[HORNET_MODE_MAX] = {
	[HORNET_MODE_OFF] = "off",
	[HORNET_MODE_AUDIT] = "audit",
	[HORNET_MODE_ENFORCE] = "enforce",
};

/*
 * In bit order of HORNET_KEYRING_*, which is also the order of the
 * keyring_id values 0, 1 and 2 that ask for the system keyrings.
 */
static const char *const hornet_keyring_names[] = {
	"builtin", "secondary", "platform", "user",
};

/**
 * hornet_mode_name - the name of a mode, as securityfs and audit show it
 * @mode: an enum hornet_mode
 *
 * Return: "off", "audit", "enforce", or "?" for anything else.
 */
const char *hornet_mode_name(enum hornet_mode mode)
{
	if (mode >= HORNET_MODE_MAX)
		return "?";
	return hornet_mode_names[mode];
}

/**
 * hornet_keyring_name - name a system keyring that keyring_id asks for
 * @id: keyring_id from BPF_PROG_LOAD: 0, 1 and 2 ask for the builtin,
 *	secondary and platform keyrings; anything else is a keyring's serial
 *
 * Return: the keyring's name as the policy spells it, or NULL for an id
 * that names a user keyring.
 */
const char *hornet_keyring_name(s32 id)
{
	BUILD_BUG_ON(BIT(0) != HORNET_KEYRING_BUILTIN ||
		     BIT(1) != HORNET_KEYRING_SECONDARY ||
		     BIT(2) != HORNET_KEYRING_PLATFORM);
	if (id < 0 || id > 2)
		return NULL;
	return hornet_keyring_names[id];
}

/**
 * hornet_parse_mode - parse what was written to the mode file
 * @buf: a NUL-terminated word, with or without a trailing newline
 * @mode: set to the mode named, unless the word is "lock"
 * @lock: set to true for "lock", false otherwise
 *
 * Return:
 * * %0		- a mode or "lock" was parsed
 * * %-EINVAL	- anything else
 */
int hornet_parse_mode(const char *buf, enum hornet_mode *mode, bool *lock)
{
	int i;

	*lock = false;
	if (sysfs_streq(buf, "lock")) {
		*lock = true;
		return 0;
	}
	i = sysfs_match_string(hornet_mode_names, buf);
	if (i < 0)
		return -EINVAL;
	*mode = i;
	return 0;
}

/**
 * hornet_parse_keyrings - parse an accepted-keyring list
 * @buf: NUL-terminated keyring names separated by spaces, tabs or commas
 * @keyrings: set to the HORNET_KEYRING_* bits named
 *
 * Each of "builtin", "secondary", "platform" and "user" may appear once.
 *
 * Return:
 * * %0		- @keyrings holds at least one keyring
 * * %-EINVAL	- an unknown or repeated name, or no name at all
 */
int hornet_parse_keyrings(const char *buf, u32 *keyrings)
{
	const char *p = buf;
	u32 mask = 0;

	for (;;) {
		size_t len;
		int i, found = -1;

		p = skip_spaces(p);
		while (*p == ',')
			p = skip_spaces(p + 1);
		if (!*p)
			break;
		len = strcspn(p, " \t\n,");
		for (i = 0; i < ARRAY_SIZE(hornet_keyring_names); i++) {
			if (strlen(hornet_keyring_names[i]) == len &&
			    !strncmp(p, hornet_keyring_names[i], len))
				found = i;
		}
		if (found < 0 || (mask & BIT(found)))
			return -EINVAL;
		mask |= BIT(found);
		p += len;
	}
	if (!mask)
		return -EINVAL;
	*keyrings = mask;
	return 0;
}

/**
 * hornet_format_keyrings - write the names of a keyring set
 * @keyrings: HORNET_KEYRING_* bits
 * @buf: where to write the space-separated names, NUL-terminated
 * @size: size of @buf
 *
 * Return: the length written, without the NUL.
 */
int hornet_format_keyrings(u32 keyrings, char *buf, size_t size)
{
	int i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(hornet_keyring_names); i++) {
		if (keyrings & BIT(i))
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? " " : "",
					 hornet_keyring_names[i]);
	}
	return len;
}

/**
 * hornet_policy_set_mode - change the mode
 * @policy: the policy to change; the caller serialises writers
 * @mode: the new mode
 *
 * Return:
 * * %0		- the mode is now @mode
 * * %-EPERM	- the policy is locked
 * * %-EINVAL	- @mode is not a mode
 */
int hornet_policy_set_mode(struct hornet_policy *policy, enum hornet_mode mode)
{
	if (mode >= HORNET_MODE_MAX)
		return -EINVAL;
	if (policy->locked)
		return -EPERM;
	WRITE_ONCE(policy->mode, mode);
	return 0;
}

/**
 * hornet_policy_lock - make the mode and the keyring policy permanent
 * @policy: the policy to lock; the caller serialises writers
 *
 * Return:
 * * %0		- the policy is now locked until reboot
 * * %-EPERM	- it was locked already
 */
int hornet_policy_lock(struct hornet_policy *policy)
{
	if (policy->locked)
		return -EPERM;
	WRITE_ONCE(policy->locked, true);
	return 0;
}

/**
 * hornet_policy_set_keyrings - change the accepted keyrings
 * @policy: the policy to change; the caller serialises writers
 * @keyrings: HORNET_KEYRING_* bits, at least one
 *
 * Return:
 * * %0		- the accepted keyrings are now @keyrings
 * * %-EPERM	- the policy is locked
 * * %-EINVAL	- @keyrings is empty or names an unknown keyring
 */
int hornet_policy_set_keyrings(struct hornet_policy *policy, u32 keyrings)
{
	if (!keyrings || (keyrings & ~HORNET_KEYRING_ALL))
		return -EINVAL;
	if (policy->locked)
		return -EPERM;
	WRITE_ONCE(policy->keyrings, keyrings);
	return 0;
}

/**
 * hornet_mode_setup - handle the hornet.mode= boot parameter
 * @str: "off", "audit" or "enforce"
 *
 * An unknown value leaves the Kconfig default in place and says so.
 *
 * Return: 0, or -EINVAL for an unknown value.
 */
static int __init hornet_mode_setup(char *str)
{
	enum hornet_mode mode;
	bool lock;

	if (!str || hornet_parse_mode(str, &mode, &lock) || lock) {
		pr_warn("hornet: ignoring hornet.mode=%s\n", str ?: "");
		return -EINVAL;
	}
	hornet_policy.mode = mode;
	return 0;
}
early_param("hornet.mode", hornet_mode_setup);

/**
 * hornet_lock_setup - handle the hornet.lock= boot parameter
 * @str: a boolean; "1" locks the mode and the keyring policy at boot
 *
 * With the policy locked from the start, no write to securityfs can change
 * it before an attacker's first chance to try.
 *
 * Return: 0, or -EINVAL for a value that is not a boolean.
 */
static int __init hornet_lock_setup(char *str)
{
	bool lock;

	if (!str || kstrtobool(str, &lock)) {
		pr_warn("hornet: ignoring hornet.lock=%s\n", str ?: "");
		return -EINVAL;
	}
	hornet_policy.locked = lock;
	return 0;
}
early_param("hornet.lock", hornet_lock_setup);

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST
#include <kunit/test.h>

struct hornet_keyrings_case {
	const char *input;
	int err;
	u32 keyrings;
};

static const struct hornet_keyrings_case hornet_keyrings_cases[] = {
	{ "builtin", 0, HORNET_KEYRING_BUILTIN },
	{ "builtin secondary\n", 0, HORNET_KEYRING_DEFAULT },
	{ " user,platform ", 0, HORNET_KEYRING_USER | HORNET_KEYRING_PLATFORM },
	{ "builtin\tsecondary platform user", 0, HORNET_KEYRING_ALL },
	{ "", -EINVAL, 0 },
	{ "\t\n", -EINVAL, 0 },
	{ ",", -EINVAL, 0 },
	{ "builtin builtin", -EINVAL, 0 },
	{ "builtins", -EINVAL, 0 },
	{ "built", -EINVAL, 0 },
	{ "secondary machine", -EINVAL, 0 },
	{ "BUILTIN", -EINVAL, 0 },
};

/**
 * hornet_test_parse_keyrings - each accepted-keyring input parses to its set or -EINVAL
 * @test: the KUnit test context
 */
static void hornet_test_parse_keyrings(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hornet_keyrings_cases); i++) {
		const struct hornet_keyrings_case *c = &hornet_keyrings_cases[i];
		u32 keyrings = 0xdead;

		KUNIT_EXPECT_EQ_MSG(test, hornet_parse_keyrings(c->input, &keyrings),
				    c->err, "input '%s'", c->input);
		KUNIT_EXPECT_EQ_MSG(test, keyrings, c->err ? 0xdead : c->keyrings,
				    "input '%s'", c->input);
	}
}

/**
 * hornet_test_format_keyrings - keyring sets print in bit order and parse back
 * @test: the KUnit test context
 */
static void hornet_test_format_keyrings(struct kunit *test)
{
	char buf[64];
	u32 keyrings;

	hornet_format_keyrings(HORNET_KEYRING_DEFAULT, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "builtin secondary");
	hornet_format_keyrings(HORNET_KEYRING_ALL, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "builtin secondary platform user");
	KUNIT_ASSERT_EQ(test, hornet_parse_keyrings(buf, &keyrings), 0);
	KUNIT_EXPECT_EQ(test, keyrings, HORNET_KEYRING_ALL);
}

/**
 * hornet_test_parse_mode - mode words and "lock" parse; anything else is -EINVAL
 * @test: the KUnit test context
 */
static void hornet_test_parse_mode(struct kunit *test)
{
	enum hornet_mode mode = HORNET_MODE_MAX;
	bool lock = true;

	KUNIT_EXPECT_EQ(test, hornet_parse_mode("enforce\n", &mode, &lock), 0);
	KUNIT_EXPECT_EQ(test, mode, HORNET_MODE_ENFORCE);
	KUNIT_EXPECT_FALSE(test, lock);
	KUNIT_EXPECT_EQ(test, hornet_parse_mode("off", &mode, &lock), 0);
	KUNIT_EXPECT_EQ(test, mode, HORNET_MODE_OFF);
	KUNIT_EXPECT_EQ(test, hornet_parse_mode("lock\n", &mode, &lock), 0);
	KUNIT_EXPECT_TRUE(test, lock);
	KUNIT_EXPECT_EQ(test, hornet_parse_mode("enforcing", &mode, &lock), -EINVAL);
	KUNIT_EXPECT_EQ(test, hornet_parse_mode("", &mode, &lock), -EINVAL);
	KUNIT_EXPECT_EQ(test, hornet_parse_mode("audit audit", &mode, &lock), -EINVAL);
}

/**
 * hornet_test_mode_transitions - an unlocked policy takes any mode and keyring set
 * @test: the KUnit test context
 */
static void hornet_test_mode_transitions(struct kunit *test)
{
	struct hornet_policy p = { .mode = HORNET_MODE_AUDIT,
				   .keyrings = HORNET_KEYRING_DEFAULT };

	KUNIT_EXPECT_EQ(test, hornet_policy_set_mode(&p, HORNET_MODE_ENFORCE), 0);
	KUNIT_EXPECT_EQ(test, p.mode, HORNET_MODE_ENFORCE);
	KUNIT_EXPECT_EQ(test, hornet_policy_set_mode(&p, HORNET_MODE_OFF), 0);
	KUNIT_EXPECT_EQ(test, p.mode, HORNET_MODE_OFF);
	KUNIT_EXPECT_EQ(test, hornet_policy_set_mode(&p, HORNET_MODE_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, p.mode, HORNET_MODE_OFF);
	KUNIT_EXPECT_EQ(test, hornet_policy_set_keyrings(&p, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, hornet_policy_set_keyrings(&p, BIT(7)), -EINVAL);
	KUNIT_EXPECT_EQ(test, hornet_policy_set_keyrings(&p, HORNET_KEYRING_ALL), 0);
	KUNIT_EXPECT_EQ(test, p.keyrings, HORNET_KEYRING_ALL);
}

/**
 * hornet_test_lock - after lock, no mode, keyring or second lock is accepted
 * @test: the KUnit test context
 */
static void hornet_test_lock(struct kunit *test)
{
	struct hornet_policy p = { .mode = HORNET_MODE_ENFORCE,
				   .keyrings = HORNET_KEYRING_DEFAULT };

	KUNIT_EXPECT_EQ(test, hornet_policy_lock(&p), 0);
	KUNIT_EXPECT_TRUE(test, p.locked);
	KUNIT_EXPECT_EQ(test, hornet_policy_set_mode(&p, HORNET_MODE_AUDIT), -EPERM);
	KUNIT_EXPECT_EQ(test, hornet_policy_set_mode(&p, HORNET_MODE_ENFORCE), -EPERM);
	KUNIT_EXPECT_EQ(test, hornet_policy_set_keyrings(&p, HORNET_KEYRING_ALL), -EPERM);
	KUNIT_EXPECT_EQ(test, hornet_policy_lock(&p), -EPERM);
	KUNIT_EXPECT_EQ(test, p.mode, HORNET_MODE_ENFORCE);
	KUNIT_EXPECT_EQ(test, p.keyrings, HORNET_KEYRING_DEFAULT);
}

static struct kunit_case hornet_policy_test_cases[] = {
	KUNIT_CASE(hornet_test_parse_keyrings),
	KUNIT_CASE(hornet_test_format_keyrings),
	KUNIT_CASE(hornet_test_parse_mode),
	KUNIT_CASE(hornet_test_mode_transitions),
	KUNIT_CASE(hornet_test_lock),
	{}
};

static struct kunit_suite hornet_policy_test_suite = {
	.name = "hornet_policy",
	.test_cases = hornet_policy_test_cases,
};

kunit_test_suite(hornet_policy_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
