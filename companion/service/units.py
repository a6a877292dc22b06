"""The files that make the table a service, generated from the config: the systemd unit that runs it, the daily
backup's service and timer, and the udev rule that names the Pico.

Nothing here touches the system: :func:`plan` returns the files' paths and text, and ``companion service``
writes (or, with ``--dry-run``, prints) exactly that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from companion.config import Config

SERVICE = "tableside.service"
BACKUP_SERVICE = "tableside-backup.service"
BACKUP_TIMER = "tableside-backup.timer"
UNIT_DIR = PurePosixPath("/etc/systemd/system")
UDEV_RULE = PurePosixPath("/etc/udev/rules.d/99-tableside-pico.rules")
PICO_LINK = "tableside-pico"
PICO_USB = ("2e8a", "0005")  # Raspberry Pi's vendor id; MicroPython's USB serial (CDC) on the RP2040
ENABLED = (SERVICE, BACKUP_TIMER)
PATHS = (UNIT_DIR / SERVICE, UNIT_DIR / BACKUP_SERVICE, UNIT_DIR / BACKUP_TIMER, UDEV_RULE)
KERNEL_TTY = re.compile(r"/dev/tty(ACM|USB)\d+$")


@dataclass(frozen=True)
class InstallFile:
    path: PurePosixPath
    text: str


@dataclass(frozen=True)
class Target:
    """Where and as whom the table runs: the interpreter of its virtualenv and the config's absolute path."""

    python: Path
    config: Path
    user: str
    groups: tuple[str, ...]


def needed_groups(config: Config) -> tuple[str, ...]:
    """The groups whose devices the config names: the Pico's serial port, the camera, the GPIO chip."""
    groups = []
    if config.serial.port != "sim":
        groups.append("dialout")
    if config.camera.source != "sim" and not Path(str(config.camera.source)).suffix:
        groups.append("video")  # a camera index or /dev/video*, not a picture or a video file
    if config.buttons.pin_factory != "mock":
        groups.append("gpio")
    return tuple(groups)


def _arg(value: str | Path) -> str:
    """One ExecStart argument: ``%`` is systemd's specifier character; spaces need quotes."""
    text = str(value).replace("%", "%%")
    return f'"{text}"' if re.search(r"\s", text) else text


def _state_directory(config: Config) -> str | None:
    """``/var/lib/NAME/...`` databases get ``StateDirectory=NAME``: systemd creates it, owned by the user."""
    parts = config.resolve(config.table.database).parts
    return parts[3] if len(parts) > 4 and parts[:3] == ("/", "var", "lib") else None


def service_unit(config: Config, target: Target) -> str:
    command = " ".join(_arg(a) for a in (target.python, "-m", "companion", "--config", target.config, "demo"))
    state = _state_directory(config)
    lines = [
        "# Written by `companion service install` from " + str(target.config) + ": edit the config and run it again.",
        "[Unit]",
        "Description=Tableside: the card table's referee and scorekeeper",
        "Documentation=" + (target.config.parent / "docs" / "install.md").as_uri().replace("%", "%%"),
        "Wants=network-online.target",
        "After=network-online.target",
        "",
        "[Service]",
        "Type=notify",
        "NotifyAccess=main",
        f"User={target.user}",
        *([f"SupplementaryGroups={' '.join(target.groups)}"] if target.groups else []),
        f"WorkingDirectory={_arg(target.config.parent)}",
        *([f"StateDirectory={state}"] if state else []),
        "Environment=PYTHONUNBUFFERED=1",
        f"ExecStart={command}",
        "# A stop is a Ctrl-C: the table closes its log and turns the Pico's LEDs off.",
        "KillSignal=SIGINT",
        "TimeoutStartSec=120",
        "TimeoutStopSec=30",
        f"WatchdogSec={config.service.watchdog_seconds}",
        "Restart=on-failure",
        "RestartSec=5",
        "StandardOutput=journal",
        "StandardError=journal",
        "SyslogIdentifier=tableside",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
    ]
    return "\n".join(lines) + "\n"


def backup_service(config: Config, target: Target) -> str:
    command = " ".join(_arg(a) for a in (target.python, "-m", "companion", "--config", target.config, "backup",
                                         "--daily"))
    return "\n".join([
        f"# Written by `companion service install`: today's copy of the log, the newest {config.backup.keep} kept.",
        "[Unit]",
        "Description=Tableside: daily backup of the game log",
        "",
        "[Service]",
        "Type=oneshot",
        f"User={target.user}",
        f"WorkingDirectory={_arg(target.config.parent)}",
        *([f"StateDirectory={state}"] if (state := _state_directory(config)) else []),
        f"ExecStart={command}",
        "",
    ])


def backup_timer() -> str:
    return "\n".join([
        "# Written by `companion service install`: runs tableside-backup.service once a day (missed days at boot).",
        "[Unit]",
        "Description=Tableside: daily backup of the game log",
        "",
        "[Timer]",
        "OnCalendar=daily",
        "Persistent=true",
        "RandomizedDelaySec=10min",
        "",
        "[Install]",
        "WantedBy=timers.target",
        "",
    ])


def udev_rule() -> str:
    vendor, product = PICO_USB
    return (
        "# Written by `companion service install`: the Pico running MicroPython is /dev/tableside-pico,\n"
        "# whichever USB port it is in.\n"
        f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{vendor}", ATTRS{{idProduct}}=="{product}", '
        f'SYMLINK+="{PICO_LINK}", GROUP="dialout", MODE="0660"\n'
    )


def plan(config: Config, target: Target) -> list[InstallFile]:
    """Every file ``companion service install`` writes, with its text."""
    texts = (service_unit(config, target), backup_service(config, target), backup_timer(), udev_rule())
    return [InstallFile(path, text) for path, text in zip(PATHS, texts, strict=True)]


def port_advice(config: Config) -> str | None:
    """A config that names the Pico by its kernel name breaks when it is plugged into another port."""
    if KERNEL_TTY.match(config.serial.port):
        return (f"[serial] port = \"{config.serial.port}\" changes with the USB port: use "
                f"port = \"/dev/{PICO_LINK}\" (the udev rule's stable name)")
    return None
