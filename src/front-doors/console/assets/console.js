// The toolsift operator console: the script of every console page, served by the gateway (no other origin is
// contacted). It asks who is signed in, then draws the page the path names.
// Every value shown comes from the gateway's JSON and is untrusted text (tool names, arguments, outputs,
// session text): it goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api, useCsrf } from "./api.js";
import { showApprovals } from "./approvals-page.js";
import { showChat } from "./chat-page.js";
import { problem, show } from "./dom.js";
import { showHealth } from "./health-page.js";
import { showLogin } from "./login-page.js";
import { showLogs } from "./logs-page.js";
import { showSessions } from "./sessions-page.js";
import { showTimeline } from "./timeline-page.js";
import { showTools } from "./tools-page.js";

async function start() {
  let session;
  try {
    session = await api("/session");
  } catch (error) {
    show("Console unavailable", problem(error));
    return;
  }
  useCsrf(session.csrf);
  const path = location.pathname.replace(/\/+$/u, "") || "/console";
  if (!session.signedIn) {
    if (path !== "/console/login") location.replace("/console/login");
    else showLogin();
    return;
  }
  if (path === "/console" || path === "/console/login") {
    location.replace("/console/sessions");
    return;
  }
  showChrome(session, path);
  if (path === "/console/sessions") await showSessions(session);
  else if (path === "/console/session") await showTimeline(session);
  else if (path === "/console/approvals") await showApprovals(session);
  else if (path === "/console/tools") await showTools(session);
  else if (path === "/console/health") await showHealth();
  else if (path === "/console/logs") await showLogs(session);
  else if (path === "/console/chat") await showChat(session);
}

function showChrome(session, path) {
  document.getElementById("nav").hidden = false;
  const may = (scope) => session.scopes.includes("admin") || session.scopes.includes(scope);
  // Links to pages the key cannot read are left out (the API refuses them anyway).
  document.getElementById("nav-sessions").hidden = !may("sessions:read");
  document.getElementById("nav-approvals").hidden = !may("approvals") || !session.approvals;
  document.getElementById("nav-tools").hidden = !may("runs");
  document.getElementById("nav-logs").hidden = !session.scopes.includes("admin");
  document.getElementById("nav-chat").hidden = !may("runs");
  for (const link of document.querySelectorAll("#nav a")) {
    if (link.getAttribute("href") === path) link.setAttribute("aria-current", "page");
  }
  const who = document.getElementById("who");
  who.textContent = session.keyed
    ? `key ${session.keyId} (${session.scopes.join(", ")})`
    : "local caller (no keys configured)";
  const logout = document.getElementById("logout");
  logout.hidden = !session.keyed;
  logout.addEventListener("click", async () => {
    try {
      await api("/logout", { method: "POST", body: {} });
    } finally {
      location.assign("/console/login");
    }
  });
}
void start();
