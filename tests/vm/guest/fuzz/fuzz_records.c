// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_records.c: the oracle's rule on records (hornet_fuzz --records).
 *
 * Every decision Hornet makes has its audit record, and every decision on
 * a userspace load its entry in IMA's measurement list. After each try,
 * Hornet's "seen" counter says how many decisions the try caused; the audit
 * daemon's file (audit_listen FILE, started by the caller) must then hold
 * exactly that many new op=prog_load records, and for each one that names
 * no loader (a userspace load), IMA's list must hold a hornet-load entry
 * with the same mode, verdict, allowed and tag. Hornet measures a record
 * IMA already holds only once, so the list is read as a set, new entries
 * added as they come (the list's file is kept open: a read past its end
 * returns the entries added since).
 *
 * Records reach the daemon's file through kauditd, after the load
 * returned: a try waits for them up to RECORDS_WAIT_MS. A record the
 * kernel lost is not one Hornet failed to write: the caller checks the
 * kernel's lost count (audit_listen --lost) after the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hornet_fuzz.h"

#define RECORDS_WAIT_MS		5000
#define COUNTERS		"/sys/kernel/security/hornet/counters"
#define IMA_LIST		"/sys/kernel/security/ima/ascii_runtime_measurements"
#define KEY_MAX			160

/* An open-addressing set of "mode=M verdict=V allowed=A tag=T" keys. */
static char (*ima_keys)[KEY_MAX];
static size_t ima_cap, ima_n;

/* How many decisions of each verdict the audit records named. */
#define VERDICTS_MAX		32
static struct {
	char name[32];
	unsigned long n;
} verdicts[VERDICTS_MAX];

static FILE *audit_f, *ima_f;
static long long seen_before;
static char pending[65536];
static size_t pending_len;

static uint64_t key_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void key_add(const char *key);

static void keys_grow(void)
{
	char (*old)[KEY_MAX] = ima_keys;
	size_t old_cap = ima_cap, i;

	ima_cap = ima_cap ? ima_cap * 2 : 4096;
	ima_keys = calloc(ima_cap, KEY_MAX);
	if (!ima_keys) {
		fprintf(stderr, "hornet_fuzz: --records: out of memory\n");
		exit(3);
	}
	ima_n = 0;
	for (i = 0; i < old_cap; i++)
		if (old[i][0])
			key_add(old[i]);
	free(old);
}

static void key_add(const char *key)
{
	size_t i;

	if ((ima_n + 1) * 2 > ima_cap)
		keys_grow();
	for (i = key_hash(key) % ima_cap; ima_keys[i][0]; i = (i + 1) % ima_cap)
		if (!strcmp(ima_keys[i], key))
			return;
	snprintf(ima_keys[i], KEY_MAX, "%s", key);
	ima_n++;
}

static bool key_has(const char *key)
{
	size_t i;

	if (!ima_cap)
		return false;
	for (i = key_hash(key) % ima_cap; ima_keys[i][0]; i = (i + 1) % ima_cap)
		if (!strcmp(ima_keys[i], key))
			return true;
	return false;
}

static long long read_seen(void)
{
	long long seen = -1;
	FILE *f = fopen(COUNTERS, "r");

	if (!f || fscanf(f, "seen %lld", &seen) != 1) {
		fprintf(stderr, "hornet_fuzz: --records: cannot read %s\n", COUNTERS);
		exit(3);
	}
	fclose(f);
	return seen;
}

/* The value of " NAME=" in TEXT, up to the next space, into OUT. */
static bool field(const char *text, const char *name, char *out, size_t len)
{
	char pat[32];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", name);
	p = strstr(text, pat);
	if (!p)
		return false;
	p += strlen(pat);
	n = strcspn(p, " ");
	if (n >= len)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

/* Add the hornet-load entries IMA's list gained since the last read. */
static void ima_read_new(void)
{
	char line[4096];

	clearerr(ima_f);
	while (fgets(line, sizeof(line), ima_f)) {
		char name[32], hex[2048], text[1024], key[KEY_MAX];
		const char *m, *p;
		size_t i, n;

		/* PCR TEMPLATE-HASH TEMPLATE ALGO:DIGEST NAME HEX */
		if (sscanf(line, "%*s %*s %*s %*s %31s %2047s", name, hex) != 2 ||
		    strcmp(name, "hornet-load"))
			continue;
		n = strlen(hex) / 2;
		if (n >= sizeof(text))
			continue;
		for (i = 0; i < n; i++) {
			unsigned int b;

			if (sscanf(hex + 2 * i, "%2x", &b) != 1)
				break;
			text[i] = (char)b;
		}
		text[i] = '\0';
		m = strstr(text, "mode=");
		p = strstr(text, " payload=");
		if (!m || !p || p < m || (size_t)(p - m) >= sizeof(key))
			continue;
		memcpy(key, m, (size_t)(p - m));
		key[p - m] = '\0';
		key_add(key);
	}
}

bool records_open(const char *audit_path)
{
	audit_f = fopen(audit_path, "r");
	if (!audit_f)
		return false;
	fseek(audit_f, 0, SEEK_END);
	ima_f = fopen(IMA_LIST, "r");
	if (!ima_f)
		return false;
	ima_read_new();
	seen_before = read_seen();
	return true;
}

/* New complete lines of the audit file, appended to pending[]. */
static void audit_read_new(void)
{
	size_t n;

	clearerr(audit_f);
	n = fread(pending + pending_len, 1, sizeof(pending) - 1 - pending_len, audit_f);
	pending_len += n;
	pending[pending_len] = '\0';
}

static void count_verdict(const char *name)
{
	unsigned int i;

	for (i = 0; i < VERDICTS_MAX && verdicts[i].name[0]; i++)
		if (!strcmp(verdicts[i].name, name))
			break;
	if (i == VERDICTS_MAX)
		return;
	if (!verdicts[i].name[0])
		snprintf(verdicts[i].name, sizeof(verdicts[i].name), "%s", name);
	verdicts[i].n++;
}

/* Whether the line from LINE to NL is the audit record of a load decision. */
static bool is_decision(char *line, char *nl)
{
	bool yes;

	*nl = '\0';
	yes = !strncmp(line, "type=1430 ", 10) && strstr(line, " op=prog_load ");
	*nl = '\n';
	return yes;
}

/*
 * Check the try's records; on a fault, write why into WHY and return
 * false. Counts the try's decisions into *decisions.
 */
bool records_check(char *why, size_t len, unsigned long *decisions)
{
	long long seen = read_seen(), want = seen - seen_before;
	long long got = 0;
	double deadline = fuzz_now() + RECORDS_WAIT_MS / 1e3;
	char *line, *nl;
	bool ok = true;

	seen_before = seen;
	*decisions = (unsigned long)want;
	for (;;) {
		/*
		 * Read first: the records have most often arrived while the
		 * oracle judged the try, and a sleep before the first read
		 * cost each try a millisecond or more.
		 */
		audit_read_new();
		/* count the complete op=prog_load lines pending */
		got = 0;
		for (line = pending; (nl = strchr(line, '\n')); line = nl + 1)
			got += is_decision(line, nl);
		if (got >= want || fuzz_now() > deadline)
			break;
		usleep(200);
	}
	if (got != want) {
		snprintf(why, len, "%lld decisions (Hornet's seen counter) but %lld op=prog_load "
			 "audit records after %d ms", want, got, RECORDS_WAIT_MS);
		ok = false;
	}
	ima_read_new();
	for (line = pending; ok && (nl = strchr(line, '\n')); line = nl + 1) {
		char mode[16], verdict[32], res[4], tag[24], key[KEY_MAX], loader[16];

		if (!is_decision(line, nl))
			continue;
		*nl = '\0';
		if (!field(line, "mode", mode, sizeof(mode)) ||
		    !field(line, "verdict", verdict, sizeof(verdict)) ||
		    !field(line, "res", res, sizeof(res)) ||
		    !field(line, "prog_tag", tag, sizeof(tag))) {
			snprintf(why, len, "an audit record lacks a field: %.300s", line);
			ok = false;
		} else {
			count_verdict(verdict);
			/* a loader's child (loader_id=) is not measured */
			snprintf(key, sizeof(key), "mode=%s verdict=%s allowed=%s tag=%s", mode,
				 verdict, res, tag);
			if (!field(line, "loader_id", loader, sizeof(loader)) && !key_has(key)) {
				snprintf(why, len, "a decision with no hornet-load entry in IMA's "
					 "list: %s", key);
				ok = false;
			}
		}
		*nl = '\n';
	}
	/* keep an incomplete last line for the next try */
	line = strrchr(pending, '\n');
	line = line ? line + 1 : pending;
	pending_len = strlen(line);
	memmove(pending, line, pending_len + 1);
	return ok;
}

size_t records_ima_keys(void)
{
	return ima_n;
}

void records_print_verdicts(FILE *f)
{
	unsigned int i;

	for (i = 0; i < VERDICTS_MAX && verdicts[i].name[0]; i++)
		fprintf(f, "%s%s=%lu", i ? " " : "", verdicts[i].name, verdicts[i].n);
}
