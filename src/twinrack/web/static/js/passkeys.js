/** Passkeys (docs/accounts.md): "Add a passkey" on the account page and "Sign in with a
 * passkey" on the sign-in page. Each ceremony is two calls: the server's options, then the
 * browser's answer (both with the page's CSRF token). */
import { csrfHeaders } from "./csrf.js";

function toBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function fromBytes(buffer) {
  let raw = "";
  for (const b of new Uint8Array(buffer)) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function post(url, body) {
  const r = await fetch(url, { method: "POST", body: JSON.stringify(body),
    headers: csrfHeaders({ "Content-Type": "application/json" }) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || `the server answered ${r.status}`);
  return data;
}

const descriptors = (list) => (list || []).map((c) => ({ ...c, id: toBytes(c.id) }));

function creationOptions(o) {
  return { ...o, challenge: toBytes(o.challenge), user: { ...o.user, id: toBytes(o.user.id) },
    excludeCredentials: descriptors(o.excludeCredentials) };
}

function requestOptions(o) {
  return { ...o, challenge: toBytes(o.challenge), allowCredentials: descriptors(o.allowCredentials) };
}

function common(cred) {
  return { id: cred.id, rawId: fromBytes(cred.rawId), type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment || undefined,
    clientExtensionResults: cred.getClientExtensionResults() };
}

function registrationJSON(cred) {
  const r = cred.response;
  return { ...common(cred), response: { clientDataJSON: fromBytes(r.clientDataJSON),
    attestationObject: fromBytes(r.attestationObject),
    transports: r.getTransports ? r.getTransports() : [] } };
}

function assertionJSON(cred) {
  const r = cred.response;
  return { ...common(cred), response: { clientDataJSON: fromBytes(r.clientDataJSON),
    authenticatorData: fromBytes(r.authenticatorData), signature: fromBytes(r.signature),
    userHandle: r.userHandle ? fromBytes(r.userHandle) : null } };
}

const status = document.getElementById("passkey-status");
const say = (text) => { if (status) status.textContent = text; };
const supported = Boolean(window.PublicKeyCredential && navigator.credentials);

async function addPasskey() {
  say("Follow your device's prompt to make the passkey...");
  const options = await post("/api/passkeys/register/options", {});
  const cred = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const name = document.getElementById("passkey-name")?.value || "";
  await post("/api/passkeys/register", { credential: registrationJSON(cred), name });
  window.location.assign("/account?done=passkey#passkeys");
}

async function signIn() {
  const form = document.getElementById("signin-form");
  const name = form?.elements.name?.value.trim() || "";
  const next = form?.elements.next?.value || "/account";
  say("Follow your device's prompt to use your passkey...");
  const options = await post("/api/passkeys/signin/options", { name });
  const cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
  const done = await post("/api/passkeys/signin", { credential: assertionJSON(cred), next });
  window.location.assign(done.next);
}

for (const [id, run] of [["passkey-add", addPasskey], ["passkey-signin", signIn]]) {
  const button = document.getElementById(id);
  if (!button) continue;
  if (!supported) {
    button.disabled = true;
    say("This browser cannot use passkeys here (they need a recent browser and a secure page).");
    continue;
  }
  button.addEventListener("click", () => {
    button.disabled = true;
    run().catch((err) => say(err.name === "NotAllowedError"
      ? "The passkey prompt was closed or timed out: nothing changed."
      : `No passkey: ${err.message}`)).finally(() => { button.disabled = false; });
  });
}
