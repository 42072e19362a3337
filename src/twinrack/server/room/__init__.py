"""The open room (docs/room.md): the public page of tables waiting for players, quick
match, who is in the room. Its state is in the database (migration 0010_room)."""
