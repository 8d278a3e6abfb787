#!/bin/sh
# Regenerates the test certificates in this folder (see README.md). Test-only keys: never use them anywhere
# else. Needs the openssl binary (Debian: openssl).
set -eu
cd "$(dirname "$0")"
days=36500
subj() { printf '/O=Crawlscope tests/CN=%s' "$1"; }

# Two unrelated CAs: the one that signed everything, and one that signed nothing here (the "wrong CA").
for ca in ca other-ca; do
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days "$days" \
        -keyout "$ca.key" -out "$ca.crt" -subj "$(subj "$ca")" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
done

# The server: valid for 127.0.0.1 only (so rediss://localhost:... is a host name mismatch).
# The client: what redis-server asks for with --tls-auth-clients yes.
sign() { # name, extensions
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$1.key" -out "$1.csr" \
        -subj "$(subj "$1")"
    printf '%s\n' "$2" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days "$days" \
        -extfile "$1.ext" -out "$1.crt"
    rm -f "$1.csr" "$1.ext"
}
sign server "subjectAltName=IP:127.0.0.1
extendedKeyUsage=serverAuth"
sign client "extendedKeyUsage=clientAuth"
rm -f ca.srl other-ca.key
chmod 644 ./*.key
