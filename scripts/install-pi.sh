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
set -euo pipefail

PREFIX=/opt/clew
CONFIG_DIR=/etc/clew
DATA_DIR=/var/lib/clew
SERVICE_USER=clew
PORT=8080
UNIT_DIR=/etc/systemd/system
PULLUPS=0
PINS="17,27,22,23"
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
  --prefix DIR       where the app is installed (default $PREFIX)
  --port N           HTTP port for the dashboard (default $PORT)
  --user NAME        service user (default $SERVICE_USER)
  --data DIR         data folder, CLEW_DATA (default $DATA_DIR)
  --config-dir DIR   config folder (default $CONFIG_DIR)
  --pullups          enable internal pull-ups on the button pins in config.txt (needs a reboot)
  --pins LIST        BCM pins for --pullups (default $PINS)
  --no-start         install and enable, but do not start the service now
  -h, --help         this text
EOF
}

die() {
  echo "install-pi: $*" >&2
  exit 1
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

[[ "$PORT" =~ ^[0-9]+$ && "$PORT" -ge 1 && "$PORT" -le 65535 ]] || die "--port must be 1-65535, got '$PORT'"
[[ "$PINS" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--pins must be BCM numbers separated by commas, got '$PINS'"
[[ "$SERVICE_USER" =~ ^[a-z_][a-z0-9_-]*$ ]] || die "--user '$SERVICE_USER' is not a valid user name"
for dir in "$PREFIX" "$DATA_DIR" "$CONFIG_DIR"; do
  [[ "$dir" == /* ]] || die "'$dir' must be an absolute path"
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
START_SCRIPT="$("$NODE_BIN" -p "require('$SRC/package.json').scripts?.start ?? ''" 2>/dev/null || true)"
NEEDS_DEV="$("$NODE_BIN" -p "
  const p = require('$SRC/package.json');
  const deps = p.dependencies ?? {};
  const usesTsx = /\\btsx\\b/.test(p.scripts?.start ?? '') && !deps.tsx;
  const builds = Boolean(p.scripts?.build);
  usesTsx || builds ? 'yes' : 'no'
" 2>/dev/null || echo yes)"
HAS_BUILD="$("$NODE_BIN" -p "require('$SRC/package.json').scripts?.build ? 'yes' : 'no'" 2>/dev/null || echo no)"
if [[ "$NEEDS_DEV" == yes ]]; then
  echo "npm ci with dev dependencies (the start script runs TypeScript through tsx, or the dashboard is built here)"
  run env --chdir="$PREFIX" npm ci --no-audit --no-fund
else
  run env --chdir="$PREFIX" npm ci --omit=dev --no-audit --no-fund
fi
if [[ "$HAS_BUILD" == yes ]]; then
  run env --chdir="$PREFIX" npm run build
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

if [[ $PULLUPS -eq 1 ]]; then
  step "pull-ups on BCM $PINS"
  BOOT_CONFIG=/boot/firmware/config.txt
  [[ -e "$BOOT_CONFIG" ]] || BOOT_CONFIG=/boot/config.txt
  LINE="gpio=$PINS=ip,pu"
  if [[ -e "$BOOT_CONFIG" ]] && grep -qxF "$LINE" "$BOOT_CONFIG"; then
    echo "$BOOT_CONFIG already has $LINE"
  elif [[ $DRY_RUN -eq 1 ]]; then
    printf '+ append "%s" to %s\n' "$LINE" "$BOOT_CONFIG"
  else
    printf '\n# clew buttons: inputs with internal pull-ups (buttons switch to GND)\n%s\n' "$LINE" >>"$BOOT_CONFIG"
    echo "added $LINE to $BOOT_CONFIG: reboot for it to take effect"
  fi
fi

step "done"
echo "clew will serve http://$(hostname -I 2>/dev/null | awk '{print $1}' || echo '<this-pi>'):$PORT/"
echo "logs: journalctl -u clew -f    config: $CONFIG_DIR/config.json (restart after editing: systemctl restart clew)"
