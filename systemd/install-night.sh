# shellcheck shell=bash disable=SC2154  # purge: install.sh's option
# The game night's parts of systemd/install.sh (sourced by it, which defines say, did, fail,
# apt_install, systemd_runs, with_block, SOURCE, CONFIG_DIR, SERVICE and VENV):
#
#   --hub [--tables N]   this machine is the night's hub: Mosquitto with the shipped config
#                        and ACL, a TLS certificate from the night's own authority, one
#                        password per table (table-1 ... table-N, default 4) and the hub's,
#                        the system user table-companion-hub, the roster file it reads, and
#                        table-companion-hub.service. For each table it writes a folder
#                        /etc/table-companion/night/table-K to copy to that table's Pi.
#
# Who reads what in /etc/table-companion (root's, mode 755: each file guards itself, so a Pi
# can be the hub and a table at once): config.toml and night-ca.crt anyone (settings and a
# certificate); mqtt-password the table's user alone (its publisher); roster.toml root and
# the group table-companion-hub (the hub); hub-password root alone (systemd hands it to the
# hub, LoadCredential=); host-password and night/ (the tables' folders) root alone.
#   --publish DIR        this table publishes to the night: DIR is its folder from the hub
#                        (its password, the authority's certificate, its [night] settings);
#                        adds [night] to the config and starts table-companion-publish.service.
# With --uninstall, each removes its own part (--purge: the hub's authority and passwords too).

HUB_SERVICE=table-companion-hub
HUB_USER=table-companion-hub  # the hub's system user and group (User= in its unit)
PUBLISH_SERVICE=table-companion-publish
MOSQUITTO_DIR=/etc/mosquitto
CERTS=$MOSQUITTO_DIR/certs
MOSQUITTO_CONF=$MOSQUITTO_DIR/conf.d/table-companion.conf
MOSQUITTO_ACL=$MOSQUITTO_DIR/table-companion.acl
MOSQUITTO_PASSWD=$MOSQUITTO_DIR/table-companion.passwd
NIGHT_DIR=$CONFIG_DIR/night  # the hub's passwords, and a folder per table to hand out
HUB_PASSWORD=$CONFIG_DIR/hub-password
HOST_PASSWORD=$CONFIG_DIR/host-password  # table-companion seat --publish (root alone reads it)
TABLE_PASSWORD=$CONFIG_DIR/mqtt-password
TABLE_CA=$CONFIG_DIR/night-ca.crt
ROSTER=$CONFIG_DIR/roster.toml  # the hub's --roster

remove_unit() {
    local name=$1 unit=/etc/systemd/system/$1.service
    [ -f "$unit" ] || return 0
    if systemd_runs; then
        systemctl disable --now --quiet "$name.service" || true
    elif command -v systemctl >/dev/null 2>&1; then
        systemctl disable --quiet "$name.service" || true
    fi
    rm -f "$unit"
    if systemd_runs; then systemctl daemon-reload; fi
    did "Removed $unit"
}

# /etc/table-companion: root's, and passable by every service (mode 755); an install before
# this one left it 700, which locked the table's and the hub's users out of their files.
config_dir() {
    if [ ! -d "$CONFIG_DIR" ]; then
        install -d -m 0755 "$CONFIG_DIR"
    elif [ "$(stat -c '%U:%G %a' "$CONFIG_DIR")" != "root:root 755" ]; then
        chown root:root "$CONFIG_DIR" && chmod 0755 "$CONFIG_DIR"
        did "Made $CONFIG_DIR passable to the services (mode 755; each file keeps its own)"
    fi
}

# File $1 owned by $2 (user:group) with mode $3, said when it was not.
owned() {
    if [ "$(stat -c '%U:%G %a' "$1")" != "$2 $3" ]; then
        chown "$2" "$1" && chmod "$3" "$1"
        did "Made $1 readable by ${4:-its owner} alone ($2, mode $3)"
    fi
}

# A password of 24 random characters in file $1 (root's, mode 600), unless it has one; its
# folder is made root's alone if it is new.
password_file() {
    [ -s "$1" ] && return 0
    [ -d "$(dirname "$1")" ] || install -d -m 0700 "$(dirname "$1")"
    (umask 077; head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$1")
    did "Made a password in $1"
}

# The hub's system user, and the roster it reads: root's and its group's (a roster written
# by `table-companion roster merge` keeps both).
hub_user() {
    if ! id -u "$HUB_USER" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "/var/lib/$HUB_SERVICE" --no-create-home \
            --shell /usr/sbin/nologin --comment "table-companion game night hub" "$HUB_USER"
        did "Created the system user $HUB_USER"
    fi
    if [ ! -e "$ROSTER" ]; then
        printf '%s\n' "# The game night's players: table-companion roster merge writes them here." \
            "# The hub (the group $HUB_USER) reads it again whenever it changes." >"$ROSTER.new"
        install -o root -g "$HUB_USER" -m 0640 "$ROSTER.new" "$ROSTER" && rm "$ROSTER.new"
        did "Wrote $ROSTER for the players' names, readable by the hub"
    fi
    owned "$ROSTER" "root:$HUB_USER" 640 "root and the hub"
}

# The names the tables may reach the hub by: its host name, NAME.local (mDNS) and its
# addresses now (a certificate made again later keeps the same authority).
hub_names() {
    local host
    host=$(hostname)
    printf '%s\n' "$host" "$host.local" localhost 127.0.0.1
    hostname -I 2>/dev/null | tr ' ' '\n' | grep -v '^$' || true
}

install_hub() {
    local tables=$1 restart=0 n id folder before names
    apt_install mosquitto openssl
    config_dir
    hub_user
    before=$(cat "$CERTS/broker.crt" 2>/dev/null || true)
    mapfile -t names < <(hub_names)
    "$SOURCE/systemd/night-certs.sh" "$CERTS" "${names[@]}"
    if [ "$before" != "$(cat "$CERTS/broker.crt")" ]; then changed=1; restart=1; fi
    chgrp mosquitto "$CERTS/broker.key" && chmod 0640 "$CERTS/broker.key"  # mosquitto's user

    for file in conf acl; do
        local target=$MOSQUITTO_CONF
        [ "$file" = acl ] && target=$MOSQUITTO_ACL
        if ! cmp -s "$SOURCE/systemd/mosquitto/table-companion.$file" "$target"; then
            install -D -m 0644 "$SOURCE/systemd/mosquitto/table-companion.$file" "$target"
            did "Installed $target"
            restart=1
        fi
    done

    password_file "$HUB_PASSWORD"
    password_file "$HOST_PASSWORD"
    owned "$HUB_PASSWORD" root:root 600 root  # systemd hands it to the hub
    owned "$HOST_PASSWORD" root:root 600 root
    [ -d "$NIGHT_DIR" ] || install -d -m 0700 "$NIGHT_DIR"
    owned "$NIGHT_DIR" root:root 700 root
    for n in $(seq 1 "$tables"); do
        id=table-$n
        folder=$NIGHT_DIR/$id
        password_file "$folder/mqtt-password"
        if ! cmp -s "$CERTS/night-ca.crt" "$folder/night-ca.crt"; then
            install -m 0644 "$CERTS/night-ca.crt" "$folder/night-ca.crt"
        fi
        printf '[night]\ntable = "Table %s"\nbroker = "mqtts://%s.local:8883"\n' \
            "$n" "$(hostname)" >"$folder/night.toml.new"
        if cmp -s "$folder/night.toml.new" "$folder/night.toml"; then
            rm "$folder/night.toml.new"
        else
            mv "$folder/night.toml.new" "$folder/night.toml"
            did "Wrote $folder: copy it to Table $n's Pi, and there run"
            say "    sudo systemd/install.sh --publish DIR   (DIR: where you copied it)"
        fi
    done
    # the broker's logins: the hub's, the host's and each table's (added once;
    # mosquitto_passwd salts each hash anew, so a login already there is left alone)
    touch "$MOSQUITTO_PASSWD"
    local user secret
    for user in night_hub night_host $(seq -f 'table-%g' 1 "$tables"); do
        case $user in
            night_hub) secret=$HUB_PASSWORD ;;
            night_host) secret=$HOST_PASSWORD ;;
            *) secret=$NIGHT_DIR/$user/mqtt-password ;;
        esac
        if ! grep -q "^$user:" "$MOSQUITTO_PASSWD"; then
            mosquitto_passwd -b "$MOSQUITTO_PASSWD" "$user" "$(cat "$secret")"
            did "Added the login $user to $MOSQUITTO_PASSWD"
            restart=1
        fi
    done
    chown mosquitto: "$MOSQUITTO_PASSWD" && chmod 0600 "$MOSQUITTO_PASSWD"

    if systemd_runs && { [ "$restart" -eq 1 ] || ! systemctl is-active --quiet mosquitto.service; }; then
        systemctl enable --quiet mosquitto.service
        systemctl restart mosquitto.service
        did "Mosquitto is running with the night's config: tables at mqtts://$(hostname).local:8883"
    fi
    start_unit "$HUB_SERVICE" "$restart" "$HUB_SERVICE is running: journalctl -u $HUB_SERVICE -f"
    say "The night's page: http://$(hostname).local:8080/ (journalctl -u $HUB_SERVICE)"
}

uninstall_hub() {
    remove_unit "$HUB_SERVICE"
    local file
    for file in "$MOSQUITTO_CONF" "$MOSQUITTO_ACL" "$MOSQUITTO_PASSWD"; do
        if [ -f "$file" ]; then rm -f "$file"; did "Removed $file"; fi
    done
    if systemd_runs && [ "$changed" -eq 1 ]; then systemctl restart mosquitto.service || true; fi
    if [ "$purge" -eq 1 ]; then
        for file in "$CERTS"/night-ca.{crt,key,srl} "$CERTS"/broker.{crt,key,names} \
                "$HUB_PASSWORD" "$HOST_PASSWORD"; do
            if [ -f "$file" ]; then rm -f "$file"; did "Removed $file"; fi
        done
        if [ -d "$NIGHT_DIR" ]; then rm -rf "$NIGHT_DIR"; did "Removed $NIGHT_DIR"; fi
        if id -u "$HUB_USER" >/dev/null 2>&1; then
            if [ -f "$ROSTER" ]; then
                chgrp root "$ROSTER"
                say "Kept $ROSTER (the players' names), root's alone now"
            fi
            userdel "$HUB_USER"
            did "Removed the user $HUB_USER"
        fi
    elif [ -f "$CERTS/night-ca.key" ]; then
        say "Kept the night's authority and the tables' passwords (--purge removes them;"
        say "then every table needs its folder again)"
    fi
}

install_publish() {
    local from=$1 file config=$CONFIG_DIR/config.toml
    for file in mqtt-password night-ca.crt night.toml; do
        [ -f "$from/$file" ] || fail "$from/$file is missing: give the folder the hub's install.sh --hub wrote for this table"
    done
    config_dir
    if ! cmp -s "$from/mqtt-password" "$TABLE_PASSWORD"; then
        install -o "$SERVICE" -g "$SERVICE" -m 0600 "$from/mqtt-password" "$TABLE_PASSWORD"
        did "Installed this table's broker password as $TABLE_PASSWORD"
    fi
    owned "$TABLE_PASSWORD" "$SERVICE:$SERVICE" 600 "the publisher"
    if ! cmp -s "$from/night-ca.crt" "$TABLE_CA"; then
        install -m 0644 "$from/night-ca.crt" "$TABLE_CA"
        did "Installed the night's authority as $TABLE_CA"
    fi
    if with_block "$config" </dev/null | grep -q '^\[night\]'; then
        fail "$config has a [night] section of its own: remove it (install.sh --publish writes one)"
    fi
    { cat "$from/night.toml"; printf 'credentials = "%s"\nca = "%s"\n' "$TABLE_PASSWORD" "$TABLE_CA"; } \
        | with_block "$config" >"$config.new"
    if cmp -s "$config.new" "$config"; then
        rm "$config.new"
    else
        "$VENV/bin/python" -I -c 'import sys; from pathlib import Path
from firmware_host.config import ConfigError, load
try:
    night = load(Path(sys.argv[1])).night
except ConfigError as err:
    sys.exit(f"install.sh: {err}")
print(f"This table publishes as {night.table} ({night.table_id}) to {night.broker}")' "$config.new" \
            || { rm -f "$config.new"; fail "$from/night.toml does not fit; nothing was changed"; }
        mv "$config.new" "$config"
        did "Added the [night] section to $config"
    fi
    start_unit "$PUBLISH_SERVICE" "$changed" \
        "$PUBLISH_SERVICE is running: journalctl -u $PUBLISH_SERVICE -f"
}

uninstall_publish() {
    remove_unit "$PUBLISH_SERVICE"
    local config=$CONFIG_DIR/config.toml file
    if [ -f "$config" ] && grep -qxF "$BLOCK_BEGIN" "$config"; then
        with_block "$config" </dev/null >"$config.new" && mv "$config.new" "$config"
        did "Removed the [night] section from $config"
    fi
    for file in "$TABLE_PASSWORD" "$TABLE_CA"; do
        if [ -f "$file" ]; then rm -f "$file"; did "Removed $file"; fi
    done
}
