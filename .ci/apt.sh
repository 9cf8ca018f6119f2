# Sourced by the .ci scripts: install a Debian package when possible, best effort.
# apt_install WHAT PACKAGE: returns non-zero (after saying why) when it cannot be had.
apt_install() {
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        log "no $1 and no way to install it"
        return 1
    fi
    log "installing $1"
    export DEBIAN_FRONTEND=noninteractive
    timeout 600 apt-get update -qq >&2 || true
    if ! timeout 900 apt-get install -y -qq "$2" >&2; then
        log "could not install $1"
        return 1
    fi
}
