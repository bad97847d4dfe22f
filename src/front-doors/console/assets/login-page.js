// Every value shown comes from the gateway's JSON and is untrusted text (tool names, arguments, outputs,
// session text): it goes into the page only as text nodes, through `el()` (dom.js), never as markup.

import { api } from "./api.js";
import { el, show } from "./dom.js";

export function showLogin() {
  const error = el("p", { role: "alert", class: "message bad", hidden: true });
  const token = el("input", {
    id: "token",
    name: "token",
    type: "password",
    autocomplete: "off",
    required: true,
    spellcheck: "false",
  });
  const form = el(
    "form",
    { method: "post", action: "/console/api/login", class: "filters" },
    el("label", { for: "token" }, "Key token", token),
    el("button", { type: "submit" }, "Sign in"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      await api("/login", { method: "POST", body: { token: token.value } });
      token.value = "";
      location.assign("/console/sessions");
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      token.focus();
    }
  });
  show(
    "Sign in",
    el(
      "p",
      {},
      "Paste the token of one of this gateway's keys (gateway.auth.keys). It is sent once, in the body of a " +
        "same-origin request, and is not kept by the browser: the console keeps a session cookie instead.",
    ),
    form,
    error,
  );
  token.focus();
}
