// Proves: a syscall program's bpf_sys_bpf() creates a real map and program for its caller, and bpf_sys_close() really closes an fd.
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "seed_syscall.h"
#include "seed_syscall.lskel.h"
#include "tlib.h"

#define KEY		2
#define MAX_ENTRIES	4
#define VALUE		0x1122334455667788ULL

static void check_map(int map_fd)
{
	struct bpf_map_info info;
	__u32 key;
	__u64 value;
	int fd, err;

	err = sys_obj_info(map_fd, &info, sizeof(info));
	expect(!err, "map info of fd %d: %s", map_fd, strerror(-err));
	expect(info.type == BPF_MAP_TYPE_ARRAY && info.key_size == 4 &&
	       info.value_size == 8 && info.max_entries == MAX_ENTRIES &&
	       !strcmp(info.name, SEED_MAP_NAME),
	       "map is type %u key %u value %u entries %u name '%s'",
	       info.type, info.key_size, info.value_size, info.max_entries,
	       info.name);

	/* Read it back through a new fd, found by id. */
	fd = sys_fd_by_id(BPF_MAP_GET_FD_BY_ID, info.id);
	expect(fd >= 0, "BPF_MAP_GET_FD_BY_ID %u: %s", info.id, strerror(-fd));
	key = KEY;
	err = sys_map_lookup(fd, &key, &value);
	expect(!err, "lookup of key %u: %s", key, strerror(-err));
	expect(value == VALUE, "key %u holds %#llx, want %#llx", key,
	       (unsigned long long)value, VALUE);
	key = 0;
	err = sys_map_lookup(fd, &key, &value);
	expect(!err && value == 0, "key 0 holds %#llx (err %d), want 0",
	       (unsigned long long)value, err);
	close(fd);
	tok("map id %u '%s' holds %#llx at key %u", info.id, info.name,
	    VALUE, KEY);
}

static void check_prog(int prog_fd)
{
	struct bpf_prog_info info, again;
	char pkt[64] = { 0 };
	__u32 retval = 0;
	int fd, err;

	err = sys_obj_info(prog_fd, &info, sizeof(info));
	expect(!err, "prog info of fd %d: %s", prog_fd, strerror(-err));
	expect(info.type == BPF_PROG_TYPE_SOCKET_FILTER &&
	       !strcmp(info.name, SEED_CHILD_NAME),
	       "prog is type %u name '%s'", info.type, info.name);

	fd = sys_fd_by_id(BPF_PROG_GET_FD_BY_ID, info.id);
	expect(fd >= 0, "BPF_PROG_GET_FD_BY_ID %u: %s", info.id, strerror(-fd));
	err = sys_obj_info(fd, &again, sizeof(again));
	expect(!err && again.id == info.id, "prog id %u came back as %u",
	       info.id, again.id);

	/* It is the program the syscall program built: run it. */
	err = sys_prog_run(fd, NULL, 0, pkt, sizeof(pkt), &retval);
	expect(!err, "test run of the child: %s", strerror(-err));
	expect(retval == SEED_CHILD_RET, "child returned %#x, want %#x",
	       retval, SEED_CHILD_RET);
	close(fd);
	tok("prog id %u '%s' runs and returns %#x", info.id, info.name,
	    retval);
}

int main(void)
{
	struct seed_syscall_ctx ctx = {
		.max_entries = MAX_ENTRIES,
		.key = KEY,
		.value = VALUE,
		.map_fd = -1, .update_ret = 1, .prog_fd = -1, .tmp_fd = -1,
		.close_ret = 1, .reclose_ret = 1,
	};
	struct seed_syscall *skel;
	__u32 retval = ~0U;
	int err;

	skel = seed_syscall__open_and_load();
	expect(skel, "seed_syscall__open_and_load: %s", strerror(errno));

	err = sys_prog_run(skel->progs.seed_syscall.prog_fd, &ctx, sizeof(ctx),
			   NULL, 0, &retval);
	expect(!err, "BPF_PROG_TEST_RUN: %s", strerror(-err));
	expect(retval == 0, "syscall program returned %u (map_fd %d tmp_fd %d)",
	       retval, ctx.map_fd, ctx.tmp_fd);

	/* Closed fds first, before this process opens anything new. */
	expect(ctx.tmp_fd >= 0, "throwaway map: %s", strerror(-ctx.tmp_fd));
	expect(ctx.close_ret == 0, "bpf_sys_close(%d) = %d, want 0",
	       ctx.tmp_fd, ctx.close_ret);
	expect(ctx.reclose_ret == -EBADF, "second bpf_sys_close(%d) = %d, want %d",
	       ctx.tmp_fd, ctx.reclose_ret, -EBADF);
	expect(fcntl(ctx.tmp_fd, F_GETFD) == -1 && errno == EBADF,
	       "fd %d is still open after bpf_sys_close()", ctx.tmp_fd);
	tok("bpf_sys_close(%d) closed it; a second close gives -EBADF",
	    ctx.tmp_fd);

	expect(ctx.map_fd >= 0, "BPF_MAP_CREATE: %s", strerror(-ctx.map_fd));
	expect(ctx.update_ret == 0, "BPF_MAP_UPDATE_ELEM: %s",
	       strerror(-ctx.update_ret));
	expect(ctx.prog_fd >= 0, "BPF_PROG_LOAD: %s", strerror(-ctx.prog_fd));
	check_map(ctx.map_fd);
	check_prog(ctx.prog_fd);

	close(ctx.map_fd);
	close(ctx.prog_fd);
	seed_syscall__destroy(skel);
	return 0;
}
