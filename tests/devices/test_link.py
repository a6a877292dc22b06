"""The serial link against the firmware emulator, over a real pty and pyserial: frames, faults, reconnects."""

from __future__ import annotations

import itertools
import signal
import subprocess
import sys

import pytest

from companion.devices import protocol as p
from companion.devices.flash import firmware_version
from companion.devices.link import LinkDown, SerialLink
from companion.sim.pico import SimulatedPico
from tests.devices.support import Collector, pump
from tests.waiting import PATIENCE, child_process, wait_until

pytestmark = pytest.mark.timeout(30)


def test_samples_arrive_from_every_pad_in_order(pico: SimulatedPico, link: SerialLink, collector: Collector) -> None:
    pump(pico, link, 1.0)
    samples = collector.of(p.Sample)
    for pad in range(6):
        times = [t for m, t, _ in samples if m.pad == pad]
        assert 78 <= len(times) <= 82  # 80 samples/s
        assert times == sorted(times)
    health = link.health()
    assert health.connected and health.bad_frames == 0 and health.seq_gaps == 0
    assert health.frames_per_s > 400 and health.last_frame_age_s is not None and health.last_frame_age_s < 5
    assert health.device is not None and health.device.pads == 6
    assert health.device.version == firmware_version()  # the emulator stands in for this checkout's firmware


def test_garbage_and_bad_checksums_are_skipped_and_counted(
    pico: SimulatedPico, link: SerialLink, collector: Collector
) -> None:
    pump(pico, link, 0.2)
    pico.garbage(b"\x03\x03MicroPython v1.24 REPL\r\n>>> \x00")
    pico.faults.corrupt = 3
    pump(pico, link, 0.2)
    health = link.health()
    assert health.errors.get("crc", 0) + health.errors.get("cobs", 0) + health.errors.get("truncated", 0) >= 3
    assert health.bad_frames == 4
    assert health.seq_gaps == 1 and health.frames_lost == 3
    assert len(collector.of(p.Sample)) > 100


def test_dropped_and_truncated_frames_show_as_sequence_gaps(pico: SimulatedPico, link: SerialLink) -> None:
    pump(pico, link, 0.1)
    pico.faults.drop = 2
    pump(pico, link, 0.1)
    assert (link.health().seq_gaps, link.health().frames_lost, link.health().bad_frames) == (1, 2, 0)
    pico.faults.truncate = 1
    pump(pico, link, 0.1)
    health = link.health()
    assert (health.seq_gaps, health.frames_lost, health.bad_frames) == (2, 4, 1)  # the cut frame took the next


def test_unplug_and_replug_mid_stream_reconnects_without_inventing_readings(
    pico: SimulatedPico, link: SerialLink, collector: Collector
) -> None:
    pump(pico, link, 0.5)
    before = len(collector.of(p.Sample))
    pico.unplug()
    assert wait_until(lambda: not link.health().connected)
    pico.advance(0.5)  # the Pico is off the bus: nothing can arrive
    assert len(collector.of(p.Sample)) == before
    assert "cannot open" in (link.health().last_error or "") or not link.health().connected
    pico.replug()
    assert link.wait_connected(PATIENCE)
    pump(pico, link, 0.5)
    health = link.health()
    assert health.connected and health.reconnects == 1 and health.seq_gaps == 0
    after = [(m, t) for m, t, _ in collector.of(p.Sample)[before:]]
    assert len(after) > 200
    assert after[0][1] < 100_000  # the Pico rebooted: its clock starts again


def test_a_pad_whose_hx711_stops_is_a_fault_with_no_readings(
    pico: SimulatedPico, link: SerialLink, collector: Collector
) -> None:
    pump(pico, link, 0.3)
    pico.stop_hx711(2)
    stopped_at = pico.device_us
    pump(pico, link, 0.7)
    faults = [m for m, _, _ in collector.of(p.Fault)]
    assert [(f.pad, f.code) for f in faults] == [(2, p.FaultCode.NOT_READY)]
    assert link.health().pad_faults == 0b100
    assert not [m for m, t, _ in collector.of(p.Sample) if m.pad == 2 and m.t_us > stopped_at]
    pico.start_hx711(2)
    pump(pico, link, 0.6)
    assert [(m.pad, m.code) for m, _, _ in collector.of(p.Fault)][-1] == (2, p.FaultCode.CLEARED)
    assert link.health().pad_faults == 0


def test_device_time_is_unwrapped_across_the_32_bit_wrap() -> None:
    with SimulatedPico(pads=1, device_start_us=0xFFFF_FFFF - 300_000) as pico, \
            SerialLink(pico.port, backoff_s=(0.01, 0.05)) as link:
        collector = Collector()
        link.add_listener(collector)
        assert link.wait_connected(PATIENCE)
        pump(pico, link, 1.0)
        times = [t for _, t, _ in collector.of(p.Sample)]
        assert times == sorted(times) and times[-1] > 0xFFFF_FFFF
        assert max(b - a for a, b in itertools.pairwise(times)) < 20_000


def test_commands_round_trip_against_a_running_emulator() -> None:
    with SimulatedPico(pads=2, realtime=True, speed=4.0) as pico, SerialLink(pico.port) as link:
        assert link.wait_connected(PATIENCE)
        assert link.ping() < 1.0
        info = link.info()
        assert (info.proto, info.pads, info.rate) == (1, 2, 80)
        tares = link.tare_raw(0b11, 8)
        assert set(tares) == {0, 1} and all(t.n == 8 for t in tares.values())
        assert abs(tares[0].mean - 52_000) < 3 * 4_300  # the emulated pad's offset, within noise
        replies = link.request(lambda seq: p.SetRate(seq, 33), (p.Ack,))
        assert replies[-1].status == p.Status.BAD_ARGUMENT
        with pytest.raises(ValueError, match="refused"):
            link.tare_raw(0b100, 8)


def test_a_missing_port_is_reported_not_raised() -> None:
    with SerialLink("/dev/does-not-exist", backoff_s=(0.01, 0.02)) as link:
        assert not link.wait_connected(0.2)
        health = link.health()
        assert not health.connected and "cannot open /dev/does-not-exist" in (health.last_error or "")
        with pytest.raises(LinkDown):
            link.ping(timeout=0.1)


def test_rate_command_slows_sampling_without_faults(
    pico: SimulatedPico, link: SerialLink, collector: Collector
) -> None:
    seq = link.send(lambda s: p.SetRate(s, 10))
    pump(pico, link, 0.05)
    pump(pico, link, 2.0)
    acks = [m for m, _, _ in collector.of(p.Ack)]
    assert acks and (acks[-1].ref, acks[-1].status) == (seq, p.Status.OK)
    late = [m for m, t, _ in collector.of(p.Sample) if m.pad == 0 and t > 1_000_000]
    assert 9 <= len(late) <= 11  # 10 samples/s in the last second
    assert collector.of(p.Fault) == [] and link.health().pad_faults == 0


def test_the_emulator_runs_as_its_own_process() -> None:
    argv = [sys.executable, "-m", "companion.sim.pico", "--pads", "2", "--demo"]
    with child_process(argv, stdout=subprocess.PIPE, text=True) as emulator:
        port = emulator.stdout.readline().strip()  # its readiness line: the pty is open
        assert port, "the emulator ended before printing its port"
        with SerialLink(port) as link:
            collector = Collector()
            link.add_listener(collector)
            assert link.wait_connected(PATIENCE)
            assert wait_until(lambda: len(collector.of(p.Sample)) > 40)
            assert link.info().pads == 2
        emulator.send_signal(signal.SIGINT)
        assert emulator.wait(PATIENCE) == 0


def test_a_firmware_of_another_protocol_version_is_reported(pico: SimulatedPico, link: SerialLink) -> None:
    pump(pico, link, 0.1)
    pico.garbage(p.encode(p.Info((pico.last_seq + 1) & 0xFFFF, 2, 6, 80, "9.9.9")))
    assert wait_until(lambda: "protocol 2" in (link.health().last_error or ""))
    assert "flash firmware/ again" in (link.health().last_error or "")
