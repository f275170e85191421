#!/usr/bin/env bash
# The game night's certificates, made with openssl: a certificate authority of the night's
# own, and the broker's certificate signed by it for the names tables reach the hub by.
#
#   systemd/night-certs.sh DIR NAME...     e.g. DIR=/etc/mosquitto/certs hub hub.local 10.0.0.5
#
# In DIR: night-ca.crt (what every table trusts: copy it to each), night-ca.key (stays here),
# broker.crt and broker.key (Mosquitto's TLS listener), broker.names (the names it was for). Run again, it keeps the authority
# and the broker's certificate, and makes a new broker certificate only when NAMEs differ
# from the ones it has. Names that are addresses (IPv4, IPv6) become IP names. Prints what
# it made, one line each.
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 DIR NAME..." >&2; exit 2; }
dir=$1
shift
command -v openssl >/dev/null || { echo "$0: openssl is missing: apt install openssl" >&2; exit 1; }
mkdir -p "$dir"
umask 077

names=()
for name in "$@"; do
    if [[ $name =~ ^[0-9.]+$ || $name == *:* ]]; then names+=("IP:$name"); else names+=("DNS:$name"); fi
done
san=$(IFS=,; echo "${names[*]}")

if [ ! -s "$dir/night-ca.key" ] || [ ! -s "$dir/night-ca.crt" ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 \
        -days 3650 -subj "/CN=table-companion game night" \
        -addext "basicConstraints=critical,CA:TRUE,pathlen:0" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$dir/night-ca.key" -out "$dir/night-ca.crt" 2>/dev/null
    chmod 0644 "$dir/night-ca.crt"
    rm -f "$dir/broker.crt"  # signed by an authority that is gone
    echo "Made the night's certificate authority $dir/night-ca.crt"
fi

# broker.names: the names of broker.crt as given, to compare with (openssl rewrites addresses)
if [ "$(cat "$dir/broker.names" 2>/dev/null)" != "$san" ] || [ ! -s "$dir/broker.key" ] \
        || [ ! -s "$dir/broker.crt" ]; then
    extensions=$(mktemp)
    request=$(mktemp)
    trap 'rm -f "$extensions" "$request"' EXIT
    printf '%s\n' "subjectAltName=$san" "basicConstraints=critical,CA:FALSE" \
        "keyUsage=critical,digitalSignature" "extendedKeyUsage=serverAuth" \
        "subjectKeyIdentifier=hash" "authorityKeyIdentifier=keyid,issuer" >"$extensions"
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 \
        -subj "/CN=$1" -keyout "$dir/broker.key" -out "$request" 2>/dev/null
    openssl x509 -req -in "$request" -CA "$dir/night-ca.crt" -CAkey "$dir/night-ca.key" \
        -CAcreateserial -CAserial "$dir/night-ca.srl" -sha256 -days 825 \
        -extfile "$extensions" -out "$dir/broker.crt" 2>/dev/null
    chmod 0644 "$dir/broker.crt"
    echo "$san" >"$dir/broker.names"
    echo "Made the broker's certificate $dir/broker.crt for ${san//,/ }"
fi
