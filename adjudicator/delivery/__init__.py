"""Every mail the judge writes: composing it, the outbox it waits in, and sending it by SMTP."""
