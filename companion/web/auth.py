"""The referee PIN: hashing, checking, rate limiting, and the secret that signs session cookies.

A PIN has few digits, so the hash is deliberately slow (scrypt) and wrong guesses are rate-limited per client;
together they make guessing impractical on a table's Wi-Fi without making the referee wait. Hashes run two at a
time at most, so a burst of guesses costs a bounded amount of memory; a "lock the controls" bumps the
``LockEpoch`` that every unlocked cookie must carry.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from companion.games.toml_files import read_toml, write_toml

_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2**14, 8, 1
MIN_PIN_LENGTH = 4
MAX_PIN_LENGTH = 64  # longer is no PIN, and is refused before hashing
# Each scrypt takes 16 MB and a core for tens of milliseconds, so they run on two threads of their own whatever
# arrives: at most two at once, and the memory the C allocator keeps after a hash stays with those two threads
# (run on every request thread in turn, each thread's allocator arena kept its own 16 MB).
HASHERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tableside-pin-hash")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    secret = pin.encode("utf-8")
    return HASHERS.submit(hashlib.scrypt, secret, salt=salt, n=n, r=r, p=p, maxmem=64 * 1024 * 1024,
                          dklen=32).result()


def hash_pin(pin: str) -> str:
    """A salted scrypt hash of ``pin`` for ``[web] pin_hash``: ``scrypt$n$r$p$salt$digest``."""
    if len(pin) < MIN_PIN_LENGTH:
        raise ValueError(f"A PIN needs at least {MIN_PIN_LENGTH} characters.")
    salt = secrets.token_bytes(16)
    digest = _scrypt(pin, salt, _SCRYPT_N, _SCRYPT_R, _SCRYPT_P)
    return f"scrypt${_SCRYPT_N}${_SCRYPT_R}${_SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_pin(pin: str, pin_hash: str) -> bool:
    """Whether ``pin`` matches ``pin_hash``; a malformed hash matches nothing."""
    try:
        scheme, n, r, p, salt, digest = pin_hash.split("$")
        if scheme != "scrypt":
            return False
        actual = _scrypt(pin, _unb64(salt), int(n), int(r), int(p))
    except ValueError:
        return False
    return hmac.compare_digest(actual, _unb64(digest))


def pin_fingerprint(pin_hash: str) -> str:
    """Short tag of the configured hash, kept in the cookie so changing the PIN locks every open session."""
    return hashlib.sha256(pin_hash.encode("utf-8")).hexdigest()[:16]


@dataclass
class AttemptLimiter:
    """Counts PIN tries per client in a sliding window; a client over the limit waits for the window to pass.

    A try is counted *before* its PIN is hashed, in one step with the check (``begin``), so simultaneous guesses
    cannot all slip in while the first is still being hashed; a right PIN forgets the client's tries. Clients
    whose tries have all left the window are forgotten, so a crowd of guessers does not grow the memory.
    """

    max_attempts: int
    window_seconds: float
    clock: Callable[[], float] = time.monotonic
    _tries: dict[str, deque[float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def begin(self, client: str) -> float:
        """Count one try for ``client`` and return 0, or return the seconds it must wait (counting nothing)."""
        with self._lock:
            self._forget_the_past()
            tries = self._tries.setdefault(client, deque())
            if len(tries) >= self.max_attempts:
                return max(0.0, tries[0] + self.window_seconds - self.clock())
            tries.append(self.clock())
            return 0.0

    def tries_left(self, client: str) -> int:
        with self._lock:
            return max(0, self.max_attempts - len(self._tries.get(client, ())))

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._tries.pop(client, None)

    @property
    def clients(self) -> int:
        """How many clients have tries in the window (what the limiter holds in memory)."""
        with self._lock:
            self._forget_the_past()
            return len(self._tries)

    def _forget_the_past(self) -> None:
        horizon = self.clock() - self.window_seconds
        for client, tries in list(self._tries.items()):
            while tries and tries[0] <= horizon:
                tries.popleft()
            if not tries:
                del self._tries[client]


class LockEpoch:
    """Which "lock the controls" the table is at: an unlocked cookie carries the epoch it was unlocked in, and a
    lock starts a new one, so every cookie unlocked before it (copies included) stops working at once.

    With a ``path`` (beside the cookie key) the epoch survives a restart, as the cookies do; without one it lives
    as long as the process, like its random cookie key.
    """

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._value = self._stored() or self._renew()

    @property
    def value(self) -> str:
        with self._lock:
            return self._value

    def lock(self) -> None:
        """Start a new epoch: every unlocked session is locked again."""
        with self._lock:
            self._value = self._renew()

    def _stored(self) -> str | None:
        """The saved epoch; a missing or damaged file gives none, and so a new epoch (locked is the safe side)."""
        if self._path is None or not self._path.is_file():
            return None
        try:
            value = read_toml(self._path, ValueError, "missing").get("epoch")
        except (ValueError, OSError):
            return None
        return value if isinstance(value, str) and value else None

    def _renew(self) -> str:
        value = secrets.token_urlsafe(12)
        if self._path is not None:
            write_toml(self._path, f'epoch = "{value}"  # the referee controls\' lock epoch (see web/auth.py)\n')
        return value


def load_secret_key(path: Path) -> bytes:
    """The cookie-signing key stored at ``path``, created (owner-only) on first use."""
    try:
        key = path.read_bytes().strip()
        if len(key) >= 32:
            return key
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32).encode("ascii")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key + b"\n")
    return key
