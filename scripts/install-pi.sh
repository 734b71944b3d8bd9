#!/usr/bin/env bash
# Installs clew as a systemd service on Raspberry Pi OS (Bookworm or later), from this checkout.
#
#   sudo scripts/install-pi.sh                 # install or update, then (re)start the service
#   scripts/install-pi.sh --dry-run            # print every step and the unit file; change nothing
#
# What it does: checks Node.js (>= 20.19), creates the system user `clew` in the groups gpio,
# video and dialout, copies the app to /opt/clew (code owned by root, read-only to the service),
# installs its npm dependencies, creates /etc/clew/config.json from device/config.example.json if
# there is none (an existing one is kept), keeps data in /var/lib/clew (CLEW_DATA), and writes
# /etc/systemd/system/clew.service (PORT, CLEW_DATA, CLEW_CONFIG; restart on failure; SIGTERM for
# a graceful stop). With --pullups it also enables the internal pull-ups of the button pins in
# the firmware config.txt (takes effect after a reboot).
#
# An update keeps the installed service's settings: an option not given (--prefix, --port,
# --user, --data, --config-dir, --pins) takes its value from the installed clew.service (and
# config.txt), not from the defaults, so phones' links and the table's data stay where they are.
#
# CLEW_INSTALL_UNIT_DIR and CLEW_INSTALL_BOOT_CONFIG replace /etc/systemd/system and the firmware
# config.txt (for tests with --dry-run, or a system that keeps them elsewhere).
set -euo pipefail

DEFAULT_PREFIX=/opt/clew
DEFAULT_CONFIG_DIR=/etc/clew
DEFAULT_DATA_DIR=/var/lib/clew
DEFAULT_SERVICE_USER=clew
DEFAULT_PORT=8080
DEFAULT_PINS="17,27,22,23"
# Empty until an option or the installed service sets them; then the defaults.
PREFIX=""
CONFIG_DIR=""
DATA_DIR=""
SERVICE_USER=""
PORT=""
PINS=""
UNIT_DIR="${CLEW_INSTALL_UNIT_DIR:-/etc/systemd/system}"
BOOT_CONFIG="${CLEW_INSTALL_BOOT_CONFIG:-}"
# clew's comment above its gpio= line in config.txt: how a later run finds the line to replace.
PULLUP_MARK="# clew buttons: inputs with internal pull-ups (buttons switch to GND)"
PULLUPS=0
START=1
DRY_RUN=0
GROUPS_WANTED=(gpio video dialout)
MIN_NODE_MAJOR=20
MIN_NODE_MINOR=19

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
  cat <<EOF
Usage: install-pi.sh [options]
  --dry-run          print what would be done (and the unit file); change nothing
  --prefix DIR       where the app is installed (default $DEFAULT_PREFIX)
  --port N           HTTP port for the dashboard (default $DEFAULT_PORT)
  --user NAME        service user (default $DEFAULT_SERVICE_USER)
  --data DIR         data folder, CLEW_DATA (default $DEFAULT_DATA_DIR)
  --config-dir DIR   config folder (default $DEFAULT_CONFIG_DIR)
  --pullups          enable internal pull-ups on the button pins in config.txt (needs a reboot)
  --pins LIST        BCM pins for --pullups (default $DEFAULT_PINS)
  --no-start         install and enable, but do not start the service now
  -h, --help         this text

An update (a second run) keeps what the installed clew.service says for an option not given.
Paths may not contain spaces or any of % " ' \ \$ (systemd unit files cannot carry them as written).

To uninstall (the table's data and config stay unless you remove them too):
  sudo systemctl disable --now clew.service
  sudo rm /etc/systemd/system/clew.service && sudo systemctl daemon-reload
  sudo rm -r /opt/clew            # and /var/lib/clew (data), /etc/clew (config) to forget the table
  sudo userdel clew
  and delete clew's two lines (the "# clew buttons" comment and the gpio= line) from config.txt
EOF
}

die() {
  echo "install-pi: $*" >&2
  exit 1
}

warn() {
  echo "install-pi: WARNING: $*" >&2
}

need_value() {
  [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value (see --help)"
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --prefix) need_value "$@"; PREFIX="$2"; shift ;;
    --port) need_value "$@"; PORT="$2"; shift ;;
    --user) need_value "$@"; SERVICE_USER="$2"; shift ;;
    --data) need_value "$@"; DATA_DIR="$2"; shift ;;
    --config-dir) need_value "$@"; CONFIG_DIR="$2"; shift ;;
    --pullups) PULLUPS=1 ;;
    --pins) need_value "$@"; PINS="$2"; shift ;;
    --no-start) START=0 ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done

# What the installed service uses (an update), read from the unit file this script wrote.
INSTALLED_UNIT="$UNIT_DIR/clew.service"
declare -A INSTALLED=()
if [[ -r "$INSTALLED_UNIT" ]]; then
  echo "updating the installed service $INSTALLED_UNIT: options not given keep its settings"
  while IFS= read -r line; do
    case "$line" in
      WorkingDirectory=*) INSTALLED[--prefix]="${line#*=}" ;;
      User=*) INSTALLED[--user]="${line#*=}" ;;
      Environment=PORT=*) INSTALLED[--port]="${line#Environment=PORT=}" ;;
      Environment=CLEW_DATA=*) INSTALLED[--data]="${line#Environment=CLEW_DATA=}" ;;
      Environment=CLEW_CONFIG=*/config.json)
        line="${line#Environment=CLEW_CONFIG=}"
        INSTALLED[--config-dir]="${line%/config.json}"
        ;;
    esac
  done <"$INSTALLED_UNIT"
fi
if [[ -z "$BOOT_CONFIG" ]]; then
  BOOT_CONFIG=/boot/firmware/config.txt
  [[ -e "$BOOT_CONFIG" ]] || BOOT_CONFIG=/boot/config.txt
fi
# clew's earlier pull-ups line: the line after its comment.
OLD_PULLUP_LINE=""
if [[ -r "$BOOT_CONFIG" ]]; then
  OLD_PULLUP_LINE="$(awk -v mark="$PULLUP_MARK" 'found && /^gpio=/ { print; exit } { found = ($0 == mark) }' "$BOOT_CONFIG")"
fi
if [[ "$OLD_PULLUP_LINE" =~ ^gpio=([0-9,]+)=ip,pu$ ]]; then
  INSTALLED[--pins]="${BASH_REMATCH[1]}"
fi

# An option given wins; else the installed value (a re-run without the first run's flags must not
# move the port phones have bookmarked, or start the table afresh in another data folder); else
# the default. A change of port, data or prefix is announced loudly: it moves something.
# setting VAR OPTION DEFAULT [what a change means]
setting() {
  local var="$1" option="$2" default="$3" consequence="${4:-}"
  local given="${!var}" installed="${INSTALLED[$option]:-}"
  if [[ -n "$given" ]]; then
    if [[ -n "$installed" && "$given" != "$installed" && -n "$consequence" ]]; then
      warn "$option $given replaces $installed of the installed service: $consequence"
    fi
  elif [[ -n "$installed" ]]; then
    printf -v "$var" '%s' "$installed"
    [[ "$installed" == "$default" ]] || echo "$option $installed, as installed (give $option to change it)"
  else
    printf -v "$var" '%s' "$default"
  fi
}
setting PREFIX --prefix "$DEFAULT_PREFIX" "the app in ${INSTALLED[--prefix]:-} stays there (remove it by hand)"
setting PORT --port "$DEFAULT_PORT" "links and QR codes with port ${INSTALLED[--port]:-} stop working"
setting SERVICE_USER --user "$DEFAULT_SERVICE_USER"
setting DATA_DIR --data "$DEFAULT_DATA_DIR" "the table's data stays in ${INSTALLED[--data]:-} and clew starts with an empty folder (stop clew and move the files over to keep the table)"
setting CONFIG_DIR --config-dir "$DEFAULT_CONFIG_DIR" "the config in ${INSTALLED[--config-dir]:-} is no longer read"
setting PINS --pins "$DEFAULT_PINS"

[[ "$PORT" =~ ^[0-9]+$ && "$PORT" -ge 1 && "$PORT" -le 65535 ]] || die "--port must be 1-65535, got '$PORT'"
[[ "$PINS" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--pins must be BCM numbers separated by commas, got '$PINS'"
[[ "$SERVICE_USER" =~ ^[a-z_][a-z0-9_-]*$ ]] || die "--user '$SERVICE_USER' is not a valid user name"
# The unit file carries these paths as written: systemd splits Environment= and ReadWritePaths=
# at spaces, expands % and $, and unquotes quotes and backslashes, each key its own way. Refused
# rather than half-quoted.
unit_safe() {
  case "$1" in
    *[[:space:]%\"\'\\\$]*) return 1 ;;
  esac
}
for dir in "$PREFIX" "$DATA_DIR" "$CONFIG_DIR"; do
  [[ "$dir" == /* ]] || die "'$dir' must be an absolute path"
  unit_safe "$dir" || die "'$dir' contains a space or one of % \" ' \\ \$, which the systemd unit cannot carry; choose a path without"
done
# An update empties the app folder: the table's data and its config must live outside it.
for dir in "$DATA_DIR" "$CONFIG_DIR"; do
  case "${dir%/}/" in
    "${PREFIX%/}/"*) die "'$dir' is inside --prefix $PREFIX, which an update empties; choose a folder outside it" ;;
  esac
done

# Every change goes through run(): printed in a dry run, executed otherwise.
run() {
  if [[ $DRY_RUN -eq 1 ]]; then
    printf '+ %s\n' "$*"
  else
    "$@"
  fi
}

step() {
  printf '==> %s\n' "$*"
}

if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
  die "run as root (sudo $0), or try --dry-run"
fi

step "Node.js"
NODE_BIN="$(command -v node || true)"
if [[ -z "$NODE_BIN" ]]; then
  [[ $DRY_RUN -eq 1 ]] || die "Node.js is not installed; install Node.js 20 LTS or later first (e.g. from NodeSource), then run this again"
  echo "Node.js not found (a real install would stop here)"
  NODE_BIN=/usr/bin/node
else
  NODE_VERSION="$("$NODE_BIN" -p 'process.versions.node')"
  IFS=. read -r major minor _ <<<"$NODE_VERSION"
  if ((major < MIN_NODE_MAJOR || (major == MIN_NODE_MAJOR && minor < MIN_NODE_MINOR))); then
    die "Node.js $NODE_VERSION is too old; clew needs $MIN_NODE_MAJOR.$MIN_NODE_MINOR or later"
  fi
  echo "Node.js $NODE_VERSION at $NODE_BIN"
  unit_safe "$NODE_BIN" || die "Node.js at '$NODE_BIN': a path with a space or one of % \" ' \\ \$ cannot go in the unit's ExecStart; install Node.js elsewhere (e.g. /usr/bin)"
fi

step "camera and GPIO tools (optional)"
command -v rpicam-vid >/dev/null 2>&1 && echo "rpicam-vid: found" || echo "rpicam-vid: not found (Pi camera: apt install rpicam-apps)"
command -v ffmpeg >/dev/null 2>&1 && echo "ffmpeg: found" || echo "ffmpeg: not found (USB webcam: apt install ffmpeg)"
command -v gpiomon >/dev/null 2>&1 && echo "gpiomon: found" || echo "gpiomon: not found (GPIO buttons without sysfs, pull-ups set by clew: apt install gpiod)"

step "user $SERVICE_USER in groups ${GROUPS_WANTED[*]}"
for group in "${GROUPS_WANTED[@]}"; do
  # Raspberry Pi OS has all three; elsewhere a missing one is created so the unit can name it.
  getent group "$group" >/dev/null 2>&1 || run groupadd --system "$group"
done
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
  run useradd --system --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups "$(IFS=,; echo "${GROUPS_WANTED[*]}")" "$SERVICE_USER"

step "app in $PREFIX"
if [[ "$SRC" != "$PREFIX" ]]; then
  # Never clean a folder that is not an earlier clew install.
  if [[ -d "$PREFIX" && -n "$(ls -A "$PREFIX" 2>/dev/null)" ]] && ! grep -q '"name": "clew"' "$PREFIX/package.json" 2>/dev/null; then
    die "$PREFIX exists and is not a clew install; choose another --prefix"
  fi
  run mkdir -p "$PREFIX"
  # An update replaces the app's files (files removed upstream go too); node_modules is reused.
  if [[ -d "$PREFIX" ]]; then
    run find "$PREFIX" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
  fi
  # Copy the checkout without its installed packages, VCS data or local data.
  run tar -C "$SRC" --exclude=./node_modules --exclude=./.git --exclude=./.clew-data --exclude=./dist --exclude=./tmp -cf "$PREFIX/.install.tar" .
  run tar -C "$PREFIX" -xf "$PREFIX/.install.tar"
  run rm -f "$PREFIX/.install.tar"
fi

# Which npm install: without dev dependencies only if nothing at run or build time needs them.
# The path goes to node as an argument, never into the script text (a ' in it broke the script,
# and a silent fallback then gave ExecStart=npm start and no dashboard build).
if [[ -x "$NODE_BIN" ]]; then
  PACKAGE_INFO="$("$NODE_BIN" -p '
    const p = require(process.argv[1]);
    const start = p.scripts?.start ?? "";
    const usesTsx = /\btsx\b/.test(start) && !(p.dependencies ?? {}).tsx;
    const builds = Boolean(p.scripts?.build);
    [start.replace(/\n/g, " "), usesTsx || builds ? "yes" : "no", builds ? "yes" : "no"].join("\n")
  ' "$SRC/package.json")" || die "cannot read $SRC/package.json (see the error above)"
  { read -r START_SCRIPT; read -r NEEDS_DEV; read -r HAS_BUILD; } <<<"$PACKAGE_INFO"
else
  echo "package.json not read without Node.js (a real install would have stopped)"
  START_SCRIPT=""
  NEEDS_DEV=yes
  HAS_BUILD=yes
fi
if [[ "$NEEDS_DEV" == yes ]]; then
  echo "npm ci with dev dependencies (the start script runs TypeScript through tsx, or the dashboard is built here)"
  run env --chdir="$PREFIX" npm ci --no-audit --no-fund
else
  run env --chdir="$PREFIX" npm ci --omit=dev --no-audit --no-fund
fi
if [[ "$HAS_BUILD" == yes ]]; then
  run env --chdir="$PREFIX" npm run build
fi
# onoff is optional: its epoll module is compiled here, and npm skips it where there is no C++
# compiler. GPIO buttons then need libgpiod's tools instead (said above); say which it is.
if [[ $DRY_RUN -eq 1 ]]; then
  echo "onoff (sysfs GPIO): built after npm ci where a C++ compiler is installed, else skipped (GPIO then through libgpiod's tools)"
elif [[ -e "$PREFIX/node_modules/epoll/build/Release/epoll.node" ]]; then
  echo "onoff (sysfs GPIO): built"
else
  echo "onoff (sysfs GPIO): not built (no C++ compiler?); GPIO buttons go through libgpiod's tools (apt install gpiod), or apt install build-essential python3 and install again"
fi
run chown -R root:root "$PREFIX"

# One process for systemd to signal: `tsx FILE` runs as `node --import tsx FILE`, and `node ARGS`
# as this node with the same ARGS; anything else via npm. (Under npm, SIGTERM reaches npm and the
# shell it starts, not clew: systemd then kills clew after the timeout, with no clean shutdown.)
if [[ "$START_SCRIPT" =~ ^tsx[[:space:]]+([^[:space:]]+)$ ]]; then
  EXEC_START="$NODE_BIN --import tsx ${BASH_REMATCH[1]}"
elif [[ "$START_SCRIPT" =~ ^node([[:space:]]+[^\;\&\|\<\>\$\`\'\"]+)$ ]]; then
  EXEC_START="$NODE_BIN${BASH_REMATCH[1]}"
else
  EXEC_START="$(command -v npm || echo /usr/bin/npm) start"
fi

step "config in $CONFIG_DIR, data in $DATA_DIR"
run mkdir -p "$CONFIG_DIR"
if [[ -e "$CONFIG_DIR/config.json" ]]; then
  echo "keeping $CONFIG_DIR/config.json"
else
  # Readable by clew's own user only: the config may hold the table's referee code.
  run install -m 0640 -g "$SERVICE_USER" "$SRC/device/config.example.json" "$CONFIG_DIR/config.json"
fi
run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"

unit_file() {
  cat <<EOF
[Unit]
Description=clew table companion (dice camera, buttons, phone dashboard)
Documentation=file://$PREFIX/docs/notes/device.md
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=$SERVICE_USER
Group=$SERVICE_USER
SupplementaryGroups=${GROUPS_WANTED[*]}
WorkingDirectory=$PREFIX
Environment=NODE_ENV=production
Environment=PORT=$PORT
Environment=CLEW_DATA=$DATA_DIR
Environment=CLEW_CONFIG=$CONFIG_DIR/config.json
ExecStart=$EXEC_START
StandardInput=null
Restart=on-failure
RestartSec=3
# Graceful stop: SIGTERM to clew (it flushes the log, releases the pins, stops the camera), then
# SIGKILL for anything left after the timeout.
KillSignal=SIGTERM
KillMode=mixed
TimeoutStopSec=20
# Hardening that leaves /sys writable: GPIO export/unexport happens there (so no ProtectKernelTunables).
NoNewPrivileges=yes
ProtectSystem=full
ProtectHome=yes
PrivateTmp=yes
ReadWritePaths=$DATA_DIR

[Install]
WantedBy=multi-user.target
EOF
}

step "systemd unit $UNIT_DIR/clew.service"
if [[ $DRY_RUN -eq 1 ]]; then
  echo "----- $UNIT_DIR/clew.service -----"
  unit_file
  echo "----- end -----"
else
  unit_file >"$UNIT_DIR/clew.service.new"
  mv "$UNIT_DIR/clew.service.new" "$UNIT_DIR/clew.service"
fi
run systemctl daemon-reload
run systemctl enable clew.service
if [[ $START -eq 1 ]]; then
  run systemctl restart clew.service
fi

# config.txt (stdin) with clew's one pull-ups line: the line after clew's comment is replaced (another
# --pins must not add a second gpio= line), later clew blocks (from older installers, which
# appended) are dropped with the blank lines before them, and without one the block is appended.
with_pullups() {
  awk -v mark="$PULLUP_MARK" -v line="$1" '
    $0 == mark {
      if (!done) { printf "%s", blank; print; print line }
      blank = ""; done = 1; drop = 1; next
    }
    drop && /^gpio=/ { drop = 0; next }
    { drop = 0 }
    /^[[:space:]]*$/ { blank = blank $0 "\n"; next }
    { printf "%s", blank; blank = ""; print }
    END {
      if (!done) { printf "%s", (blank == "" && NR > 0 ? "\n" : blank); print mark; print line }
      else printf "%s", blank
    }
  '
}

if [[ $PULLUPS -eq 1 ]]; then
  step "pull-ups on BCM $PINS"
  LINE="gpio=$PINS=ip,pu"
  OLD_BOOT_CONFIG=""
  NEW_BOOT_CONFIG="$(with_pullups "$LINE" </dev/null)"
  if [[ -e "$BOOT_CONFIG" ]]; then
    OLD_BOOT_CONFIG="$(cat "$BOOT_CONFIG")"
    NEW_BOOT_CONFIG="$(with_pullups "$LINE" <"$BOOT_CONFIG")"
  fi
  if [[ -e "$BOOT_CONFIG" && "$NEW_BOOT_CONFIG" == "$OLD_BOOT_CONFIG" ]]; then
    echo "$BOOT_CONFIG already has $LINE"
  else
    if [[ "$OLD_PULLUP_LINE" == "$LINE" ]]; then
      what="remove clew's repeated pull-ups lines (keeping \"$LINE\") from $BOOT_CONFIG"
    elif [[ -n "$OLD_PULLUP_LINE" ]]; then
      what="replace clew's \"$OLD_PULLUP_LINE\" with \"$LINE\" in $BOOT_CONFIG"
    else
      what="append \"$LINE\" to $BOOT_CONFIG"
    fi
    if [[ $DRY_RUN -eq 1 ]]; then
      printf '+ %s\n' "$what"
      echo "----- $BOOT_CONFIG -----"
      printf '%s\n' "$NEW_BOOT_CONFIG"
      echo "----- end -----"
    else
      # Written in place (not moved over), as the boot partition's file it is.
      printf '%s\n' "$NEW_BOOT_CONFIG" >"$BOOT_CONFIG"
      echo "done: $what; reboot for it to take effect"
    fi
  fi
fi

step "done"
echo "clew will serve http://$(hostname -I 2>/dev/null | awk '{print $1}' || echo '<this-pi>'):$PORT/"
echo "logs: journalctl -u clew -f    config: $CONFIG_DIR/config.json (restart after editing: systemctl restart clew)"
