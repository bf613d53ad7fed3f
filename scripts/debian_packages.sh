# Sourced by install-deps.sh and install-bench-deps.sh.
# apt_install_missing LABEL PACKAGE...: installs those of the Debian packages
# not installed yet, saying which under LABEL; nothing when all are. nodejs and
# npm count as installed when node and npm are on the PATH (a Node.js from
# nodesource or nvm is fine too, and Debian's npm would conflict with it).
apt_install_missing() {
  local label=$1 p
  shift
  local missing=()
  for p in "$@"; do
    case $p in nodejs|npm) command -v node > /dev/null && command -v npm > /dev/null && continue ;; esac
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "$label: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
}
