// SPDX-License-Identifier: GPL-2.0-only
/*
 * Everything that talks to the TPM, through ESAPI and the TCTI loader. The
 * endorsement hierarchy's authorization must be empty (the default).
 */
#include <stdlib.h>
#include <string.h>

#include <tss2/tss2_esys.h>
#include <tss2/tss2_mu.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_tctildr.h>

#include "attest.h"

struct ha_tpm {
	TSS2_TCTI_CONTEXT *tcti;
	ESYS_CONTEXT *esys;
	ESYS_TR ak;
};

static int tss_fail(struct ha_err *e, const char *what, TSS2_RC rc)
{
	return ha_fail(e, "%s: %s", what, Tss2_RC_Decode(rc));
}

struct ha_tpm *ha_tpm_open(const char *tcti, struct ha_err *e)
{
	struct ha_tpm *t = calloc(1, sizeof(*t));
	TSS2_RC rc;

	if (!t) {
		ha_fail(e, "out of memory");
		return NULL;
	}
	t->ak = ESYS_TR_NONE;
	rc = Tss2_TctiLdr_Initialize(tcti, &t->tcti);
	if (rc) {
		free(t);
		tss_fail(e, tcti, rc);
		return NULL;
	}
	rc = Esys_Initialize(&t->esys, t->tcti, NULL);
	if (rc) {
		Tss2_TctiLdr_Finalize(&t->tcti);
		free(t);
		tss_fail(e, tcti, rc);
		return NULL;
	}
	return t;
}

void ha_tpm_close(struct ha_tpm *t)
{
	if (!t)
		return;
	if (t->ak != ESYS_TR_NONE)
		Esys_FlushContext(t->esys, t->ak);
	Esys_Finalize(&t->esys);
	Tss2_TctiLdr_Finalize(&t->tcti);
	free(t);
}

int ha_tpm_create_ak(struct ha_tpm *t, TPM2B_PUBLIC *pub, struct ha_err *e)
{
	TPM2B_SENSITIVE_CREATE sensitive = { 0 };
	TPM2B_DATA outside = { 0 };
	TPML_PCR_SELECTION creation_pcrs = { 0 };
	TPM2B_PUBLIC in;
	TPM2B_PUBLIC *out = NULL;
	TPM2B_CREATION_DATA *cdata = NULL;
	TPM2B_DIGEST *chash = NULL;
	TPMT_TK_CREATION *ticket = NULL;
	TSS2_RC rc;

	if (t->ak != ESYS_TR_NONE) {
		Esys_FlushContext(t->esys, t->ak);
		t->ak = ESYS_TR_NONE;
	}
	ha_ak_template(&in);
	rc = Esys_CreatePrimary(t->esys, ESYS_TR_RH_ENDORSEMENT, ESYS_TR_PASSWORD,
				ESYS_TR_NONE, ESYS_TR_NONE, &sensitive, &in, &outside,
				&creation_pcrs, &t->ak, &out, &cdata, &chash, &ticket);
	if (rc) {
		t->ak = ESYS_TR_NONE;
		return tss_fail(e, "cannot create the attestation key", rc);
	}
	*pub = *out;
	Esys_Free(out);
	Esys_Free(cdata);
	Esys_Free(chash);
	Esys_Free(ticket);
	return 0;
}

int ha_tpm_quote(struct ha_tpm *t, const unsigned char *nonce, size_t nonce_len,
		 unsigned pcr, struct ha_buf *attest, struct ha_buf *sig, struct ha_err *e)
{
	TPMT_SIG_SCHEME scheme = { .scheme = TPM2_ALG_NULL };	/* the key's own */
	TPML_PCR_SELECTION sel = { 0 };
	TPM2B_DATA qualifying = { 0 };
	TPM2B_ATTEST *quoted = NULL;
	TPMT_SIGNATURE *signature = NULL;
	uint8_t sigbuf[sizeof(TPMT_SIGNATURE)];
	size_t off = 0;
	TSS2_RC rc;

	if (nonce_len > sizeof(qualifying.buffer))
		return ha_fail(e, "nonce is longer than the TPM takes");
	qualifying.size = (UINT16)nonce_len;
	memcpy(qualifying.buffer, nonce, nonce_len);
	sel.count = 1;
	sel.pcrSelections[0].hash = TPM2_ALG_SHA256;
	sel.pcrSelections[0].sizeofSelect = 3;
	sel.pcrSelections[0].pcrSelect[pcr / 8] |= (BYTE)(1u << (pcr % 8));
	sel.pcrSelections[0].pcrSelect[HA_IMA_PCR / 8] |= (BYTE)(1u << (HA_IMA_PCR % 8));
	rc = Esys_Quote(t->esys, t->ak, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
			&qualifying, &scheme, &sel, &quoted, &signature);
	if (rc)
		return tss_fail(e, "cannot quote", rc);
	rc = Tss2_MU_TPMT_SIGNATURE_Marshal(signature, sigbuf, sizeof(sigbuf), &off);
	Esys_Free(signature);
	if (rc) {
		Esys_Free(quoted);
		return tss_fail(e, "cannot marshal the signature", rc);
	}
	attest->p = malloc(quoted->size ? quoted->size : 1);
	sig->p = malloc(off);
	if (!attest->p || !sig->p) {
		free(attest->p);
		free(sig->p);
		Esys_Free(quoted);
		return ha_fail(e, "out of memory");
	}
	memcpy(attest->p, quoted->attestationData, quoted->size);
	attest->len = quoted->size;
	memcpy(sig->p, sigbuf, off);
	sig->len = off;
	Esys_Free(quoted);
	return 0;
}
