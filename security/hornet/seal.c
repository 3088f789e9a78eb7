// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: keep the maps a verdict was reached on as they were checked.
 *
 * History. A map remembers whether a program was ever bound to it, and
 * which: a program that uses an array can write its value whenever it
 * runs, frozen or not. Once a second program is bound to it, or it is put
 * in a map-in-map or under a map iterator (where any program using those
 * can reach it), it is shared for good. Only a map with no history but
 * the signed load itself can be a blob: no other program can have written
 * it before the check, or write it after.
 *
 * Sealing. The maps in a verified load's payload are sealed with the
 * load's seal number, once the signature over them has checked out and
 * before the program gets an id. Until the map is freed, no new fd can be
 * made for it (BPF_MAP_GET_FD_BY_ID, BPF_OBJ_GET), it cannot be put in a
 * map-in-map or attached to an iterator, and no program loaded later may
 * use it. It is frozen, with no write in flight, so the syscall side
 * cannot write it either: only the loader it was signed with reaches it.
 *
 * Hiding. The maps a verified loader creates during its run are hidden
 * until the run ends: the loader fills them, freezes some and loads
 * programs against their contents, and nothing may disturb that. While
 * hidden, a map can be reached only from within the run that made it.
 *
 * Children. A program loaded during a verified loader's run may use only
 * the maps that run created, so that no fd swapped in by another thread,
 * and no other run, can hand it a map the loader did not make; not even
 * the loader's own blob, which no child of a light skeleton uses.
 *
 * All of it lives in the maps' and programs' security blobs: nothing is
 * keyed by an address, and nothing needs cleaning up when a program is
 * freed.
 */

#include <linux/bpf.h>

#include "hornet.h"

/* Numbers loads; 0 means "no load" (not sealed, never bound). */
static atomic64_t hornet_load_seq = ATOMIC64_INIT(0);

/**
 * hornet_load_next - a load number no other load has had
 *
 * Return: a number, never 0 and never %HORNET_BOUND_SHARED.
 */
u64 hornet_load_next(void)
{
	return atomic64_inc_return(&hornet_load_seq);
}

/**
 * hornet_map_sealer - the seal a map carries
 * @map: the map
 *
 * Return: the seal number of the verified load that sealed @map, or 0.
 */
static u64 hornet_map_sealer(const struct bpf_map *map)
{
	struct hornet_map *hm = hornet_map_blob(map);

	return hm ? atomic64_read(&hm->sealed_by) : 0;
}

/**
 * hornet_map_is_sealed - whether a map's contents were hashed by a load
 * @map: the map
 *
 * Return: true from the verified load that hashed @map until @map is freed.
 */
bool hornet_map_is_sealed(const struct bpf_map *map)
{
	return hornet_map_sealer(map) != 0;
}

/**
 * hornet_map_hidden_from - whether a map is hidden from a run
 * @map: the map
 * @run: the run asking, or NULL for none
 *
 * Return: true if @map was made by a verified loader's run that has not
 * ended and that is not @run.
 */
static bool hornet_map_hidden_from(const struct bpf_map *map,
				   const struct hornet_run *run)
{
	struct hornet_map *hm = hornet_map_blob(map);

	return hm && hm->run && hm->run->verified &&
	       !READ_ONCE(hm->run->ended) && hm->run != run;
}

/**
 * hornet_map_of_run - whether a map was made by a run
 * @map: the map
 * @run: the run
 *
 * Return: true if @map was created from kernel context during @run.
 */
bool hornet_map_of_run(const struct bpf_map *map, const struct hornet_run *run)
{
	struct hornet_map *hm = hornet_map_blob(map);

	return hm && hm->run == run;
}

/**
 * hornet_map_hidden - whether a map is hidden from the current task
 * @map: the map
 *
 * Return: true if @map was made by a verified loader's run that has not
 * ended and that the current task is not in.
 */
bool hornet_map_hidden(const struct bpf_map *map)
{
	return hornet_map_hidden_from(map, hornet_run_current());
}

/**
 * hornet_map_bind - note that a program was bound to a map
 * @map: the map
 * @load_id: the program's load number
 *
 * Return: the map's history after this binding.
 */
static u64 hornet_map_bind(struct bpf_map *map, u64 load_id)
{
	struct hornet_map *hm = hornet_map_blob(map);
	s64 old = 0;

	if (!hm)
		return HORNET_BOUND_SHARED;
	if (atomic64_try_cmpxchg(&hm->bound_by, &old, load_id) ||
	    old == load_id)
		return load_id;
	/* Fully ordered, like the cmpxchg: see hornet_seal_maps(). */
	atomic64_xchg(&hm->bound_by, HORNET_BOUND_SHARED);
	return HORNET_BOUND_SHARED;
}

/**
 * hornet_maps_bound - note the program each of a program's maps is bound to
 * @prog: the program, after the verifier bound its maps
 * @load_id: its load number
 *
 * Called for every load, in every mode, so that a map's history is known
 * whatever the mode was when it was made.
 */
void hornet_maps_bound(struct bpf_prog *prog, u64 load_id)
{
	struct bpf_prog_aux *aux = prog->aux;
	u32 i;

	mutex_lock(&aux->used_maps_mutex);
	for (i = 0; i < aux->used_map_cnt; i++)
		hornet_map_bind(aux->used_maps[i], load_id);
	mutex_unlock(&aux->used_maps_mutex);
}

/**
 * hornet_map_shared - note that a map has become reachable by any program
 *		       that uses another object (a map-in-map, an iterator)
 * @map: the map
 */
void hornet_map_shared(struct bpf_map *map)
{
	struct hornet_map *hm = hornet_map_blob(map);

	if (hm)
		atomic64_xchg(&hm->bound_by, HORNET_BOUND_SHARED);
}

/**
 * hornet_blob_has_past - whether a map can have been written by anyone but
 *			  the load whose blob it is meant to be
 * @hm: the map's blob
 * @seal_id: that load's number
 *
 * Return: true if the map was made by a run, or another program was bound
 * to it, or it was shared.
 */
static bool hornet_blob_has_past(const struct hornet_map *hm, u64 seal_id)
{
	return hm->run || (u64)atomic64_read(&hm->bound_by) != seal_id;
}

/**
 * hornet_seal_maps - seal the maps of a load that was just verified
 * @prog: the program, after the verifier, before it has an id
 * @seal_id: the load's seal number, its load_id
 *
 * A map already sealed by another load stays that load's; the program is
 * then refused, as one that uses another load's sealed map. So is a map
 * with a past: made by a run, bound to another program before, or shared.
 * A map sealed here stays sealed even if the load fails later on.
 *
 * The past is read again once the seal is set: a program bound at the same
 * time either sees the seal (hornet_check_maps()) or is seen here.
 *
 * Return: %HORNET_OK, or %HORNET_BADMAP.
 */
enum hornet_verdict hornet_seal_maps(struct bpf_prog *prog, u64 seal_id)
{
	struct bpf_prog_aux *aux = prog->aux;
	enum hornet_verdict verdict = HORNET_OK;
	u32 i;

	mutex_lock(&aux->used_maps_mutex);
	for (i = 0; i < aux->used_map_cnt; i++) {
		struct hornet_map *hm = hornet_map_blob(aux->used_maps[i]);
		s64 old = 0;

		if (!hm || hornet_blob_has_past(hm, seal_id) ||
		    (!atomic64_try_cmpxchg(&hm->sealed_by, &old, seal_id) &&
		     old != seal_id))
			verdict = HORNET_BADMAP;
	}
	/* Pairs with the full barrier of a concurrent hornet_map_bind(). */
	smp_mb();
	for (i = 0; i < aux->used_map_cnt && verdict == HORNET_OK; i++)
		if (hornet_blob_has_past(hornet_map_blob(aux->used_maps[i]),
					 seal_id))
			verdict = HORNET_BADMAP;
	mutex_unlock(&aux->used_maps_mutex);
	return verdict;
}

/**
 * hornet_check_maps - check the maps a program was bound to
 * @prog: the program, after the verifier, before it has an id
 * @seal_id: the program's own seal number, or 0
 * @run: for a child of a verified loader's run, that run; else NULL
 *
 * Return:
 * * %HORNET_OK		- every map is allowed
 * * %HORNET_BADMAP	- a map is sealed by another load, or @run is set
 *			  and a map was not created by @run
 * * %HORNET_HIDDEN	- otherwise fine, but a map is hidden from @run
 *			  (or, without one, from the current task's run)
 */
enum hornet_verdict hornet_check_maps(struct bpf_prog *prog, u64 seal_id,
				      const struct hornet_run *run)
{
	const struct hornet_run *viewer = run ?: hornet_run_current();
	struct bpf_prog_aux *aux = prog->aux;
	bool badmap = false, hidden = false;
	u32 i;

	mutex_lock(&aux->used_maps_mutex);
	for (i = 0; i < aux->used_map_cnt; i++) {
		const struct bpf_map *map = aux->used_maps[i];
		struct hornet_map *hm = hornet_map_blob(map);
		u64 sealer = hornet_map_sealer(map);

		if (!hm) {
			badmap = true;
			continue;
		}
		if (sealer && sealer != seal_id)
			badmap = true;
		if (run && hm->run != run)
			badmap = true;
		hidden |= hornet_map_hidden_from(map, viewer);
	}
	mutex_unlock(&aux->used_maps_mutex);
	if (badmap)
		return HORNET_BADMAP;
	return hidden ? HORNET_HIDDEN : HORNET_OK;
}

/**
 * hornet_prog_hidden - whether a program uses a map hidden from the caller
 * @prog: a loaded program
 *
 * Return: true if one of @prog's maps is hidden from the current task.
 */
bool hornet_prog_hidden(struct bpf_prog *prog)
{
	struct bpf_prog_aux *aux = prog->aux;
	bool hidden = false;
	u32 i;

	mutex_lock(&aux->used_maps_mutex);
	for (i = 0; i < aux->used_map_cnt && !hidden; i++)
		hidden = hornet_map_hidden(aux->used_maps[i]);
	mutex_unlock(&aux->used_maps_mutex);
	return hidden;
}

/**
 * hornet_map_created - note the run a map is created in
 * @map: the map being created
 *
 * A map created from kernel context during a run belongs to that run, and
 * is hidden until the run ends if the run is a verified loader's.
 */
void hornet_map_created(struct bpf_map *map)
{
	struct hornet_map *hm = hornet_map_blob(map);
	struct hornet_run *run = hornet_run_current();

	if (hm && run)
		hm->run = hornet_run_get(run);
}

/**
 * hornet_map_forget - drop what Hornet holds for a map that is freed
 * @map: the map
 *
 * Called from the workqueue that frees maps, or from a failed create.
 */
void hornet_map_forget(struct bpf_map *map)
{
	struct hornet_map *hm = hornet_map_blob(map);

	if (!hm)
		return;
	hornet_run_put(hm->run);
	hm->run = NULL;
}

#ifdef CONFIG_SECURITY_HORNET_KUNIT_TEST
#include <kunit/test.h>
#include <linux/filter.h>
#include <linux/slab.h>

/**
 * hornet_test_map - a map with nothing but a security blob, for the tests
 * @test: the KUnit context; the map is freed with it
 *
 * Return: the map.
 */
static struct bpf_map *hornet_test_map(struct kunit *test)
{
	struct bpf_map *map = kunit_kzalloc(test, sizeof(*map), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, map);
	map->security = kunit_kzalloc(test, hornet_blob_sizes.lbs_bpf_map +
				      sizeof(struct hornet_map), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, map->security);
	return map;
}

/**
 * hornet_test_prog - a program that uses the given maps
 * @test: the KUnit context
 * @maps: the maps
 * @cnt: their number
 *
 * Return: the program; free it with __bpf_prog_free().
 */
static struct bpf_prog *hornet_test_prog(struct kunit *test,
					 struct bpf_map **maps, u32 cnt)
{
	struct bpf_prog *prog = bpf_prog_alloc(bpf_prog_size(1), 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, prog);
	prog->aux->used_maps = maps;
	prog->aux->used_map_cnt = cnt;
	return prog;
}

/**
 * hornet_test_release - give a test program's maps back before freeing it
 * @prog: the program from hornet_test_prog()
 */
static void hornet_test_release(struct bpf_prog *prog)
{
	prog->aux->used_maps = NULL;
	prog->aux->used_map_cnt = 0;
	__bpf_prog_free(prog);
}

/**
 * hornet_test_seal_first_owner - a map stays sealed by the first load that sealed it
 * @test: the KUnit context
 */
static void hornet_test_seal_first_owner(struct kunit *test)
{
	struct bpf_map *maps[1] = { hornet_test_map(test) };
	struct bpf_prog *prog = hornet_test_prog(test, maps, 1);

	KUNIT_EXPECT_FALSE(test, hornet_map_is_sealed(maps[0]));
	hornet_maps_bound(prog, 5);
	KUNIT_EXPECT_EQ(test, hornet_seal_maps(prog, 5), HORNET_OK);
	KUNIT_EXPECT_TRUE(test, hornet_map_is_sealed(maps[0]));
	/* The same load again is fine; another load is not. */
	KUNIT_EXPECT_EQ(test, hornet_seal_maps(prog, 5), HORNET_OK);
	KUNIT_EXPECT_EQ(test, hornet_seal_maps(prog, 6), HORNET_BADMAP);
	KUNIT_EXPECT_EQ(test, hornet_map_sealer(maps[0]), 5);
	/* Only the sealing load may use it. */
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 5, NULL), HORNET_OK);
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 6, NULL), HORNET_BADMAP);
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 0, NULL), HORNET_BADMAP);
	hornet_test_release(prog);
}

/**
 * hornet_test_blob_without_past - only a map no other program could reach can be sealed
 * @test: the KUnit context
 */
static void hornet_test_blob_without_past(struct kunit *test)
{
	struct hornet_run run = { .id = 4, .verified = true };
	struct bpf_map *maps[1] = { hornet_test_map(test) };
	struct bpf_prog *prog = hornet_test_prog(test, maps, 1);
	struct hornet_map *hm = hornet_map_blob(maps[0]);

	/* Never bound: not even the signed load itself noted it. */
	KUNIT_EXPECT_EQ(test, hornet_seal_maps(prog, 9), HORNET_BADMAP);
	KUNIT_EXPECT_FALSE(test, hornet_map_is_sealed(maps[0]));

	/* Bound by another program first. */
	hornet_maps_bound(prog, 8);
	hornet_maps_bound(prog, 9);
	KUNIT_EXPECT_EQ(test, (u64)atomic64_read(&hm->bound_by),
			HORNET_BOUND_SHARED);
	KUNIT_EXPECT_EQ(test, hornet_seal_maps(prog, 9), HORNET_BADMAP);

	/* Bound by the signed load alone, but put in a map-in-map. */
	atomic64_set(&hm->bound_by, 0);
	atomic64_set(&hm->sealed_by, 0);
	hornet_maps_bound(prog, 9);
	hornet_map_shared(maps[0]);
	KUNIT_EXPECT_EQ(test, hornet_seal_maps(prog, 9), HORNET_BADMAP);

	/* Made by a run. */
	atomic64_set(&hm->bound_by, 0);
	atomic64_set(&hm->sealed_by, 0);
	refcount_set(&run.ref, 1);
	hm->run = &run;
	hornet_maps_bound(prog, 9);
	KUNIT_EXPECT_EQ(test, hornet_seal_maps(prog, 9), HORNET_BADMAP);

	/* Control: the same map with no past seals. */
	hm->run = NULL;
	atomic64_set(&hm->bound_by, 0);
	atomic64_set(&hm->sealed_by, 0);
	hornet_maps_bound(prog, 9);
	KUNIT_EXPECT_EQ(test, hornet_seal_maps(prog, 9), HORNET_OK);
	KUNIT_EXPECT_TRUE(test, hornet_map_is_sealed(maps[0]));
	hornet_test_release(prog);
}

/**
 * hornet_test_child_maps - a verified run's child may use its run's maps only, not the blob
 * @test: the KUnit context
 */
static void hornet_test_child_maps(struct kunit *test)
{
	struct hornet_run run = { .id = 1, .verified = true };
	struct hornet_run other = { .id = 2, .verified = true };
	struct bpf_map *mine = hornet_test_map(test);
	struct bpf_map *theirs = hornet_test_map(test);
	struct bpf_map *nobodys = hornet_test_map(test);
	struct bpf_map *blob = hornet_test_map(test);
	struct bpf_map *maps[2];
	struct bpf_prog *prog;

	refcount_set(&run.ref, 1);
	refcount_set(&other.ref, 1);
	hornet_map_blob(mine)->run = &run;
	hornet_map_blob(theirs)->run = &other;
	atomic64_set(&hornet_map_blob(blob)->sealed_by, 7);

	maps[0] = mine;
	maps[1] = mine;
	prog = hornet_test_prog(test, maps, 2);
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 0, &run), HORNET_OK);
	hornet_test_release(prog);

	/* Only the loader binds its blob, sealed with the loader's load. */
	maps[1] = blob;
	prog = hornet_test_prog(test, maps, 2);
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 0, &run), HORNET_BADMAP);
	hornet_test_release(prog);

	maps[1] = theirs;
	prog = hornet_test_prog(test, maps, 2);
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 0, &run), HORNET_BADMAP);
	hornet_test_release(prog);

	maps[1] = nobodys;
	prog = hornet_test_prog(test, maps, 2);
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 0, &run), HORNET_BADMAP);
	/* Outside any run, a map nobody hides or seals is fine. */
	maps[0] = nobodys;
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 0, NULL), HORNET_OK);
	hornet_test_release(prog);
}

/**
 * hornet_test_hidden_until_run_ends - a verified run's maps are hidden until it ends
 * @test: the KUnit context
 */
static void hornet_test_hidden_until_run_ends(struct kunit *test)
{
	struct hornet_run run = { .id = 3, .verified = true };
	struct bpf_map *maps[1] = { hornet_test_map(test) };
	struct bpf_prog *prog = hornet_test_prog(test, maps, 1);

	refcount_set(&run.ref, 1);
	hornet_map_blob(maps[0])->run = &run;
	KUNIT_EXPECT_TRUE(test, hornet_map_hidden_from(maps[0], NULL));
	KUNIT_EXPECT_FALSE(test, hornet_map_hidden_from(maps[0], &run));
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 0, NULL), HORNET_HIDDEN);
	KUNIT_EXPECT_TRUE(test, hornet_prog_hidden(prog));

	/* An unverified run hides nothing. */
	run.verified = false;
	KUNIT_EXPECT_FALSE(test, hornet_map_hidden_from(maps[0], NULL));
	run.verified = true;

	WRITE_ONCE(run.ended, true);
	KUNIT_EXPECT_FALSE(test, hornet_map_hidden_from(maps[0], NULL));
	KUNIT_EXPECT_EQ(test, hornet_check_maps(prog, 0, NULL), HORNET_OK);
	hornet_test_release(prog);
}

/**
 * hornet_test_set_mode - set Hornet's mode for a test, under the policy mutex
 * @mode: the mode
 *
 * Only the mode changes: unlike a write to the mode file, nothing is
 * measured or audited, and a locked policy is not asked.
 *
 * Return: the mode it replaced.
 */
static enum hornet_mode hornet_test_set_mode(enum hornet_mode mode)
{
	enum hornet_mode old;

	mutex_lock(&hornet_policy_mutex);
	old = hornet_policy.mode;
	WRITE_ONCE(hornet_policy.mode, mode);
	mutex_unlock(&hornet_policy_mutex);
	return old;
}

/**
 * hornet_test_hidden_prog_refused - no fd of a program that uses a hidden map outside its run
 * @test: the KUnit context
 *
 * While a verified loader's run lasts, a task outside it that asks for an
 * fd of the run's child (BPF_PROG_GET_FD_BY_ID, say) would reach the
 * run's maps through the program; enforce refuses it, audit records it
 * and lets it through, and once the run has ended nothing is hidden.
 */
static void hornet_test_hidden_prog_refused(struct kunit *test)
{
	struct hornet_run run = { .id = 4, .verified = true };
	struct bpf_map *maps[1] = { hornet_test_map(test) };
	struct bpf_prog *prog = hornet_test_prog(test, maps, 1);
	enum hornet_mode mode;
	int enforce, audit, ended;

	refcount_set(&run.ref, 1);
	hornet_map_blob(maps[0])->run = &run;
	mode = hornet_test_set_mode(HORNET_MODE_ENFORCE);
	enforce = hornet_bpf_prog(prog);
	hornet_test_set_mode(HORNET_MODE_AUDIT);
	audit = hornet_bpf_prog(prog);
	hornet_test_set_mode(HORNET_MODE_ENFORCE);
	WRITE_ONCE(run.ended, true);
	ended = hornet_bpf_prog(prog);
	hornet_test_set_mode(mode);
	hornet_test_release(prog);

	KUNIT_EXPECT_EQ(test, enforce, -EPERM);
	KUNIT_EXPECT_EQ(test, audit, 0);
	KUNIT_EXPECT_EQ(test, ended, 0);
}

/**
 * hornet_test_map_holds_its_run_once - a map made in a run holds one reference on it
 * @test: the KUnit context
 *
 * The map keeps its run for as long as it lives, so that it stays hidden
 * until the run ends; freeing the map must give that one reference back,
 * or every run a loader makes maps in is never freed.
 */
static void hornet_test_map_holds_its_run_once(struct kunit *test)
{
	struct hornet_run run = { .id = 5, .verified = true };
	struct bpf_map *map = hornet_test_map(test);
	struct hornet_task *task;
	unsigned int made, freed;

	if (!hornet_enabled)
		kunit_skip(test, "Hornet is not an enabled LSM");
	refcount_set(&run.ref, 1);
	task = hornet_task_blob();
	KUNIT_ASSERT_NULL(test, task->run);
	task->run = &run;
	hornet_map_created(map);
	task->run = NULL;
	made = refcount_read(&run.ref);
	KUNIT_EXPECT_PTR_EQ(test, hornet_map_blob(map)->run, &run);
	hornet_map_forget(map);
	freed = refcount_read(&run.ref);

	KUNIT_EXPECT_EQ(test, made, 2);
	KUNIT_EXPECT_NULL(test, hornet_map_blob(map)->run);
	KUNIT_EXPECT_EQ(test, freed, 1);
}

static struct kunit_case hornet_seal_test_cases[] = {
	KUNIT_CASE(hornet_test_seal_first_owner),
	KUNIT_CASE(hornet_test_blob_without_past),
	KUNIT_CASE(hornet_test_child_maps),
	KUNIT_CASE(hornet_test_hidden_until_run_ends),
	KUNIT_CASE(hornet_test_hidden_prog_refused),
	KUNIT_CASE(hornet_test_map_holds_its_run_once),
	{}
};

static struct kunit_suite hornet_seal_test_suite = {
	.name = "hornet_seal",
	.test_cases = hornet_seal_test_cases,
};

kunit_test_suite(hornet_seal_test_suite);
#endif /* CONFIG_SECURITY_HORNET_KUNIT_TEST */
