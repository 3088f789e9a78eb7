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
 * hornet_seal_check - compare a verified program's maps with its seal
 * @prog: a program whose fd is about to be created
 *
 * Only the first fd of a verified program finds a seal; the seal is
 * consumed either way.
 *
 * Return:
 * * %0		- no seal, or every used map is a sealed map, every sealed
 *		  map is used, and each is still frozen
 * * %-EPERM	- the verifier bound a map that was not hashed, or left one
 *		  out
 */
int hornet_seal_check(struct bpf_prog *prog)
{
	struct bpf_prog_aux *aux = prog->aux;
	struct hornet_seal *seal;
	int err = 0;
	u32 i;

	seal = xa_erase(&hornet_seals, (unsigned long)prog);
	if (!seal)
		return 0;

	mutex_lock(&aux->used_maps_mutex);
	for (i = 0; i < aux->used_map_cnt; i++)
		if (!hornet_seal_holds(seal, aux->used_maps[i]))
			err = -EPERM;
	for (i = 0; i < seal->nr_maps; i++) {
		u32 j;
		bool used = false;

		for (j = 0; j < aux->used_map_cnt; j++)
			used |= aux->used_maps[j] == seal->maps[i];
		if (!used || !READ_ONCE(seal->maps[i]->frozen))
			err = -EPERM;
	}
	mutex_unlock(&aux->used_maps_mutex);

	hornet_seal_put(seal);
	return err;
}

/**
 * hornet_seal_drop - forget a program that goes away without an fd
 * @prog: the program being freed
 */
void hornet_seal_drop(struct bpf_prog *prog)
{
	hornet_seal_put(xa_erase(&hornet_seals, (unsigned long)prog));
}
