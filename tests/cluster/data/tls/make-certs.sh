#!/bin/sh
# Regenerates the test certificates in this folder (see README.md). Test-only keys: never use them anywhere
# else. Needs the openssl binary (Debian: openssl). Every certificate is dated explicitly (`openssl ca`
# -startdate/-enddate) so none depends on the clock of the machine that made it: valid 2000-2125, except
# expired.crt (2000 only).
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
valid_from=20000101000000Z
valid_to=21250101000000Z

key_and_request() { # name
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$1.key" \
        -out "$work/$1.csr" -subj "/O=Crawlscope tests/CN=$1" 2>/dev/null
}

# issue NAME SIGNER(ca name, or "self") EXTENSIONS START END
issue() {
    rm -f "$work/index.txt"
    touch "$work/index.txt"
    [ -f "$work/serial" ] || echo 1000 > "$work/serial"
    printf '%s\n' "[ca]" "default_ca = test" "[test]" "database = $work/index.txt" \
        "new_certs_dir = $work" "serial = $work/serial" "default_md = sha256" "policy = any" \
        "x509_extensions = ext" "unique_subject = no" "[any]" "commonName = supplied" \
        "organizationName = optional" "[ext]" > "$work/ca.cnf"
    printf '%s\n' "$3" | tr ';' '\n' >> "$work/ca.cnf"
    if [ "$2" = self ]; then
        signer="-selfsign -keyfile $1.key"
    else
        signer="-cert $2.crt -keyfile $2.key"
    fi
    # shellcheck disable=SC2086
    openssl ca -batch -config "$work/ca.cnf" $signer -in "$work/$1.csr" -out "$1.crt" \
        -startdate "$4" -enddate "$5" -notext 2>/dev/null
}

ca_ext="basicConstraints = critical,CA:TRUE;keyUsage = critical,keyCertSign,cRLSign"
# Two unrelated CAs: the one that signed everything, and one that signed nothing here (the "wrong CA").
for ca in ca other-ca; do
    key_and_request "$ca"
    issue "$ca" self "$ca_ext" "$valid_from" "$valid_to"
done
# The server: valid for 127.0.0.1 only (so rediss://localhost:... is a host name mismatch).
key_and_request server
issue server ca "subjectAltName = IP:127.0.0.1;extendedKeyUsage = serverAuth" "$valid_from" "$valid_to"
# The client: what redis-server asks for with --tls-auth-clients yes.
key_and_request client
issue client ca "extendedKeyUsage = clientAuth" "$valid_from" "$valid_to"
# The right CA and address, but expired in 2001.
key_and_request expired
issue expired ca "subjectAltName = IP:127.0.0.1;extendedKeyUsage = serverAuth" 20000101000000Z 20010101000000Z

rm -f other-ca.key
chmod 644 ./*.key
