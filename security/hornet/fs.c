// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: the securityfs interface, /sys/kernel/security/hornet/.
 *
 *   mode      rw  off|audit|enforce, plus " locked" once locked;
 *                 write a mode or "lock"
 *   keyrings  rw  the accepted keyrings, e.g. "builtin secondary"
 *   counters  r   "seen N", "verified N", "refused N", "audited N"
 *   programs  r   the live programs and where they came from (root only:
 *                 it names every signer and loader)
 *
 * Writes need CAP_MAC_ADMIN and are audited, refused ones included.
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "hornet.h"

/* Longest write accepted by any file: the four keyring names and spaces. */
#define HORNET_WRITE_MAX	64

/**
 * hornet_read_string - copy a short generated string to userspace
 * @buf: the user buffer
 * @count: its size
 * @ppos: the file position
 * @text: the NUL-terminated contents of the file
 *
 * Return: the number of bytes read, or a negative errno.
 */
static ssize_t hornet_read_string(char __user *buf, size_t count,
				  loff_t *ppos, const char *text)
{
	return simple_read_from_buffer(buf, count, ppos, text, strlen(text));
}

/**
 * hornet_copy_write - check the caller and copy a write into the kernel
 * @file: the file written to
 * @op: what the write changes, for the audit record of a refused write
 * @ubuf: the user data
 * @count: its length
 *
 * Return: a NUL-terminated copy to kfree(), or an ERR_PTR: -EPERM without
 * CAP_MAC_ADMIN (audited), -EINVAL for an empty or overlong write, -EFAULT.
 */
static char *hornet_copy_write(struct file *file, const char *op,
			       const char __user *ubuf, size_t count)
{
	if (!file_ns_capable(file, &init_user_ns, CAP_MAC_ADMIN)) {
		hornet_audit_config(op, "?", "?", -EPERM);
		return ERR_PTR(-EPERM);
	}
	if (!count || count > HORNET_WRITE_MAX)
		return ERR_PTR(-EINVAL);
	return memdup_user_nul(ubuf, count);
}

/**
 * hornet_mode_text - the mode file's text for a policy
 * @mode: the mode
 * @locked: whether the policy is locked
 * @buf: a buffer of at least 24 bytes
 *
 * Return: @buf.
 */
static char *hornet_mode_text(enum hornet_mode mode, bool locked, char *buf)
{
	sprintf(buf, "%s%s", hornet_mode_name(mode), locked ? " locked" : "");
	return buf;
}

/**
 * hornet_mode_read - show the mode
 * @file: the mode file
 * @buf: the user buffer
 * @count: its size
 * @ppos: the file position
 *
 * Return: the number of bytes read, or a negative errno.
 */
static ssize_t hornet_mode_read(struct file *file, char __user *buf,
				size_t count, loff_t *ppos)
{
	char text[32];

	hornet_mode_text(READ_ONCE(hornet_policy.mode),
			 READ_ONCE(hornet_policy.locked), text);
	strcat(text, "\n");
	return hornet_read_string(buf, count, ppos, text);
}

/**
 * hornet_policy_apply - measure a new policy, then make it the current one
 * @next: the mode, keyrings and lock as they are to be; the caller holds
 *	  hornet_policy_mutex
 *
 * Return: 0, or the error IMA gave measuring @next: the policy then stays
 * as it was, so that the measurement list always shows the host's state.
 */
static int hornet_policy_apply(const struct hornet_policy *next)
{
	int err;

	err = hornet_measure_state(next);
	if (err)
		return err;
	WRITE_ONCE(hornet_policy.mode, next->mode);
	WRITE_ONCE(hornet_policy.keyrings, next->keyrings);
	WRITE_ONCE(hornet_policy.locked, next->locked);
	return 0;
}

/**
 * hornet_mode_write - set the mode, or lock the policy
 * @file: the mode file
 * @ubuf: "off", "audit", "enforce" or "lock"
 * @count: the length of @ubuf
 * @ppos: the file position (unused)
 *
 * Return:
 * * @count	- the mode was set or the policy locked
 * * %-EPERM	- no CAP_MAC_ADMIN, or the policy is locked
 * * %-EINVAL	- not a mode nor "lock"
 * * %-EFAULT	- @ubuf could not be read
 * * other	- IMA could not measure the new state; nothing changed
 */
static ssize_t hornet_mode_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct hornet_policy next;
	char old[32], new[32];
	enum hornet_mode mode;
	bool lock;
	char *buf;
	int err;

	buf = hornet_copy_write(file, "mode", ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	err = hornet_parse_mode(buf, &mode, &lock);
	kfree(buf);
	if (err)
		return err;

	mutex_lock(&hornet_policy_mutex);
	next = hornet_policy;
	hornet_mode_text(next.mode, next.locked, old);
	if (lock) {
		err = hornet_policy_lock(&next);
		hornet_mode_text(next.mode, true, new);
	} else {
		err = hornet_policy_set_mode(&next, mode);
		hornet_mode_text(mode, next.locked, new);
	}
	if (!err)
		err = hornet_policy_apply(&next);
	hornet_audit_config(lock ? "lock" : "mode", old, new, err);
	mutex_unlock(&hornet_policy_mutex);
	return err ?: count;
}

/**
 * hornet_keyrings_read - show the accepted keyrings
 * @file: the keyrings file
 * @buf: the user buffer
 * @count: its size
 * @ppos: the file position
 *
 * Return: the number of bytes read, or a negative errno.
 */
static ssize_t hornet_keyrings_read(struct file *file, char __user *buf,
				    size_t count, loff_t *ppos)
{
	char text[HORNET_WRITE_MAX];
	int len;

	len = hornet_format_keyrings(READ_ONCE(hornet_policy.keyrings), text,
				     sizeof(text) - 1);
	text[len] = '\n';
	text[len + 1] = '\0';
	return hornet_read_string(buf, count, ppos, text);
}

/**
 * hornet_keyrings_write - replace the accepted keyrings
 * @file: the keyrings file
 * @ubuf: keyring names, e.g. "builtin secondary user"
 * @count: the length of @ubuf
 * @ppos: the file position (unused)
 *
 * Return:
 * * @count	- the policy now accepts exactly the keyrings named
 * * %-EPERM	- no CAP_MAC_ADMIN, or the policy is locked
 * * %-EINVAL	- an unknown or repeated name, or none
 * * %-EFAULT	- @ubuf could not be read
 * * other	- IMA could not measure the new state; nothing changed
 */
static ssize_t hornet_keyrings_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	char old[HORNET_WRITE_MAX], new[HORNET_WRITE_MAX];
	struct hornet_policy next;
	u32 keyrings;
	char *buf;
	int err;

	buf = hornet_copy_write(file, "keyrings", ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	err = hornet_parse_keyrings(buf, &keyrings);
	kfree(buf);
	if (err)
		return err;

	mutex_lock(&hornet_policy_mutex);
	next = hornet_policy;
	hornet_format_keyrings(next.keyrings, old, sizeof(old));
	hornet_format_keyrings(keyrings, new, sizeof(new));
	err = hornet_policy_set_keyrings(&next, keyrings);
	if (!err)
		err = hornet_policy_apply(&next);
	hornet_audit_config("keyrings", old, new, err);
	mutex_unlock(&hornet_policy_mutex);
	return err ?: count;
}

/**
 * hornet_counters_read - show the counters
 * @file: the counters file
 * @buf: the user buffer
 * @count: its size
 * @ppos: the file position
 *
 * Return: the number of bytes read, or a negative errno.
 */
static ssize_t hornet_counters_read(struct file *file, char __user *buf,
				    size_t count, loff_t *ppos)
{
	char text[128];

	scnprintf(text, sizeof(text),
		  "seen %lld\nverified %lld\nrefused %lld\naudited %lld\n",
		  atomic64_read(&hornet_counters.seen),
		  atomic64_read(&hornet_counters.verified),
		  atomic64_read(&hornet_counters.refused),
		  atomic64_read(&hornet_counters.audited));
	return hornet_read_string(buf, count, ppos, text);
}

/**
 * hornet_programs_open - open the list of live programs
 * @inode: the programs file's inode
 * @file: the file being opened
 *
 * Return: 0, or -ENOMEM.
 */
static int hornet_programs_open(struct inode *inode, struct file *file)
{
	return single_open(file, hornet_prov_show, NULL);
}

static const struct file_operations hornet_programs_fops = {
	.open = hornet_programs_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct file_operations hornet_mode_fops = {
	.read = hornet_mode_read,
	.write = hornet_mode_write,
	.llseek = generic_file_llseek,
};

static const struct file_operations hornet_keyrings_fops = {
	.read = hornet_keyrings_read,
	.write = hornet_keyrings_write,
	.llseek = generic_file_llseek,
};

static const struct file_operations hornet_counters_fops = {
	.read = hornet_counters_read,
	.llseek = generic_file_llseek,
};

/**
 * struct hornet_fs_file - one file of /sys/kernel/security/hornet/
 * @name: its name
 * @mode: its permissions
 * @fops: its operations
 */
struct hornet_fs_file {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
};

static const struct hornet_fs_file hornet_fs_files[] = {
	{ "mode", 0600, &hornet_mode_fops },
	{ "keyrings", 0600, &hornet_keyrings_fops },
	{ "counters", 0444, &hornet_counters_fops },
	{ "programs", 0400, &hornet_programs_fops },
};

static struct dentry *hornet_dir, *hornet_dentries[ARRAY_SIZE(hornet_fs_files)];

/**
 * hornet_fs_init - create /sys/kernel/security/hornet/
 *
 * Nothing is created when Hornet is not in the LSM list.
 *
 * Return: 0, or the error of the first entry that could not be created,
 * after removing what was created before it, in reverse order.
 */
static int __init hornet_fs_init(void)
{
	struct dentry *d;
	int i;

	if (!hornet_enabled)
		return 0;

	hornet_dir = securityfs_create_dir("hornet", NULL);
	if (IS_ERR(hornet_dir))
		return PTR_ERR(hornet_dir);

	for (i = 0; i < ARRAY_SIZE(hornet_fs_files); i++) {
		const struct hornet_fs_file *f = &hornet_fs_files[i];

		d = securityfs_create_file(f->name, f->mode, hornet_dir, NULL,
					   f->fops);
		if (IS_ERR(d))
			goto err;
		hornet_dentries[i] = d;
	}
	return 0;

err:
	while (i--)
		securityfs_remove(hornet_dentries[i]);
	securityfs_remove(hornet_dir);
	return PTR_ERR(d);
}

fs_initcall(hornet_fs_init);
