// The open room's page (docs/room.md): its chat panel on the room's channel.
import { mountChannel } from "./chat.js";

const panel = document.getElementById("room-chat-panel");
if (panel) mountChannel(panel, "room");
