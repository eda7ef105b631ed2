"""The publisher beside the kiosk: the journal is its outbox.

It only reads the kiosk's journals (the unit mounts them read-only) and never talks to the
kiosk, so the kiosk never waits for it. Every ``poll_s`` it looks at the journals folder; for
a journal that changed (the current game's at most every ``state_interval_s``) it reads the
game (:func:`tablekeeper.cafe.messages.read_view`) and:

- the newest journal (the table's current game): publishes its state, retained, QoS 1, when
  its ``seq`` is past the last one acknowledged;
- any finished game whose result was not yet acknowledged: publishes the result, QoS 1.

Each message is marked done in the state file (``state_file``, written atomically) only once
the broker has acknowledged it (PUBACK). Killed between the PUBACK and the write, it publishes
the same message again on restart: at-least-once, and the board deduplicates on the message's
``id`` (game id + seq), so nothing is lost or counted twice. Broker, Wi-Fi or box away: it
keeps retrying (paho reconnects) and catches up from the state file.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

from ground.files import read_json
from tablekeeper.atomic import write_atomic
from tablekeeper.cafe import messages
from tablekeeper.cafe.settings import PublisherSettings, make_client

log = logging.getLogger("tablekeeper.cafe.publisher")


class PublisherState:
    """What the broker has acknowledged: per game id, the last state seq and the result."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.games: dict[str, dict[str, Any]] = {}
        #: acknowledged but not yet written (the state file could not be written)
        self.unsaved = False
        #: why the state file cannot be written (None: it can)
        self.paused: str | None = None
        try:
            data = read_json(path)
            games = data.get("games", {}) if isinstance(data, dict) else {}
            if isinstance(games, dict):
                self.games = {k: v for k, v in games.items() if isinstance(v, dict)}
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as exc:  # a damaged state file: publish again (deduped)
            log.warning("state file %s unreadable (%s): starting over; the board "
                        "deduplicates what is sent again", path, exc)

    def state_seq(self, game_id: str) -> int:
        return int(self.games.get(game_id, {}).get("state_seq", 0))

    def result_done(self, game_id: str) -> bool:
        return bool(self.games.get(game_id, {}).get("result", False))

    def mark(self, game_id: str, **values: Any) -> None:
        self.games.setdefault(game_id, {}).update(values)
        self.unsaved = True
        self.save()

    def save(self) -> bool:
        """Write what is acknowledged, if anything is not yet written. A full card (or a
        folder that cannot be written) pauses the recording, not the publisher: it is kept in
        memory, said once in the log, and written at the next try that works (killed
        meanwhile, it publishes again and the board deduplicates)."""
        if not self.unsaved:
            return True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, json.dumps({"version": 1, "games": self.games},
                                               sort_keys=True).encode("utf-8"))
        except OSError as exc:
            if self.paused is None:
                self.paused = exc.strerror or str(exc)
                log.error("paused: the state file %s cannot be written (%s); what the broker "
                          "acknowledged is kept and written when space is back", self.path,
                          self.paused)
            return False
        self.unsaved = False
        if self.paused is not None:
            log.warning("the state file %s can be written again: recording goes on",
                        self.path)
            self.paused = None
        return True


class Publisher:
    def __init__(self, settings: PublisherSettings, client: Any | None = None) -> None:
        self.settings = settings
        self.state = PublisherState(settings.state_file)
        self.client = client or make_client(settings.broker,
                                            client_id=f"tablekeeper-{settings.table}")
        self.connected = threading.Event()
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self._seen: dict[Path, tuple[int, int]] = {}
        self._broken: dict[Path, tuple[int, int]] = {}
        self._newest_read_at = -1e9
        self._lock = threading.Lock()
        self.sent = 0

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("broker refused the connection: %s", reason)
            return
        log.info("connected to the broker %s:%s", self.settings.broker.host,
                 self.settings.broker.port)
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected.clear()
        if getattr(reason, "is_failure", True):
            log.warning("disconnected from the broker (%s); retrying", reason)

    def start(self) -> None:
        b = self.settings.broker
        self.client.connect_async(b.host, b.port, keepalive=b.keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _publish(self, topic: str, message: dict[str, Any], retain: bool) -> bool:
        if not self.connected.is_set():
            return False
        info = self.client.publish(topic, messages.encode(message), qos=1, retain=retain)
        try:
            info.wait_for_publish(timeout=self.settings.ack_timeout_s)
        except (RuntimeError, ValueError) as exc:  # not queued: disconnected meanwhile
            log.info("publish of %s not sent (%s); will retry", message["id"], exc)
            return False
        if not info.is_published():
            log.info("no acknowledgement for %s yet; will retry", message["id"])
            return False
        self.sent += 1
        return True

    def step(self) -> bool:
        """One look at the journals; True when everything known is acknowledged."""
        with self._lock:
            return self._step()

    def _step(self) -> bool:
        self.state.save()  # a state file that could not be written is tried again
        folder = self.settings.journals
        journals = messages.newest_journals(folder) if folder.is_dir() else []
        all_done = True
        for i, path in enumerate(journals):
            newest = i == len(journals) - 1
            try:
                st = path.stat()
            except OSError:
                continue
            stamp = (st.st_size, st.st_mtime_ns)
            if self._seen.get(path) == stamp:
                continue
            if self._broken.get(path) == stamp:
                continue
            if newest:
                now = time.monotonic()
                if now - self._newest_read_at < self.settings.state_interval_s:
                    all_done = False  # changed; read at the next interval
                    continue
                self._newest_read_at = now
            from tablekeeper.journal import JournalError

            try:
                view = messages.read_view(self.settings.table, path,
                                          timeline=False)
            except JournalError as exc:  # logged once per version of the file
                log.warning("cannot read %s, skipping it until it changes: %s", path, exc)
                self._broken[path] = stamp
                continue
            written_ms = st.st_mtime_ns // 1_000_000
            done = True
            if newest and view.seq > self.state.state_seq(view.game_id):
                msg = messages.state_message(view, written_ms)
                if self._publish(messages.state_topic(view.table), msg, retain=True):
                    self.state.mark(view.game_id, state_seq=view.seq)
                else:
                    done = False
            if view.over and not self.state.result_done(view.game_id):
                try:
                    full = messages.read_view(self.settings.table, path, timeline=True)
                except JournalError as exc:
                    log.info("%s changed while being read (%s); next time", path, exc)
                    continue
                if full.game_id != view.game_id or not full.over:
                    continue  # another game under this name now: it is read next time
                msg = messages.result_message(full, written_ms)
                if self._publish(messages.result_topic(view.table, view.game_id), msg,
                                 retain=False):
                    self.state.mark(view.game_id, result=True)
                else:
                    done = False
            if done:
                self._seen[path] = stamp
            all_done = all_done and done
        return all_done and not self.state.unsaved

    def run(self, stop: threading.Event) -> None:
        self.start()
        try:
            while not stop.is_set():
                self.step()
                stop.wait(self.settings.poll_s)
        finally:
            self.stop()


def run_publisher(settings: PublisherSettings, stop: threading.Event | None = None,
                  run_for: float | None = None) -> int:
    stop = stop or threading.Event()
    if run_for is not None:
        timer = threading.Timer(run_for, stop.set)
        timer.daemon = True
        timer.start()
    pub = Publisher(settings)
    log.info("publishing table %s from %s to %s:%s", settings.table, settings.journals,
             settings.broker.host, settings.broker.port)
    pub.run(stop)
    return 0


def wait_until(predicate: Any, timeout: float, interval: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
