// Proves: bpf_btf_find_by_name_kind() in a syscall program returns the same id as parsing /sys/kernel/btf/vmlinux, and -ENOENT/-EINVAL when it must.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/btf.h>

#include "seed_btf.h"
#include "seed_btf.lskel.h"
#include "btf_walk.h"
#include "tlib.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

struct btf_blob {
	char *data;
	size_t size;
	const struct btf_header *hdr;
};

static void btf_read(struct btf_blob *b)
{
	size_t cap = 1 << 20;
	ssize_t n;
	int fd;

	/* sysfs reports no useful size; read until EOF. */
	fd = open(VMLINUX_BTF, O_RDONLY);
	expect(fd >= 0, "open %s: %s", VMLINUX_BTF, strerror(errno));
	b->data = malloc(cap);
	b->size = 0;
	while (b->data && (n = read(fd, b->data + b->size, cap - b->size)) > 0) {
		b->size += n;
		if (b->size == cap)
			b->data = realloc(b->data, cap *= 2);
	}
	expect(b->data && n == 0, "read %s failed", VMLINUX_BTF);
	close(fd);

	b->hdr = (const void *)b->data;
	expect(b->size >= sizeof(*b->hdr) && b->hdr->magic == BTF_MAGIC &&
	       b->hdr->hdr_len + b->hdr->str_off + b->hdr->str_len <= b->size &&
	       b->hdr->hdr_len + b->hdr->type_off + b->hdr->type_len <= b->size,
	       "%s is not a BTF blob I can read", VMLINUX_BTF);
}

/* Bytes that follow struct btf_type for this kind. */
static size_t btf_extra(const struct btf_type *t)
{
	size_t n = btf_type_extra(t);

	if (n == SIZE_MAX)
		tfail("unknown BTF kind %u", BTF_INFO_KIND(t->info));
	return n;
}

/* The first type id with this name and kind, or 0. */
static __u32 btf_find(const struct btf_blob *b, const char *name, __u32 kind)
{
	const char *types = b->data + b->hdr->hdr_len + b->hdr->type_off;
	const char *strs = b->data + b->hdr->hdr_len + b->hdr->str_off;
	const char *p = types, *end = types + b->hdr->type_len;
	__u32 id;

	for (id = 1; p + sizeof(struct btf_type) <= end; id++) {
		const struct btf_type *t = (const void *)p;

		expect(t->name_off < b->hdr->str_len, "type %u: bad name_off", id);
		if (BTF_INFO_KIND(t->info) == kind && !strcmp(strs + t->name_off, name))
			return id;
		p += sizeof(*t) + btf_extra(t);
	}
	expect(p == end, "BTF type section ends mid-type");
	return 0;
}

static long long helper_find(int prog_fd, const char *name, __u32 kind,
			     __u32 flags)
{
	struct seed_btf_ctx ctx = { .kind = kind, .flags = flags, .ret = 0 };
	__u32 retval = ~0U;
	int err;

	expect(strlen(name) < sizeof(ctx.name), "name '%s' too long", name);
	strcpy(ctx.name, name);
	err = sys_prog_run(prog_fd, &ctx, sizeof(ctx), NULL, 0, &retval);
	expect(!err && retval == 0, "BPF_PROG_TEST_RUN: err %d, retval %u",
	       err, retval);
	return ctx.ret;
}

int main(void)
{
	static const struct {
		const char *name;
		__u32 kind;
	} known[] = {
		{ "task_struct", BTF_KIND_STRUCT },
		{ "bpf_attr", BTF_KIND_UNION },
		{ "bpf_prog_type", BTF_KIND_ENUM },
	};
	struct seed_btf *skel;
	struct btf_blob btf;
	long long ret;
	__u32 id;
	size_t i;
	int fd;

	btf_read(&btf);
	skel = seed_btf__open_and_load();
	expect(skel, "seed_btf__open_and_load: %s", strerror(errno));
	fd = skel->progs.seed_btf.prog_fd;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		id = btf_find(&btf, known[i].name, known[i].kind);
		expect(id > 0, "%s (kind %u) is not in %s", known[i].name,
		       known[i].kind, VMLINUX_BTF);
		ret = helper_find(fd, known[i].name, known[i].kind, 0);
		expect(ret == id, "helper says %s (kind %u) is %lld, %s says %u",
		       known[i].name, known[i].kind, ret, VMLINUX_BTF, id);
		tok("%s (kind %u) is BTF id %u both ways", known[i].name,
		    known[i].kind, id);
	}

	/* A name that does not exist, and a real name with the wrong kind. */
	expect(!btf_find(&btf, "hornet_no_such_type", BTF_KIND_STRUCT),
	       "hornet_no_such_type exists");
	ret = helper_find(fd, "hornet_no_such_type", BTF_KIND_STRUCT, 0);
	expect(ret == -ENOENT, "missing name gave %lld, want %d", ret, -ENOENT);
	expect(!btf_find(&btf, "task_struct", BTF_KIND_UNION),
	       "task_struct exists as a union");
	ret = helper_find(fd, "task_struct", BTF_KIND_UNION, 0);
	expect(ret == -ENOENT, "wrong kind gave %lld, want %d", ret, -ENOENT);
	tok("missing name and wrong kind give -ENOENT");

	ret = helper_find(fd, "task_struct", BTF_KIND_STRUCT, 1);
	expect(ret == -EINVAL, "flags 1 gave %lld, want %d", ret, -EINVAL);
	tok("nonzero flags give -EINVAL");

	seed_btf__destroy(skel);
	free(btf.data);
	return 0;
}
