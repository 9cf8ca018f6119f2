"""Players' profiles: names unique across case and look-alike letters, keys kept only as
hashes, sign-in on a second device with the recovery code, renames, and the limits on
attempts; on SQLite and PostgreSQL, and through the HTTP routes on a clock the test moves."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tilerummy.server import Settings, create_app
from tilerummy.server.profile_routes import CREATE_BURST, FAILURE_BURST
from tilerummy.server.profile_store import MAX_DEVICE_KEYS, ProfileStore
from tilerummy.server.profiles import (
    NAME_MAX,
    ProfileError,
    display_name,
    name_key,
    new_recovery_code,
    normal_recovery_code,
)
from tilerummy.server.store import open_store

from .hubkit import ManualClock
from .postgres import empty_test_database


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ana", "ANA"),
        ("Aná", "Ana"),
        ("Аna", "Ana"),  # a Cyrillic А
        ("Ρaulo", "Paulo"),  # a Greek Ρ
        ("J0sé", "Jose"),
        ("Bill", "BiII"),  # capital i for l
        ("Marina_B", "marina b"),
        ("Ｍａｒｉａ", "Maria"),  # full-width letters
    ],
)
def test_names_differing_only_by_case_accents_or_look_alikes_are_the_same(one: str, other: str) -> None:
    assert name_key(display_name(one)) == name_key(display_name(other))


@pytest.mark.parametrize(("one", "other"), [("Ana", "Ane"), ("Ana", "Anna"), ("João", "Joana"), ("李雷", "李明")])
def test_different_names_stay_different(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("ab", "3 to 20 characters long, not 2"),
        ("a" * (NAME_MAX + 1), f"not {NAME_MAX + 1}"),
        ("Ana\u0000B", "not 'U+0000'"),
        ("Ana\u202eB", "not 'U+202E'"),  # right-to-left override
        ("Ana\u200bB", "not 'U+200B'"),  # zero-width space
        ("Ana<b>", "not '<'"),
        ("...", "at least one letter or digit"),
        ("Admin", "kept for the server's own use"),
        ("T1LERUMMY", "kept for the server's own use"),
    ],
)
def test_a_bad_name_is_refused_saying_why(raw: str, says: str) -> None:
    with pytest.raises(ProfileError) as refused:
        display_name(raw)
    assert refused.value.reason == "bad_name"
    assert says in refused.value.detail


def test_a_name_is_shown_with_its_spaces_folded() -> None:
    assert display_name("  Ana   María ") == "Ana María"


@given(st.text(min_size=1, max_size=30))
def test_every_name_accepted_is_clean_and_accepted_again_as_it_is(raw: str) -> None:
    try:
        name = display_name(raw)
    except ProfileError:
        return
    assert 3 <= len(name) <= NAME_MAX
    assert all(character.isprintable() for character in name)
    assert display_name(name) == name
    assert name_key(name)


def test_a_recovery_code_is_read_however_it_is_typed() -> None:
    code = new_recovery_code()
    assert normal_recovery_code(code) == code
    assert normal_recovery_code(code.lower().replace("-", " ")) == code
    assert normal_recovery_code("0000O-11111-IIIII-LLLLL") == "00000-11111-11111-11111"
    assert normal_recovery_code("short") is None
    assert normal_recovery_code("UUUUU-UUUUU-UUUUU-UUUUU") is None  # U is not in the alphabet


@pytest.fixture(params=["sqlite", "postgresql"])
def profiles(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ProfileStore]:
    where = str(tmp_path / "server.sqlite3") if request.param == "sqlite" else empty_test_database()
    store = open_store(where)
    clock = ManualClock()
    try:
        yield ProfileStore(store, clock)
    finally:
        store.close()


def test_a_profile_is_found_by_its_key_and_its_name_never_by_its_recovery_code(profiles: ProfileStore) -> None:
    made = profiles.create("Ana")
    assert profiles.by_key(made.key) == made.profile
    assert profiles.by_name("ANA") == made.profile
    assert profiles.by_id(made.profile.id) == made.profile
    assert profiles.by_key(made.recovery_code) is None
    assert profiles.by_key(made.key + "x") is None


def test_a_name_taken_in_any_case_or_look_alike_is_refused(profiles: ProfileStore) -> None:
    profiles.create("Paulo")
    for other in ("paulo", "Ρaulo", "PAUL0"):
        with pytest.raises(ProfileError) as refused:
            profiles.create(other)
        assert refused.value.reason == "name_taken"
        assert "'Paulo'" in refused.value.detail


def test_the_recovery_code_signs_in_on_another_device_with_a_key_of_its_own(profiles: ProfileStore) -> None:
    made = profiles.create("Bruno")
    found = profiles.recover(made.recovery_code.lower())
    assert found is not None
    profile, key = found
    assert profile == made.profile
    assert key != made.key
    assert profiles.by_key(key) == profiles.by_key(made.key) == made.profile
    assert profiles.recover("00000-00000-00000-00000") is None


def test_a_new_recovery_code_replaces_the_old_one(profiles: ProfileStore) -> None:
    made = profiles.create("Carla")
    code = profiles.new_recovery_code(made.profile.id)
    assert profiles.recover(made.recovery_code) is None
    assert profiles.recover(code) is not None


def test_a_device_signed_out_loses_its_key_and_no_other(profiles: ProfileStore) -> None:
    made = profiles.create("Dario")
    found = profiles.recover(made.recovery_code)
    assert found is not None
    assert profiles.forget_key(made.key)
    assert profiles.by_key(made.key) is None
    assert profiles.by_key(found[1]) == made.profile
    assert not profiles.forget_key(made.key)


def test_signing_in_on_many_devices_keeps_the_newest_keys(profiles: ProfileStore) -> None:
    made = profiles.create("Elena")
    clock = profiles.clock
    assert isinstance(clock, ManualClock)
    keys = []
    for _ in range(MAX_DEVICE_KEYS + 2):
        clock.now += 1
        found = profiles.recover(made.recovery_code)
        assert found is not None
        keys.append(found[1])
    assert all(profiles.by_key(key) == made.profile for key in keys[-MAX_DEVICE_KEYS:])
    assert profiles.by_key(made.key) is None


def test_a_rename_keeps_the_profile_and_frees_the_old_name(profiles: ProfileStore) -> None:
    made = profiles.create("Fabio")
    other = profiles.create("Gina")
    renamed = profiles.rename(made.profile.id, "Fábio R")
    assert renamed.id == made.profile.id
    assert profiles.by_key(made.key) == renamed
    assert profiles.by_name("Fabio") is None
    with pytest.raises(ProfileError, match="taken"):
        profiles.rename(made.profile.id, "GINA")
    assert profiles.rename(other.profile.id, "Gina") == other.profile  # its own name again
    assert profiles.create("Fabio").profile.name == "Fabio"


def test_the_database_keeps_no_key_and_no_code(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    store = open_store(str(path))
    profiles = ProfileStore(store, ManualClock())
    made = profiles.create("Hugo")
    found = profiles.recover(made.recovery_code)
    store.close()
    assert found is not None
    dump = "\n".join(sqlite3.connect(path).iterdump())
    for secret in (made.key, made.recovery_code, made.recovery_code.replace("-", ""), found[1]):
        assert secret not in dump
    assert "Hugo" in dump


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    settings = Settings(database=str(tmp_path / "server.sqlite3"), bot_workers=0)
    with TestClient(create_app(settings, clock=clock, timers=clock)) as test_client:
        yield test_client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_profile_made_signed_in_renamed_and_recovered_over_http(client: TestClient) -> None:
    made = client.post("/api/profiles", json={"name": "Ana María"})
    assert made.status_code == 201
    body = made.json()
    key, code, profile_id = body["key"], body["recovery_code"], body["profile"]["id"]
    assert body["profile"]["name"] == "Ana María"
    assert client.get("/api/me", headers=bearer(key)).json()["profile"]["id"] == profile_id
    assert client.get("/api/profiles/ana maria").json()["profile"]["id"] == profile_id

    renamed = client.post("/api/me/name", json={"name": "Ana M"}, headers=bearer(key))
    assert renamed.json()["profile"] == {**body["profile"], "name": "Ana M"}

    second = client.post("/api/sign-in", json={"recovery_code": code})
    assert second.status_code == 200
    assert client.get("/api/me", headers=bearer(second.json()["key"])).json()["profile"]["name"] == "Ana M"

    fresh = client.post("/api/me/recovery-code", headers=bearer(key)).json()["recovery_code"]
    assert client.post("/api/sign-in", json={"recovery_code": code}).status_code == 401
    assert client.post("/api/sign-in", json={"recovery_code": fresh}).status_code == 200

    assert client.post("/api/me/sign-out", headers=bearer(key)).status_code == 200
    assert client.get("/api/me", headers=bearer(key)).json()["error"] == "bad_key"


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"name": "x"}, 400, "bad_name"),
        ({"nom": "Ana"}, 400, "bad_request"),
        ("not json", 400, "bad_request"),
        ({"name": "A" * 5000}, 413, "too_large"),
    ],
)
def test_a_bad_request_to_make_a_profile_says_why(client: TestClient, body: object, status: int, reason: str) -> None:
    answer = (
        client.post("/api/profiles", content=body) if isinstance(body, str) else client.post("/api/profiles", json=body)
    )
    assert answer.status_code == status
    assert answer.json()["error"] == reason


def test_a_taken_name_is_a_conflict(client: TestClient) -> None:
    assert client.post("/api/profiles", json={"name": "Bruno"}).status_code == 201
    taken = client.post("/api/profiles", json={"name": "BRUNO"})
    assert taken.status_code == 409
    assert taken.json()["error"] == "name_taken"


def test_a_request_without_a_key_or_with_a_wrong_one_is_refused(client: TestClient) -> None:
    assert client.get("/api/me").json()["error"] == "no_key"
    assert client.get("/api/me", headers={"Authorization": "Basic abc"}).json()["error"] == "no_key"
    assert client.get("/api/me", headers=bearer("trk_nothing")).json()["error"] == "bad_key"
    assert client.post("/api/me/name", json={"name": "Zed"}, headers=bearer("trk_nothing")).status_code == 401


def test_guessing_keys_is_stopped_and_a_guess_over_the_limit_tells_nothing(
    client: TestClient, clock: ManualClock
) -> None:
    key = client.post("/api/profiles", json={"name": "Carla"}).json()["key"]
    for _ in range(FAILURE_BURST):
        assert client.get("/api/me", headers=bearer("trk_guess")).status_code == 401
    refused = client.get("/api/me", headers=bearer(key))
    assert refused.status_code == 429
    assert refused.json()["error"] == "too_many_attempts"
    clock.now += 6
    assert client.get("/api/me", headers=bearer(key)).status_code == 200


def test_guessing_recovery_codes_is_stopped(client: TestClient, clock: ManualClock) -> None:
    code = client.post("/api/profiles", json={"name": "Dario"}).json()["recovery_code"]
    for _ in range(FAILURE_BURST):
        assert client.post("/api/sign-in", json={"recovery_code": "00000-00000-00000-00000"}).status_code == 401
    assert client.post("/api/sign-in", json={"recovery_code": code}).status_code == 429
    clock.now += 6
    assert client.post("/api/sign-in", json={"recovery_code": code}).status_code == 200


def test_profiles_cannot_be_made_in_bulk_from_one_address(client: TestClient, clock: ManualClock) -> None:
    for number in range(CREATE_BURST):
        assert client.post("/api/profiles", json={"name": f"Player {number}"}).status_code == 201
    crowded = client.post("/api/profiles", json={"name": "One more"})
    assert crowded.status_code == 429
    assert crowded.json()["error"] == "too_many_profiles"
    clock.now += 600
    assert client.post("/api/profiles", json={"name": "One more"}).status_code == 201
