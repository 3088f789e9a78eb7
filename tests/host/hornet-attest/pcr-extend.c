// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test helper for the hornet_attest_* host tests: extends the sha256 bank
 * of a (software) TPM as the kernel would for an IMA list. Reads lines
 * "PCR HEXDIGEST" from stdin, or "PCR reset" to reset the PCR from
 * locality 0 (which the TPM allows for PCRs 16 and 23 only); exits 0 when
 * every command succeeded.
 *
 *   pcr-extend TCTI < extends
 */
#include <stdio.h>
#include <string.h>

#include <tss2/tss2_esys.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

int main(int argc, char **argv)
{
	TSS2_TCTI_CONTEXT *tcti = NULL;
	ESYS_CONTEXT *esys = NULL;
	TPML_DIGEST_VALUES d;
	char hex[65];
	unsigned pcr, i, byte, n = 0;
	TSS2_RC rc;
	int ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: pcr-extend TCTI < lines 'PCR HEXDIGEST'\n");
		return 2;
	}
	rc = Tss2_TctiLdr_Initialize(argv[1], &tcti);
	if (rc || (rc = Esys_Initialize(&esys, tcti, NULL))) {
		fprintf(stderr, "pcr-extend: %s: %s\n", argv[1], Tss2_RC_Decode(rc));
		goto out;
	}
	while (scanf("%u %64s", &pcr, hex) == 2) {
		if (!strcmp(hex, "reset") && pcr <= 23) {
			rc = Esys_PCR_Reset(esys, ESYS_TR_PCR0 + pcr, ESYS_TR_PASSWORD,
					    ESYS_TR_NONE, ESYS_TR_NONE);
			if (rc) {
				fprintf(stderr, "pcr-extend: reset PCR %u: %s\n", pcr, Tss2_RC_Decode(rc));
				goto out;
			}
			n++;
			continue;
		}
		memset(&d, 0, sizeof(d));
		d.count = 1;
		d.digests[0].hashAlg = TPM2_ALG_SHA256;
		if (strlen(hex) != 64 || pcr > 23) {
			fprintf(stderr, "pcr-extend: bad line %u\n", n + 1);
			goto out;
		}
		for (i = 0; i < 32; i++) {
			if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
				goto out;
			d.digests[0].digest.sha256[i] = (BYTE)byte;
		}
		rc = Esys_PCR_Extend(esys, ESYS_TR_PCR0 + pcr, ESYS_TR_PASSWORD,
				     ESYS_TR_NONE, ESYS_TR_NONE, &d);
		if (rc) {
			fprintf(stderr, "pcr-extend: PCR %u: %s\n", pcr, Tss2_RC_Decode(rc));
			goto out;
		}
		n++;
	}
	ret = feof(stdin) ? 0 : 1;
	if (ret)
		fprintf(stderr, "pcr-extend: bad line %u\n", n + 1);
out:
	Esys_Finalize(&esys);
	Tss2_TctiLdr_Finalize(&tcti);
	return ret;
}
