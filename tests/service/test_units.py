"""The service's unit files and udev rule: generated from the config, checked by systemd's own verifier and a
parse of the rule, written exactly as ``--dry-run`` prints them."""

from __future__ import annotations

import pwd
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import load_config
from companion.service.units import PICO_LINK, udev_rule

ROOT = Path(__file__).parents[2]
GROUPS = "root:x:0:\ndialout:x:20:\nvideo:x:44:\ngpio:x:997:\n"


def a_normal_user() -> str:
    """A user that exists here and is neither root nor the special 'nobody' systemd warns about."""
    return next(u.pw_name for u in pwd.getpwall() if 0 < u.pw_uid < 65534 and u.pw_name != "nobody")


@pytest.fixture
def pi_config(tmp_path) -> Path:
    """The shipped Pi config, beside a copy of the docs (the unit points at docs/install.md)."""
    path = tmp_path / "table" / "companion.pi.toml"
    path.parent.mkdir()
    shutil.copy(ROOT / "companion.pi.toml", path)
    return path


@pytest.fixture
def image(tmp_path) -> Path:
    root = tmp_path / "image"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "group").write_text(GROUPS, encoding="utf-8")
    return root


def install(capsys, config: Path, image: Path, *extra: str) -> tuple[int, str, str]:
    code = main(["-c", str(config), "service", "install", "--root", str(image), "--user", a_normal_user(), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_dry_run_prints_exactly_what_install_writes(capsys, pi_config, image):
    code, printed, _ = install(capsys, pi_config, image, "--dry-run")
    assert code == 0
    assert sorted(p.relative_to(image) for p in image.rglob("*") if p.is_file()) == [Path("etc/group")]
    code, out, _ = install(capsys, pi_config, image)
    assert code == 0, out
    written = sorted(p for p in image.rglob("*") if p.is_file() and p.name != "group")
    assert len(written) == 4
    for path in written:
        assert f"# {path}\n{path.read_text(encoding='utf-8')}" in printed
    assert f"$ systemctl --root={image} enable tableside.service tableside-backup.timer" in printed
    assert (image / "etc/systemd/system/multi-user.target.wants/tableside.service").is_symlink()
    assert (image / "etc/systemd/system/timers.target.wants/tableside-backup.timer").is_symlink()


def test_the_unit_runs_the_configured_table_as_a_normal_user_under_systemds_eye(capsys, pi_config, image):
    install(capsys, pi_config, image)
    unit = (image / "etc/systemd/system/tableside.service").read_text(encoding="utf-8")
    expected = {
        "Type": "notify", "User": a_normal_user(), "Restart": "on-failure", "WatchdogSec": "30",
        "SupplementaryGroups": "dialout video gpio", "StateDirectory": "tableside", "KillSignal": "SIGINT",
        "StandardOutput": "journal", "StandardError": "journal", "WantedBy": "multi-user.target",
        "ExecStart": f"{sys.executable} -m companion --config {pi_config} demo",
    }
    settings = dict(line.split("=", 1) for line in unit.splitlines() if "=" in line and not line.startswith("#"))
    assert {key: settings.get(key) for key in expected} == expected


def test_groups_follow_the_devices_the_config_names(capsys, tmp_path, image):
    config = tmp_path / "sim.toml"
    config.write_text('[serial]\nport = "sim"\n[camera]\nsource = 0\n[buttons]\npin_factory = "mock"\n')
    install(capsys, config, image)
    unit = (image / "etc/systemd/system/tableside.service").read_text(encoding="utf-8")
    assert "SupplementaryGroups=video\n" in unit
    assert "StateDirectory" not in unit  # the database lives beside the config, not in /var/lib


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed here: the unit files were not verified")
def test_systemd_analyze_verifies_the_units_without_a_word(capsys, pi_config, image):
    install(capsys, pi_config, image)
    units = sorted((image / "etc/systemd/system").glob("tableside*"))
    assert [u.name for u in units] == ["tableside-backup.service", "tableside-backup.timer", "tableside.service"]
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", *map(str, units)], capture_output=True,
                            text=True, cwd=units[0].parent, check=False)
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_a_broken_unit_is_caught_by_the_verifier(tmp_path):
    """The check above can fail: systemd-analyze names a bad line even though it exits 0."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed here")
    bad = tmp_path / "bad.service"
    bad.write_text(f"[Service]\nType=notify\nRestart=sometimes\nExecStart={sys.executable}\n")
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(bad)], capture_output=True, text=True,
                            check=False)
    assert "restart specifier" in result.stderr


UDEV_TOKEN = re.compile(r'(?P<key>[A-Z]+)(\{(?P<attr>[A-Za-z]+)\})?(?P<op>==|!=|\+=|:=|=)"(?P<value>[^"]*)"')
UDEV_MATCH = {"SUBSYSTEM", "ATTRS", "KERNEL", "ACTION"}
UDEV_ASSIGN = {"SYMLINK", "GROUP", "MODE", "TAG"}


def parse_udev(text: str) -> list[dict[tuple[str, str | None], tuple[str, str]]]:
    """udev's rule syntax: comma-separated KEY[{attr}]OP"value" tokens, matches with ==, assignments with =/+=."""
    rules = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        tokens = line.split(", ")
        rule = {}
        for token in tokens:
            found = UDEV_TOKEN.fullmatch(token)
            assert found, f"not a udev token: {token!r}"
            key, op = found["key"], found["op"]
            assert (key in UDEV_MATCH and op in ("==", "!=")) or (key in UDEV_ASSIGN and op in ("=", "+=")), token
            rule[(key, found["attr"])] = (op, found["value"])
        rules.append(rule)
    return rules


def test_the_udev_rule_names_the_pico_by_its_usb_ids(tmp_path):
    (rule,) = parse_udev(udev_rule())
    assert rule[("SUBSYSTEM", None)] == ("==", "tty")
    assert rule[("ATTRS", "idVendor")] == ("==", "2e8a") and rule[("ATTRS", "idProduct")] == ("==", "0005")
    assert rule[("SYMLINK", None)] == ("+=", PICO_LINK)
    if shutil.which("udevadm") and "verify" in subprocess.run(["udevadm", "--help"], capture_output=True,
                                                              text=True, check=False).stdout:
        path = tmp_path / "99-tableside-pico.rules"
        path.write_text(udev_rule(), encoding="utf-8")
        assert subprocess.run(["udevadm", "verify", str(path)], check=False).returncode == 0


def test_the_pi_config_uses_the_stable_name():
    config = load_config(ROOT / "companion.pi.toml")
    assert config.serial.port == f"/dev/{PICO_LINK}"


def test_install_refuses_root_and_changes_nothing(capsys, pi_config, image):
    code = main(["-c", str(pi_config), "service", "install", "--root", str(image), "--user", "root"])
    assert code == 2 and "not root" in capsys.readouterr().err
    assert [p.name for p in image.rglob("*") if p.is_file()] == ["group"]


def test_status_compares_the_installed_files_with_the_config(capsys, pi_config, image):
    user = a_normal_user()
    status = ["-c", str(pi_config), "service", "status", "--root", str(image), "--user", user]
    assert main(status) == 1 and "not installed" in capsys.readouterr().out
    install(capsys, pi_config, image)
    assert main(status) == 0 and capsys.readouterr().out.count("up to date") == 4
    pi_config.write_text(pi_config.read_text().replace("watchdog_seconds = 30", "watchdog_seconds = 60"))
    assert main(status) == 1
    assert "tableside.service: differs from the config" in capsys.readouterr().out
    assert main(["-c", str(pi_config), "service", "uninstall", "--root", str(image)]) == 0
    capsys.readouterr()
    assert [p.name for p in image.rglob("*") if p.is_file()] == ["group"]
