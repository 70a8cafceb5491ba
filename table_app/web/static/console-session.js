// The console's session, for the referee console and the hall console alike: the session cookie
// from the login form authorises every action, and the session's CSRF token (from
// /api/console/session) goes with each one: another site can make the browser send the cookie,
// but cannot read or send the token.
"use strict";

let csrf = "";

// Shows the login form (and resolves false) without a session; else keeps its CSRF token,
// shows the desk, wires the logout button and resolves true.
async function openConsoleSession() {
  const session = await fetch("/api/console/session", { credentials: "same-origin" });
  if (!session.ok) {
    document.getElementById("login").hidden = false;
    return false;
  }
  csrf = (await session.json()).csrf || "";
  document.getElementById("desk").hidden = false;
  document.getElementById("logout").onclick = async () => {
    await fetch("/api/console/logout", {
      method: "POST",
      headers: { "X-Jantaku-CSRF": csrf },
      credentials: "same-origin",
    });
    location.reload();
  };
  return true;
}
