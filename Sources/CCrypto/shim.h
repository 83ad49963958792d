#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* EVP_EC_gen is a macro over the C-variadic EVP_PKEY_Q_keygen, which Swift cannot call:
 * a new EC key on NIST P-256, or NULL. */
static inline EVP_PKEY *
accord_ec_p256_key(void)
{
    return EVP_EC_gen("P-256");
}

/* BIO_get_mem_data is a macro over BIO_ctrl: the bytes a memory BIO holds, and their count. */
static inline long
accord_bio_contents(BIO *bio, char **contents)
{
    return BIO_get_mem_data(bio, contents);
}

/* MBSTRING_UTF8 (a macro of an OR Swift does not import), for X509_NAME_add_entry_by_txt. */
static inline int
accord_mbstring_utf8(void)
{
    return MBSTRING_UTF8;
}
