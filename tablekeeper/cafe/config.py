"""The box's ``[cafe]`` section of config.toml: where its publisher sends the table's games.

The kiosk only checks it (unknown keys and bad values are reported like any section's); the
installer turns it into the publisher's own settings file (``tablekeeper cafe settings``).
No secret goes here: the broker password is a root-only file given to the publisher as a
systemd credential (docs/cafe.md)::

    [cafe]
    table = "t1"                    # this box's table: its topic prefix and broker user
    broker_host = "cafe-board.local"
    broker_port = 8883
    ca_file = "/etc/tablekeeper/cafe-ca.crt"
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from tablekeeper.cafe.topics import check_table

KNOWN = {"table", "broker_host", "broker_port", "ca_file"}


@dataclass(frozen=True)
class CafeConfig:
    table: str = ""
    broker_host: str = ""
    broker_port: int = 8883
    ca_file: str = "/etc/tablekeeper/cafe-ca.crt"

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Self:
        extra = sorted(set(d) - KNOWN)
        if extra:
            raise ValueError(f"cafe: unknown key(s) {', '.join(extra)} "
                             f"(known: {', '.join(sorted(KNOWN))})")
        for key in ("table", "broker_host", "ca_file"):
            if key in d and not isinstance(d[key], str):
                raise ValueError(f"{key}: expected str, got {d[key]!r}")
        port = d.get("broker_port", 8883)
        if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
            raise ValueError(f"broker_port: expected a port number 1-65535, got {port!r}")
        if "table" in d:
            try:
                check_table(d["table"])
            except ValueError as exc:  # named as the key, so the kiosk says which
                raise ValueError(f"table: {exc}") from None
        return cls(table=d.get("table", ""), broker_host=d.get("broker_host", ""),
                   broker_port=port, ca_file=d.get("ca_file", cls.ca_file))

    def publisher_toml(self, journals: Path, state_file: Path) -> str:
        """The publisher's settings file (no secret: the password is a credential)."""
        if not self.table or not self.broker_host:
            raise ValueError("[cafe] needs table and broker_host to publish")
        return (f"# Written by systemd/install.sh from [cafe] of the box's config.toml.\n"
                f"# The broker password is the credential mqtt-password (LoadCredential=).\n"
                f'[publisher]\ntable = "{self.table}"\njournals = "{journals}"\n'
                f'state_file = "{state_file}"\n\n'
                f'[broker]\nhost = "{self.broker_host}"\nport = {self.broker_port}\n'
                f'ca_file = "{self.ca_file}"\n')
