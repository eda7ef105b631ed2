"""The publisher beside the kiosk: the journal is its outbox.

It only reads the kiosk's journals (the unit mounts them read-only) and never talks to the
kiosk, so the kiosk never waits for it. Every ``poll_s`` it looks at the journals folder; for
a journal that changed (the current game's at most every ``state_interval_s``) it reads the
game (:func:`tablekeeper.cafe.messages.read_view`) and:

- the live journal (the kiosk's ``current.jsonl``: chosen by its name, never by a file time
  or the clock): publishes its state, retained, QoS 0 (the broker keeps the latest only), when
  its ``seq`` is past the last one sent;
- any finished game whose result was not yet acknowledged: publishes the result, QoS 1.

Every message is checked against the café's schema before it is sent (a game the board could
not show is logged once per version of its journal, not sent). A result is marked done in the
state file (``state_file``, written atomically) only once the broker has acknowledged it
(PUBACK). When the state file cannot be written (a full card), the publisher pauses
(``pause_s``) and tries again; it never exits for it. Killed between the PUBACK and the
write, it publishes the same message again on restart: at-least-once, and the board
deduplicates on the message's ``id`` (game id + seq), so nothing is lost or counted twice.
Broker, Wi-Fi or box away: it keeps retrying (paho reconnects) and catches up from the state
file.
"""

from __future__ import annotations

import contextlib
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
from tablekeeper.cafe.topics import EPOCH_TOPIC

log = logging.getLogger("tablekeeper.cafe.publisher")


class PublisherState:
    """What the broker has acknowledged: per game id, the last state seq and the result."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.games: dict[str, dict[str, Any]] = {}
        #: the board store's epoch the results were acknowledged for (None: not known yet)
        self.board_epoch: str | None = None
        try:
            data = read_json(path)
            games = data.get("games", {}) if isinstance(data, dict) else {}
            if isinstance(games, dict):
                self.games = {k: v for k, v in games.items() if isinstance(v, dict)}
            epoch = data.get("board_epoch") if isinstance(data, dict) else None
            self.board_epoch = epoch if isinstance(epoch, str) else None
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
        """Note ``values`` for ``game_id`` and write the file; ``OSError`` (a full card): the
        note is not kept, so the message is sent again later (the board deduplicates)."""
        before = dict(self.games.get(game_id, {}))
        self.games.setdefault(game_id, {}).update(values)
        try:
            self._write()
        except OSError:
            self.games[game_id] = before
            raise

    def new_board(self, epoch: str) -> bool:
        """The board announced its store's ``epoch``; True when it is a new store (the board
        started anew after its file was damaged): every result is to be sent again."""
        if epoch == self.board_epoch:
            return False
        games, old = self.games, self.board_epoch
        if old is not None:
            self.games = {gid: {k: v for k, v in g.items() if k != "result"}
                          for gid, g in games.items()}
        self.board_epoch = epoch
        # kept in memory if the file cannot be written now: the next note writes it (and a
        # restart before that only sends the results again, which the board counts once)
        with contextlib.suppress(OSError):
            self._write()
        return old is not None

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, json.dumps({"version": 1, "games": self.games,
                                            "board_epoch": self.board_epoch},
                                           sort_keys=True).encode("utf-8"))


class Publisher:
    def __init__(self, settings: PublisherSettings, client: Any | None = None) -> None:
        self.settings = settings
        self.state = PublisherState(settings.state_file)
        self.client = client or make_client(settings.broker,
                                            client_id=f"tablekeeper-{settings.table}")
        self.connected = threading.Event()
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        #: the board's epoch as last announced (applied by the next step)
        self._epoch_heard: str | None = None
        self._seen: dict[Path, tuple[int, int]] = {}
        self._broken: dict[Path, tuple[int, int]] = {}
        self._newest_read_at = -1e9
        self._lock = threading.Lock()
        self.sent = 0
        #: monotonic time before which nothing is tried (the state file could not be written)
        self.paused_until = 0.0
        self._pause_logged = False
        self._write_error: OSError | None = None

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("broker refused the connection: %s", reason)
            return
        log.info("connected to the broker %s:%s", self.settings.broker.host,
                 self.settings.broker.port)
        client.subscribe(EPOCH_TOPIC, qos=1)
        self.connected.set()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        try:
            epoch = json.loads(msg.payload)["epoch"]
        except (ValueError, TypeError, KeyError):
            epoch = None
        if msg.topic == EPOCH_TOPIC and isinstance(epoch, str) and len(epoch) <= 64:
            self._epoch_heard = epoch

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

    def _publish(self, topic: str, message: dict[str, Any], retain: bool, qos: int = 1) -> bool:
        if not self.connected.is_set():
            return False
        info = self.client.publish(topic, messages.encode(message), qos=qos, retain=retain)
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
            if time.monotonic() < self.paused_until:
                return False
            self._write_error = None
            done = self._step()
            exc = self._write_error
            if exc is not None:  # the state file: a full card, a read-only remount
                self.paused_until = time.monotonic() + self.settings.pause_s
                if not self._pause_logged:
                    log.error("cannot write %s (%s): paused, trying again every %g s; what "
                              "was not noted is sent again (the board counts it once)",
                              self.state.path, exc.strerror or exc, self.settings.pause_s)
                    self._pause_logged = True
                return False
            if self._pause_logged:
                log.info("%s can be written again: publishing", self.state.path)
                self._pause_logged = False
            return done

    def _note(self, game_id: str, **values: Any) -> bool:
        """Note in the state file what the broker acknowledged; False when the file cannot be
        written (the message is sent again later; the step goes on with the other games)."""
        try:
            self.state.mark(game_id, **values)
        except OSError as exc:
            self._write_error = exc
            return False
        return True

    def _checked(self, path: Path, stamp: tuple[int, int],
                 message: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return messages.check(message)
        except messages.BadMessage as exc:
            log.warning("%s: not sent, the board could not show it (%s); skipping it until "
                        "it changes", path, exc)
            self._broken[path] = stamp
            return None

    def _step(self) -> bool:
        heard = self._epoch_heard
        if heard is not None and self.state.new_board(heard):
            log.warning("the board started a new store (epoch %s): sending every result "
                        "again", heard)
            self._seen.clear()
        folder = self.settings.journals
        journals = messages.journals_in_order(folder) if folder.is_dir() else []
        live = messages.live_journal(folder) if folder.is_dir() else None
        all_done = True
        for path in journals:
            newest = path == live
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
                msg = self._checked(path, stamp, messages.state_message(view, written_ms))
                if msg is None:
                    continue
                if not (self._publish(messages.state_topic(view.table), msg, retain=True, qos=0)
                        and self._note(view.game_id, state_seq=view.seq)):
                    done = False
            if view.over and not self.state.result_done(view.game_id):
                try:
                    full = messages.read_view(self.settings.table, path, timeline=True)
                except JournalError as exc:
                    log.info("%s changed while being read (%s); next time", path, exc)
                    continue
                if full.game_id != view.game_id or not full.over:
                    continue  # another game under this name now: it is read next time
                msg = self._checked(path, stamp, messages.result_message(full, written_ms))
                if msg is None:
                    continue
                if not (self._publish(messages.result_topic(view.table, view.game_id), msg,
                                      retain=False)
                        and self._note(view.game_id, result=True)):
                    done = False
            if done:
                self._seen[path] = stamp
            all_done = all_done and done
        return all_done

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
