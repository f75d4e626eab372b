// usage-shell.js — the extension's one script (Chromium's service worker, Firefox's background script): the host name of the site in front, or "no site", sent to `usage-shell web-host` by native messaging; never a path, query, fragment, title or favicon.
"use strict";

// Firefox's `browser.*` and Chromium's `chrome.*`, told apart here and nowhere else: both return promises in MV3.
const api = globalThis.browser ?? globalThis.chrome;

const HOST = "usage_shell";
const CHECK_MS = 5000;
const RETRY_FIRST_MS = 1000;
const RETRY_MOST_MS = 30000;

let port = null;
let sent; // the last site sent on this port: a host name, null, or undefined for nothing yet
let retry = RETRY_FIRST_MS;
let pending = null;

// The host name of a web page's address; null for anything else (about:, chrome:, file:, data:,
// an extension's page, the new-tab page): those are the browser itself, no site.
function siteOf(address) {
  if (typeof address !== "string") return null;
  let url;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.hostname || null;
}

// What is in front in this browser: the active tab of the window last focused, as the browser
// says when asked (windows.onFocusChanged is only a reason to ask: it fires wrongly on some
// window managers and not at all when another app takes focus). A private window is no site,
// and nothing of it is read. So is a window last focused that is no longer focused: the window in
// front is then one this extension is not shown (a private window it is not allowed in), or
// another app's, where no site counts anyway.
async function siteInFront() {
  try {
    const window = await api.windows.getLastFocused({ populate: true, windowTypes: ["normal", "popup"] });
    if (!window || !window.focused || window.incognito) return null;
    const tab = (window.tabs || []).find((t) => t.active);
    if (!tab || tab.incognito) return null;
    return siteOf(tab.url);
  } catch {
    return null;
  }
}

function send(site) {
  if (!port) return;
  try {
    port.postMessage({ site, time: Date.now() });
    sent = site;
  } catch {
    port = null;
    reconnect();
  }
}

// Asks what is in front and sends it when it changed (the host writes it again every 5 s itself).
async function check() {
  const site = await siteInFront();
  if (site !== sent) send(site);
}

function reconnect() {
  if (pending) return;
  pending = setTimeout(() => {
    pending = null;
    connect();
  }, retry);
  retry = Math.min(retry * 2, RETRY_MOST_MS);
}

function connect() {
  try {
    port = api.runtime.connectNative(HOST);
  } catch {
    port = null;
    reconnect();
    return;
  }
  sent = undefined;
  port.onMessage.addListener(() => {
    retry = RETRY_FIRST_MS;
  });
  port.onDisconnect.addListener(() => {
    // Reading lastError marks it seen (Chromium logs it otherwise).
    void (api.runtime.lastError);
    port = null;
    reconnect();
  });
  check();
}

api.tabs.onActivated.addListener(check);
api.tabs.onUpdated.addListener((tabId, change, tab) => {
  if (tab.active && (change.url !== undefined || change.status === "complete")) check();
});
api.tabs.onRemoved.addListener(check);
api.windows.onFocusChanged.addListener(check);
api.windows.onRemoved.addListener(check);
api.runtime.onStartup.addListener(check);
api.runtime.onInstalled.addListener(check);
setInterval(check, CHECK_MS);
connect();
