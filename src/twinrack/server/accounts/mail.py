"""Password reset e-mails, through the SMTP server of ``TWINRACK_SMTP_URL``
(``smtp://[user:password@]host[:port]``, or ``smtps://`` for TLS from the start; the
sender is ``TWINRACK_MAIL_FROM``, by default ``twinrack@localhost``)."""

from __future__ import annotations

import asyncio
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

#: seconds a connection to the SMTP server may take
SMTP_SECONDS = 10.0


@dataclass(frozen=True)
class Mailer:
    url: str
    sender: str = "twinrack@localhost"

    def _send(self, to: str, subject: str, body: str) -> None:
        parts = urlsplit(self.url)
        tls = parts.scheme == "smtps"
        kind = smtplib.SMTP_SSL if tls else smtplib.SMTP
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.sender, to, subject
        msg.set_content(body)
        with kind(parts.hostname or "127.0.0.1", parts.port or (465 if tls else 25),
                  timeout=SMTP_SECONDS) as smtp:
            if parts.username:
                smtp.login(unquote(parts.username), unquote(parts.password or ""))
            smtp.send_message(msg)

    async def send(self, to: str, subject: str, body: str) -> None:
        """Send on a thread (the event loop never waits for the SMTP server)."""
        await asyncio.to_thread(self._send, to, subject, body)


def reset_text(name: str, link: str) -> str:
    return (f"Someone (we hope you) asked to reset the password of the TwinRack account "
            f"{name}.\n\nTo choose a new password, open this link within an hour; it works "
            f"once:\n\n{link}\n\nIf you did not ask for it, ignore this message: your "
            "password stays as it is.\n")
