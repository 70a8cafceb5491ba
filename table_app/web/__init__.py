"""The web server: table display, broadcast overlay, referee console, JSON API, WebSocket push (docs/web.md)."""
