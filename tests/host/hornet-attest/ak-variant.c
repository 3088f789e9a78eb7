// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test helper for the hornet_attest_* host tests: makes, in a (software)
 * TPM, a primary key of the endorsement hierarchy from hornet-attest's AK
 * template with some attributes cleared, and writes its marshalled
 * TPM2B_PUBLIC: an AK that a TPM really holds but that is not the
 * template's. Exits 0 when the TPM made it.
 *
 *   ak-variant TCTI CLEAR-MASK OUT      (CLEAR-MASK: TPMA_OBJECT bits, hex)
 */
#include <stdio.h>
#include <stdlib.h>

#include <tss2/tss2_esys.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

int main(int argc, char **argv)
{
	TSS2_TCTI_CONTEXT *tcti = NULL;
	ESYS_CONTEXT *esys = NULL;
	TPM2B_SENSITIVE_CREATE sensitive = { 0 };
	TPM2B_DATA outside = { 0 };
	TPML_PCR_SELECTION pcrs = { 0 };
	TPM2B_PUBLIC in = { 0 }, *out = NULL;
	TPM2B_CREATION_DATA *cdata = NULL;
	TPM2B_DIGEST *chash = NULL;
	TPMT_TK_CREATION *ticket = NULL;
	ESYS_TR key = ESYS_TR_NONE;
	uint8_t buf[sizeof(TPM2B_PUBLIC)];
	size_t off = 0;
	FILE *f;
	TSS2_RC rc;
	int ret = 1;

	if (argc != 4) {
		fprintf(stderr, "usage: ak-variant TCTI CLEAR-MASK OUT\n");
		return 2;
	}
	/* hornet-attest's AK template (ak.c), attributes less the mask. */
	in.publicArea.type = TPM2_ALG_ECC;
	in.publicArea.nameAlg = TPM2_ALG_SHA256;
	in.publicArea.objectAttributes = (TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
					  TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH |
					  TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_SIGN_ENCRYPT) &
					 ~(TPMA_OBJECT)strtoul(argv[2], NULL, 16);
	in.publicArea.parameters.eccDetail.symmetric.algorithm = TPM2_ALG_NULL;
	in.publicArea.parameters.eccDetail.scheme.scheme = TPM2_ALG_ECDSA;
	in.publicArea.parameters.eccDetail.scheme.details.ecdsa.hashAlg = TPM2_ALG_SHA256;
	in.publicArea.parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
	in.publicArea.parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
	rc = Tss2_TctiLdr_Initialize(argv[1], &tcti);
	if (rc || (rc = Esys_Initialize(&esys, tcti, NULL))) {
		fprintf(stderr, "ak-variant: %s: %s\n", argv[1], Tss2_RC_Decode(rc));
		goto out;
	}
	rc = Esys_CreatePrimary(esys, ESYS_TR_RH_ENDORSEMENT, ESYS_TR_PASSWORD, ESYS_TR_NONE,
				ESYS_TR_NONE, &sensitive, &in, &outside, &pcrs, &key, &out,
				&cdata, &chash, &ticket);
	if (rc) {
		fprintf(stderr, "ak-variant: CreatePrimary: %s\n", Tss2_RC_Decode(rc));
		goto out;
	}
	if (Tss2_MU_TPM2B_PUBLIC_Marshal(out, buf, sizeof(buf), &off))
		goto out;
	f = fopen(argv[3], "wb");
	if (!f || fwrite(buf, 1, off, f) != off || fclose(f)) {
		fprintf(stderr, "ak-variant: cannot write %s\n", argv[3]);
		goto out;
	}
	ret = 0;
out:
	if (key != ESYS_TR_NONE)
		Esys_FlushContext(esys, key);
	Esys_Free(out);
	Esys_Free(cdata);
	Esys_Free(chash);
	Esys_Free(ticket);
	Esys_Finalize(&esys);
	Tss2_TctiLdr_Finalize(&tcti);
	return ret;
}
