"""Chat's messages on a table's channel (docs/protocol.md, "Chat"), read from the browser's
JSON into the table's commands; the text itself is checked by the table (rules.py), which
knows whether it is quiet."""

from __future__ import annotations

from typing import Any

from twinrack.server.chat.rules import MAX_CHARS
from twinrack.server.guard import MAX_MSG_ID_CHARS, BadMessage
from twinrack.server.table.seats import Connection, TableCommand

#: the longest chat text a message may carry before the table looks at it (the table
#: refuses more than rules.MAX_CHARS once spaces are stripped; this bounds the work)
MAX_RAW_CHARS = 1_000


def chat_command(msg: dict[str, Any], conn: Connection,
                 sender: tuple[str, str] | None) -> TableCommand:
    """``{"type": "chat", "text": ...}`` or ``{"type": "chat_quiet", "on": ...}`` as a
    command for the table, or :class:`BadMessage`."""
    msg_id = msg.get("msg_id")
    if msg_id is not None and (not isinstance(msg_id, str) or len(msg_id) > MAX_MSG_ID_CHARS):
        raise BadMessage("too_long", f"a msg_id is text of at most {MAX_MSG_ID_CHARS} "
                                     "characters")
    if msg.get("type") == "chat_quiet":
        on = msg.get("on")
        if not isinstance(on, bool):
            raise BadMessage("bad_message", "chat_quiet needs on: true or false")
        return TableCommand("chat_quiet", conn=conn, msg_id=msg_id,
                            text="on" if on else "off")
    text = msg.get("text")
    if not isinstance(text, str):
        raise BadMessage("bad_message", "a chat message needs text")
    if len(text) > MAX_RAW_CHARS:
        raise BadMessage("chat_too_long", f"a chat line may have at most {MAX_CHARS} "
                                           "characters")
    return TableCommand("chat", conn=conn, msg_id=msg_id, text=text, sender=sender)
