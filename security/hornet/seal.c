// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: keep the maps a verdict was reached on as they were checked.
 *
 * Sealing. The maps in a verified load's payload are sealed with the
 * load's seal number, once the signature over them has checked out and
 * before the program gets an id. Until the map is freed, no new fd can be
 * made for it (BPF_MAP_GET_FD_BY_ID, BPF_OBJ_GET), it cannot be put in a
 * map-in-map or attached to an iterator, and no program loaded later may
 * use it but its own loader and that loader's children. It is frozen, so
 * the syscall side cannot write it either.
 *
 * Hiding. The maps a verified loader creates during its run are hidden
 * until the run ends: the loader fills them, freezes some and loads
 * programs against their contents, and nothing may disturb that. While
 * hidden, a map can be reached only from within the run that made it.
 *
 * Children. A program loaded during a verified loader's run may use only
 * the maps that run created and the loader's own sealed maps, so that no
 * fd swapped in by another thread, and no other run, can hand it a map
 * the loader did not make.
 *
 * All of it lives in the maps' and programs' security blobs: nothing is
 * keyed by an address, and nothing needs cleaning up when a program is
 * freed.
 */

#include <linux/bpf.h>

#include "hornet.h"

/* Numbers seals; 0 means "not sealed". */
static atomic64_t hornet_seal_seq = ATOMIC64_INIT(0);

/**
 * hornet_seal_next - a seal number no other load has had
 *
 * Return: a number, never 0.
 */
u64 hornet_seal_next(void)
{
	return atomic64_inc_return(&hornet_seal_seq);
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
 * hornet_seal_maps - seal the maps of a load that was just verified
 * @prog: the program, after the verifier, before it has an id
 * @seal_id: the load's seal number
 *
 * A map already sealed by another load stays that load's; the program is
 * then refused, as one that uses another load's sealed map. A map sealed
 * here stays sealed even if the load fails later on.
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

		if (!hm ||
		    (!atomic64_try_cmpxchg(&hm->sealed_by, &old, seal_id) &&
		     old != seal_id))
			verdict = HORNET_BADMAP;
	}
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
 * * %HORNET_BADMAP	- a map is sealed by another load (other than the
 *			  loader of @run), or @run is set and a map was not
 *			  created by @run nor sealed by its loader
 * * %HORNET_HIDDEN	- otherwise fine, but a map is hidden from the
 *			  current task's run
 */
enum hornet_verdict hornet_check_maps(struct bpf_prog *prog, u64 seal_id,
				       const struct hornet_run *run)
{
	const struct hornet_run *current_run = hornet_run_current();
	struct bpf_prog_aux *aux = prog->aux;
	bool badmap = false, hidden = false;
	u32 i;

	mutex_lock(&aux->used_maps_mutex);
	for (i = 0; i < aux->used_map_cnt; i++) {
		const struct bpf_map *map = aux->used_maps[i];
		struct hornet_map *hm = hornet_map_blob(map);
		u64 sealer = hornet_map_sealer(map);
		bool loaders = run && sealer && sealer == run->loader_seal;

		if (!hm) {
			badmap = true;
			continue;
		}
		if (sealer && sealer != seal_id && !loaders)
			badmap = true;
		if (run && hm->run != run && !loaders)
			badmap = true;
		hidden |= hornet_map_hidden_from(map, current_run);
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
