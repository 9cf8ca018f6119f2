"""Profiles kept in the server's database (SQLite or PostgreSQL), so that every process of a
cluster sees the same ones. Each method is one transaction and blocks: the routes call
them from a worker thread."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .profiles import (
    NewProfile,
    Profile,
    ProfileError,
    display_name,
    name_key,
    new_key,
    new_profile_id,
    new_recovery_code,
    normal_recovery_code,
    secret_hash,
)
from .store import Statement, Store, StoreError

T = TypeVar("T")
#: The kinds of secret a profile holds: keys its devices keep, and the one recovery code.
DEVICE = "device"
RECOVERY = "recovery"
#: Device keys one profile may hold at once (a device signed in with the recovery code adds one).
MAX_DEVICE_KEYS = 20


class ProfileStore:
    """The profiles of one database."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    def create(self, name: str) -> NewProfile:
        """A new profile with this name, its first device key and its recovery code.

        :raises ProfileError: ``bad_name``, or ``name_taken`` when a profile has the same name key.
        """
        shown = display_name(name)
        key, code = new_key(), new_recovery_code()
        profile = Profile(new_profile_id(), shown, self.clock())

        def work(sql: Statement) -> None:
            self._refuse_taken(sql, shown)
            sql(
                "INSERT INTO profiles (id, name, name_key, created_at) VALUES (?, ?, ?, ?)",
                (profile.id, shown, name_key(shown), profile.created_at),
            )
            self._add_secret(sql, profile.id, key, DEVICE)
            self._add_secret(sql, profile.id, code, RECOVERY)

        self._write(work, shown)
        return NewProfile(profile, key, code)

    def by_key(self, key: str) -> Profile | None:
        """The profile a device key belongs to (a recovery code is not a key), or None."""
        return self.store.transact(lambda sql: self._owner(sql, key, DEVICE))

    def by_name(self, name: str) -> Profile | None:
        """The profile whose name is this one, case and look-alikes set aside, or None."""
        rows = self.store.transact(
            lambda sql: sql("SELECT id, name, created_at FROM profiles WHERE name_key = ?", (name_key(name),))
        )
        return _profile(rows[0]) if rows else None

    def by_id(self, profile_id: str) -> Profile | None:
        rows = self.store.transact(
            lambda sql: sql("SELECT id, name, created_at FROM profiles WHERE id = ?", (profile_id,))
        )
        return _profile(rows[0]) if rows else None

    def recover(self, code: str) -> tuple[Profile, str] | None:
        """Sign in on another device with the recovery code: the profile and a new device key,
        or None when no profile has this code."""
        normal = normal_recovery_code(code)
        if normal is None:
            return None
        key = new_key()

        def work(sql: Statement) -> Profile | None:
            profile = self._owner(sql, normal, RECOVERY)
            if profile is None:
                return None
            # The oldest keys give way to the newest past the cap, so that signing in never fails.
            rows = sql(
                "SELECT key_hash FROM profile_keys WHERE profile = ? AND kind = ? ORDER BY created_at DESC",
                (profile.id, DEVICE),
            )
            for (old,) in rows[MAX_DEVICE_KEYS - 1 :]:
                sql("DELETE FROM profile_keys WHERE key_hash = ?", (old,))
            self._add_secret(sql, profile.id, key, DEVICE)
            return profile

        profile = self.store.transact(work)
        return None if profile is None else (profile, key)

    def rename(self, profile_id: str, name: str) -> Profile:
        """Give the profile a new name (its id, keys and rating stay).

        :raises ProfileError: ``bad_name``, ``name_taken``, or ``no_such_profile``.
        """
        shown = display_name(name)

        def work(sql: Statement) -> Profile:
            rows = sql("SELECT id, name, created_at FROM profiles WHERE id = ?", (profile_id,))
            if not rows:
                raise ProfileError("no_such_profile", "no profile has this id")
            self._refuse_taken(sql, shown, but=profile_id)
            sql("UPDATE profiles SET name = ?, name_key = ? WHERE id = ?", (shown, name_key(shown), profile_id))
            return Profile(profile_id, shown, float(rows[0][2]))

        return self._write(work, shown)

    def new_recovery_code(self, profile_id: str) -> str:
        """A new recovery code for the profile; the old one stops working."""
        code = new_recovery_code()

        def work(sql: Statement) -> None:
            sql("DELETE FROM profile_keys WHERE profile = ? AND kind = ?", (profile_id, RECOVERY))
            self._add_secret(sql, profile_id, code, RECOVERY)

        self.store.transact(work)
        return code

    def forget_key(self, key: str) -> bool:
        """Sign a device out: its key stops working. Whether it was a key."""

        def work(sql: Statement) -> bool:
            rows = sql("SELECT 1 FROM profile_keys WHERE key_hash = ? AND kind = ?", (secret_hash(key), DEVICE))
            sql("DELETE FROM profile_keys WHERE key_hash = ? AND kind = ?", (secret_hash(key), DEVICE))
            return bool(rows)

        return self.store.transact(work)

    def _write(self, work: Callable[[Statement], T], name: str) -> T:
        try:
            return self.store.transact(work)
        except StoreError:
            # Two processes took the same name at once: the database's unique key refused the second.
            if self.by_name(name) is not None:
                raise ProfileError("name_taken", f"the name {name!r} is taken") from None
            raise

    @staticmethod
    def _refuse_taken(sql: Statement, name: str, *, but: str | None = None) -> None:
        rows = sql("SELECT id, name FROM profiles WHERE name_key = ?", (name_key(name),))
        if rows and rows[0][0] != but:
            same = (
                ""
                if rows[0][1] == name
                else f" (as {rows[0][1]!r}: names differing only in case or look-alike letters are the same)"
            )
            raise ProfileError("name_taken", f"the name {name!r} is taken{same}")

    def _add_secret(self, sql: Statement, profile_id: str, secret: str, kind: str) -> None:
        sql(
            "INSERT INTO profile_keys (key_hash, profile, kind, created_at) VALUES (?, ?, ?, ?)",
            (secret_hash(secret), profile_id, kind, self.clock()),
        )

    @staticmethod
    def _owner(sql: Statement, secret: str, kind: str) -> Profile | None:
        rows = sql(
            "SELECT p.id, p.name, p.created_at FROM profile_keys k JOIN profiles p ON p.id = k.profile"
            " WHERE k.key_hash = ? AND k.kind = ?",
            (secret_hash(secret), kind),
        )
        return _profile(rows[0]) if rows else None


def _profile(row: Sequence[Any]) -> Profile:
    return Profile(str(row[0]), str(row[1]), float(row[2]))
