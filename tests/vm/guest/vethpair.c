// vethpair: command-line front end of veth.c, for tests that need a veth pair.
#include <stdio.h>
#include <string.h>

#include "veth.h"

static int usage(void)
{
	fprintf(stderr,
		"usage: vethpair NAME0 NAME1   create the pair, bring both up\n"
		"       vethpair -d NAME       delete NAME and its peer\n");
	return 2;
}

int main(int argc, char **argv)
{
	int err;

	if (argc != 3)
		return usage();
	if (!strcmp(argv[1], "-d"))
		err = link_delete(argv[2]);
	else
		err = veth_pair_up(argv[1], argv[2]);
	if (err) {
		fprintf(stderr, "vethpair: %s %s: %s\n", argv[1], argv[2],
			strerror(-err));
		return 1;
	}
	return 0;
}
