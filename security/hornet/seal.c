// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hornet: make sure the maps a verdict was reached on are the maps the
 * program gets.
 *
 * The signature is checked in the bpf_prog_load hook, before the verifier
 * runs, and the verifier reads fd_array from the caller a second time. A
 * caller that swaps an fd in between would have a map bound that was never
 * hashed. So a verified load keeps a reference on each map it hashed, and
 * when the program's first fd is created (the bpf_prog hook, after the
 * verifier) its used maps must be exactly those maps. Holding the
 * references means a hashed map cannot be freed and its memory reused for
 * another map in the meantime.
 *
 * A hashed map also stays sealed until it is freed: no new fd can be made
 * for it (BPF_MAP_GET_FD_BY_ID, BPF_OBJ_GET), and no other program may use
 * it, by reference or through BPF_PROG_BIND_MAP. It is frozen, so the
 * syscall side cannot write it; this keeps other programs from writing it.
 *
 * The maps a verified loader creates during its run are hidden until the
 * run ends: the loader fills them, freezes some, and loads programs that
 * are verified against their contents, and none of that may be disturbed.
 * While hidden, a map can be reached only from within the run that made it.
 */

#include <linux/bpf.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "hornet.h"

/**
 * struct hornet_seal - the maps one verified load was checked against
 * @nr_maps: the number of maps
 * @maps: the maps, each with a reference held
 */
struct hornet_seal {
	u32 nr_maps;
	struct bpf_map *maps[] __counted_by(nr_maps);
};

/* Verified programs that have no fd yet, indexed by their address. */
static DEFINE_XARRAY(hornet_seals);

/*
 * Sealed maps, indexed by their address, each pointing to the program that
 * was verified against it, or to HORNET_OWNER_GONE once that program is
 * freed.
 */
static DEFINE_XARRAY(hornet_sealed_maps);
#define HORNET_OWNER_GONE	xa_mk_value(0)

/* Hidden maps, indexed by their address, each holding its run's number. */
static DEFINE_XARRAY(hornet_hidden_maps);

/**
 * hornet_seal_put - drop a seal and its map references
 * @seal: the seal, or NULL
 */
static void hornet_seal_put(struct hornet_seal *seal)
{
	u32 i;

	if (!seal)
		return;
	for (i = 0; i < seal->nr_maps; i++)
		bpf_map_put(seal->maps[i]);
	kfree(seal);
}

/**
 * hornet_seal_add - remember the maps a program was verified against
 * @prog: the program being loaded
 * @maps: the maps, with a reference held on each; the references pass to
 *	  the seal, or are dropped on error
 * @nr_maps: their number
 *
 * Return: 0, or -ENOMEM.
 */
int hornet_seal_add(struct bpf_prog *prog, struct bpf_map **maps, u32 nr_maps)
{
	struct hornet_seal *seal;
	u32 i;
	int err;

	seal = kmalloc(struct_size(seal, maps, nr_maps), GFP_KERNEL);
	if (!seal) {
		for (i = 0; i < nr_maps; i++)
			bpf_map_put(maps[i]);
		return -ENOMEM;
	}
	seal->nr_maps = nr_maps;
	memcpy(seal->maps, maps, flex_array_size(seal, maps, nr_maps));
	/* The first verified load of a map owns it; a later one will fail
	 * its check, as a program that uses someone else's sealed map.
	 */
	for (i = 0; i < nr_maps; i++)
		xa_cmpxchg(&hornet_sealed_maps, (unsigned long)maps[i], NULL,
			   prog, GFP_KERNEL);
	err = xa_err(xa_store(&hornet_seals, (unsigned long)prog, seal,
			      GFP_KERNEL));
	if (err)
		hornet_seal_put(seal);
	return err;
}

/**
 * hornet_seal_holds - whether a map is one of a seal's maps
 * @seal: the seal
 * @map: the map
 *
 * Return: true if @map is in @seal.
 */
static bool hornet_seal_holds(const struct hornet_seal *seal,
			      const struct bpf_map *map)
{
	u32 i;

	for (i = 0; i < seal->nr_maps; i++)
		if (seal->maps[i] == map)
			return true;
	return false;
}

/**
 * hornet_seal_check - check a program's maps before its fd is made
 * @prog: a program whose fd is about to be created
 * @run_id: the loader run the caller is in, or 0
 *
 * Every program is checked for using a map sealed by another program, or
 * a map hidden by a loader run other than @run_id. Only the first fd of a
 * verified program finds its own seal, which is consumed either way.
 *
 * Return:
 * * %HORNET_OK		- the program uses no map sealed by another program
 *			  nor one hidden from @run_id; and if it has a seal,
 *			  every used map is a sealed map, every sealed map is
 *			  used, and each is still frozen
 * * %HORNET_BADMAP	- a sealed map is used by another program, or the
 *			  program's maps are not those of its seal
 * * %HORNET_HIDDEN	- otherwise fine, but a map is hidden from @run_id
 */
enum hornet_verdict hornet_seal_check(struct bpf_prog *prog, u64 run_id)
{
	struct bpf_prog_aux *aux = prog->aux;
	struct hornet_seal *seal;
	bool badmap = false, hidden = false;
	u32 i;

	seal = xa_erase(&hornet_seals, (unsigned long)prog);

	mutex_lock(&aux->used_maps_mutex);
	for (i = 0; i < aux->used_map_cnt; i++) {
		struct bpf_map *map = aux->used_maps[i];
		void *owner = xa_load(&hornet_sealed_maps, (unsigned long)map);

		badmap |= (owner && owner != prog) ||
			  (seal && !hornet_seal_holds(seal, map));
		hidden |= hornet_map_hidden(map, run_id);
	}
	for (i = 0; seal && i < seal->nr_maps; i++) {
		u32 j;
		bool used = false;

		for (j = 0; j < aux->used_map_cnt; j++)
			used |= aux->used_maps[j] == seal->maps[i];
		badmap |= !used || !READ_ONCE(seal->maps[i]->frozen);
	}
	mutex_unlock(&aux->used_maps_mutex);

	hornet_seal_put(seal);
	if (badmap)
		return HORNET_BADMAP;
	return hidden ? HORNET_HIDDEN : HORNET_OK;
}

/**
 * hornet_seal_drop - forget a program that is freed
 * @prog: the program being freed
 *
 * Its maps stay sealed, but no longer name it as their owner, so that a
 * program later allocated at the same address cannot use them.
 */
void hornet_seal_drop(struct bpf_prog *prog)
{
	unsigned long index;
	void *owner;

	hornet_seal_put(xa_erase(&hornet_seals, (unsigned long)prog));
	xa_for_each(&hornet_sealed_maps, index, owner) {
		if (owner == prog)
			xa_cmpxchg(&hornet_sealed_maps, index, prog,
				   HORNET_OWNER_GONE, GFP_KERNEL);
	}
}

/**
 * hornet_map_is_sealed - whether a map's contents were hashed by a load
 * @map: the map
 *
 * Return: true from the verified load that hashed @map until @map is freed.
 */
bool hornet_map_is_sealed(const struct bpf_map *map)
{
	return xa_load(&hornet_sealed_maps, (unsigned long)map);
}

/**
 * hornet_map_hide - hide a map that a verified loader creates
 * @map: the map, being created
 * @run_id: the loader's run, as in struct hornet_task
 *
 * Return: 0, or -ENOMEM.
 */
int hornet_map_hide(struct bpf_map *map, u64 run_id)
{
	return xa_err(xa_store(&hornet_hidden_maps, (unsigned long)map,
			       xa_mk_value(run_id), GFP_KERNEL));
}

/**
 * hornet_map_hidden - whether a map is hidden from the caller
 * @map: the map
 * @run_id: the caller's run, or 0 when it is in none
 *
 * Return: true if @map was made by a loader run that has not ended and
 * that is not @run_id.
 */
bool hornet_map_hidden(const struct bpf_map *map, u64 run_id)
{
	void *entry = xa_load(&hornet_hidden_maps, (unsigned long)map);

	return entry && xa_to_value(entry) != run_id;
}

/**
 * hornet_run_unhide - show the maps of a run that has ended
 * @run_id: the run
 */
void hornet_run_unhide(u64 run_id)
{
	unsigned long index;
	void *entry;

	xa_for_each(&hornet_hidden_maps, index, entry) {
		if (xa_to_value(entry) == run_id)
			xa_cmpxchg(&hornet_hidden_maps, index, entry, NULL,
				   GFP_KERNEL);
	}
}

/**
 * hornet_map_unseal - forget a map that is freed
 * @map: the map
 */
void hornet_map_unseal(struct bpf_map *map)
{
	xa_erase(&hornet_sealed_maps, (unsigned long)map);
	xa_erase(&hornet_hidden_maps, (unsigned long)map);
}
