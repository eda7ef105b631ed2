"""Many tables, one café: each box publishes its games over MQTT, a league board shows them.

- :mod:`tablekeeper.cafe.messages`: what a table publishes (topics, message schema, checks),
  read from a game's journal; pure apart from reading the journal.
- :mod:`tablekeeper.cafe.publisher`: the publisher beside the kiosk (its own unit): reads the
  journals read-only, publishes at-least-once with idempotent ids, catches up from its state file.
- :mod:`tablekeeper.cafe.board`: the league board (its own unit): subscribes, keeps results in
  SQLite, serves the café's web page.
- :mod:`tablekeeper.cafe.export`: BG Stats JSON and CSV.
- :mod:`tablekeeper.cafe.broker`: a local Mosquitto for the demo, the tests and the bench
  (generated CA, certificates, users and ACL).

See docs/cafe.md. paho-mqtt, Starlette and uvicorn are imported only by the commands that use
them (the ``cafe`` extra), never by the kiosk.
"""
