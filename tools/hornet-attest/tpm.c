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
		 unsigned pcr, bool boot, struct ha_buf *attest, struct ha_buf *sig,
		 struct ha_err *e)
{
	unsigned i;
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
	/* The boot chain's PCRs, which the firmware's event log replays. */
	for (i = 0; boot && i < HA_BOOT_PCRS; i++)
		sel.pcrSelections[0].pcrSelect[i / 8] |= (BYTE)(1u << (i % 8));
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

/* The EK's template, L-1 of TCG's EK Credential Profile: RSA 2048, AES-128
 * CFB, admin only by PolicySecret(TPM_RH_ENDORSEMENT), and a unique field
 * of 256 zero bytes. The EK certificate certifies the key it gives. */
static void ek_template(TPM2B_PUBLIC *pub)
{
	static const BYTE policy_secret_endorsement[] = {
		0x83, 0x71, 0x97, 0x67, 0x44, 0x84, 0xb3, 0xf8, 0x1a, 0x90, 0xcc,
		0x8d, 0x46, 0xa5, 0xd7, 0x24, 0xfd, 0x52, 0xd7, 0x6e, 0x06, 0x52,
		0x0b, 0x64, 0xf2, 0xa1, 0xda, 0x1b, 0x33, 0x14, 0x69, 0xaa,
	};
	TPMT_PUBLIC *a = &pub->publicArea;

	memset(pub, 0, sizeof(*pub));
	a->type = TPM2_ALG_RSA;
	a->nameAlg = TPM2_ALG_SHA256;
	a->objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
			      TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_ADMINWITHPOLICY |
			      TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT;
	a->authPolicy.size = sizeof(policy_secret_endorsement);
	memcpy(a->authPolicy.buffer, policy_secret_endorsement, sizeof(policy_secret_endorsement));
	a->parameters.rsaDetail.symmetric.algorithm = TPM2_ALG_AES;
	a->parameters.rsaDetail.symmetric.keyBits.aes = 128;
	a->parameters.rsaDetail.symmetric.mode.aes = TPM2_ALG_CFB;
	a->parameters.rsaDetail.scheme.scheme = TPM2_ALG_NULL;
	a->parameters.rsaDetail.keyBits = 2048;
	a->parameters.rsaDetail.exponent = 0;
	a->unique.rsa.size = 256;
}

#define EK_CERT_NV_RSA 0x01c00002
#define NV_CHUNK 512

int ha_tpm_read_ek_cert(struct ha_tpm *t, struct ha_buf *out, struct ha_err *e)
{
	TPM2B_NV_PUBLIC *nvpub = NULL;
	TPM2B_MAX_NV_BUFFER *data = NULL;
	ESYS_TR nv = ESYS_TR_NONE;
	UINT16 size, off, n;
	TSS2_RC rc;

	rc = Esys_TR_FromTPMPublic(t->esys, EK_CERT_NV_RSA, ESYS_TR_NONE, ESYS_TR_NONE,
				   ESYS_TR_NONE, &nv);
	if (rc)
		return tss_fail(e, "no RSA EK certificate at NV index 0x01c00002", rc);
	rc = Esys_NV_ReadPublic(t->esys, nv, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
				&nvpub, NULL);
	if (rc) {
		Esys_TR_Close(t->esys, &nv);
		return tss_fail(e, "cannot read NV index 0x01c00002's public area", rc);
	}
	size = nvpub->nvPublic.dataSize;
	Esys_Free(nvpub);
	out->p = malloc(size ? size : 1);
	if (!out->p) {
		Esys_TR_Close(t->esys, &nv);
		return ha_fail(e, "out of memory");
	}
	for (off = 0; off < size; off += n) {
		n = size - off < NV_CHUNK ? size - off : NV_CHUNK;
		/* The EK certificate's index is readable with its own empty auth. */
		rc = Esys_NV_Read(t->esys, nv, nv, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
				  n, off, &data);
		if (rc || data->size != n) {
			Esys_Free(data);
			free(out->p);
			out->p = NULL;
			Esys_TR_Close(t->esys, &nv);
			return rc ? tss_fail(e, "cannot read the EK certificate from NV index 0x01c00002", rc)
				  : ha_fail(e, "short read of NV index 0x01c00002");
		}
		memcpy(out->p + off, data->buffer, n);
		Esys_Free(data);
		data = NULL;
	}
	out->len = size;
	Esys_TR_Close(t->esys, &nv);
	return 0;
}

int ha_tpm_activate(struct ha_tpm *t, const TPM2B_ID_OBJECT *blob,
		    const TPM2B_ENCRYPTED_SECRET *enc, TPM2B_DIGEST *secret, struct ha_err *e)
{
	TPM2B_SENSITIVE_CREATE sensitive = { 0 };
	TPMT_SYM_DEF sym = { .algorithm = TPM2_ALG_NULL };
	TPM2B_DATA outside = { 0 };
	TPML_PCR_SELECTION creation_pcrs = { 0 };
	TPM2B_NONCE empty_nonce = { 0 };
	TPM2B_DIGEST empty_digest = { 0 };
	TPM2B_PUBLIC in, ak_pub;
	TPM2B_PUBLIC *out = NULL;
	TPM2B_CREATION_DATA *cdata = NULL;
	TPM2B_DIGEST *chash = NULL, *cert = NULL;
	TPMT_TK_CREATION *ticket = NULL;
	TPM2B_TIMEOUT *timeout = NULL;
	TPMT_TK_AUTH *auth_ticket = NULL;
	ESYS_TR ek = ESYS_TR_NONE, session = ESYS_TR_NONE;
	TSS2_RC rc;
	int ret = -1;

	if (ha_tpm_create_ak(t, &ak_pub, e))
		return -1;
	ek_template(&in);
	rc = Esys_CreatePrimary(t->esys, ESYS_TR_RH_ENDORSEMENT, ESYS_TR_PASSWORD,
				ESYS_TR_NONE, ESYS_TR_NONE, &sensitive, &in, &outside,
				&creation_pcrs, &ek, &out, &cdata, &chash, &ticket);
	Esys_Free(out);
	Esys_Free(cdata);
	Esys_Free(chash);
	Esys_Free(ticket);
	if (rc) {
		ek = ESYS_TR_NONE;
		tss_fail(e, "cannot create the EK from template L-1", rc);
		goto out;
	}
	/* The EK's admin role: PolicySecret(TPM_RH_ENDORSEMENT). */
	rc = Esys_StartAuthSession(t->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
				   ESYS_TR_NONE, ESYS_TR_NONE, NULL, TPM2_SE_POLICY, &sym,
				   TPM2_ALG_SHA256, &session);
	if (rc) {
		session = ESYS_TR_NONE;
		tss_fail(e, "cannot start a policy session", rc);
		goto out;
	}
	rc = Esys_PolicySecret(t->esys, ESYS_TR_RH_ENDORSEMENT, session, ESYS_TR_PASSWORD,
			       ESYS_TR_NONE, ESYS_TR_NONE, &empty_nonce, &empty_digest,
			       &empty_nonce, 0, &timeout, &auth_ticket);
	Esys_Free(timeout);
	Esys_Free(auth_ticket);
	if (rc) {
		tss_fail(e, "PolicySecret(TPM_RH_ENDORSEMENT) failed", rc);
		goto out;
	}
	rc = Esys_ActivateCredential(t->esys, t->ak, ek, ESYS_TR_PASSWORD, session,
				     ESYS_TR_NONE, blob, enc, &cert);
	if (rc) {
		tss_fail(e, "TPM2_ActivateCredential refused the challenge", rc);
		goto out;
	}
	/* Without continueSession, a command that succeeds ends the session. */
	session = ESYS_TR_NONE;
	*secret = *cert;
	Esys_Free(cert);
	ret = 0;
out:
	if (session != ESYS_TR_NONE)
		Esys_FlushContext(t->esys, session);
	if (ek != ESYS_TR_NONE)
		Esys_FlushContext(t->esys, ek);
	return ret;
}
