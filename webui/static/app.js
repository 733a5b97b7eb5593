// The minizulip web client: log in, read, write and follow the realm live,
// through the server's own API (/json session, register, event queue).
// Only the message HTML the server rendered is inserted as HTML; every
// other server text goes in as text.
import { call, ApiError, sleep } from "./api.js";

const $ = (id) => document.getElementById(id);
const PAGE = 50; // messages fetched at a time

// el builds an element: attributes, then children (strings become text).
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// ---- state ----
let st = null; // the registered state (see register)
let view = null; // the open narrow and its messages
let pollAbort = null;
let generation = 0; // bumps on each register, so stale loops stop

function banner(text) {
  const b = $("banner");
  b.textContent = text || "";
  b.hidden = !text;
}

// report shows an error where the user acted, or in the banner.
function report(err, where) {
  const msg = err instanceof ApiError ? err.message : "Something went wrong: " + String(err && err.message || err);
  if (where) where.textContent = msg;
  else banner(msg);
}

// guard runs an event handler, reporting what it throws.
const guard = (fn, where) => async (ev) => {
  try {
    if (where) where.textContent = "";
    await fn(ev);
  } catch (err) {
    report(err, where);
  }
};

// ---- login ----
function showLogin() {
  $("app").hidden = true;
  $("login").hidden = false;
  document.title = "Log in · minizulip";
}

async function devLogin(email) {
  await call("POST", "/dev_fetch_api_key", { username: email }, { prefix: "/api/v1" });
  await start();
}

async function passwordLogin(form) {
  const data = new FormData(form);
  await call("POST", "/fetch_api_key", { username: data.get("username"), password: data.get("password") }, { prefix: "/api/v1" });
  await start();
}

async function logout() {
  const s = st;
  st = null;
  generation++;
  if (pollAbort) pollAbort.abort();
  if (s) {
    try {
      await call("DELETE", "/events", { queue_id: s.queue_id });
    } catch {
      // the queue may be gone already
    }
  }
  try {
    await call("POST", "/accounts/logout/", {}, { prefix: "" });
  } catch {
    // the session may be gone already
  }
  location.hash = "";
  showLogin();
}

// ---- register ----
async function register() {
  const r = await call("POST", "/register", {
    apply_markdown: true,
    client_gravatar: false, // a spectator may not ask for it, and the page shows no avatars
    include_subscribers: false,
    // The state the page draws; the queue still gets every event type.
    fetch_event_types: ["realm_user", "subscription", "message", "update_message_flags", "recent_private_conversations", "realm_emoji"],
    slim_presence: true,
    client_capabilities: { notification_settings_null: true, user_avatar_url_field_optional: true, stream_typing_notifications: true },
  });
  // Logged out, a realm with spectator access answers as to a spectator
  // (no queue, no user): this client has no spectator view, so it logs in.
  if (r.queue_id == null) throw new ApiError(401, { msg: "Log in to continue." });
  const users = new Map();
  for (const u of r.realm_users || []) users.set(u.user_id, u);
  for (const u of r.realm_non_active_users || []) users.set(u.user_id, u);
  for (const u of r.cross_realm_bots || []) users.set(u.user_id, u);
  const subs = new Map();
  for (const s of r.subscriptions || []) subs.set(s.stream_id, s);
  const unread = new Map(); // message id -> conversation key
  const um = r.unread_msgs || {};
  for (const s of um.streams || []) for (const id of s.unread_message_ids) unread.set(id, topicKey(s.stream_id, s.topic));
  for (const p of um.pms || []) for (const id of p.unread_message_ids) unread.set(id, dmKey([p.other_user_id ?? p.sender_id], r.user_id));
  for (const h of um.huddles || []) for (const id of h.unread_message_ids) unread.set(id, dmKey(h.user_ids_string.split(",").map(Number), r.user_id));
  const dms = new Map(); // key -> max message id
  for (const c of r.recent_private_conversations || []) {
    const key = dmKey(c.user_ids, r.user_id);
    dms.set(key, Math.max(dms.get(key) || 0, c.max_message_id));
  }
  for (const [id, key] of unread) if (key.startsWith("dm:")) dms.set(key, Math.max(dms.get(key) || 0, id));
  st = {
    queue_id: r.queue_id,
    last_event_id: r.last_event_id,
    me: r.user_id,
    users,
    subs,
    unread,
    dms,
    editLimit: r.realm_message_content_edit_limit_seconds,
    typing: new Map(),
    realmEmoji: r.realm_emoji || {},
  };
  generation++;
  return st;
}

// Conversation keys: "s:<stream>:<topic lowercased>" and "dm:<ids>".
function topicKey(streamId, topic) {
  return `s:${streamId}:${String(topic).toLowerCase()}`;
}
function dmKey(ids, me) {
  const set = [...new Set(ids.map(Number))].filter((id) => id !== me).sort((a, b) => a - b);
  return "dm:" + (set.length ? set.join(",") : String(me));
}
function msgKey(m) {
  if (m.type === "stream") return topicKey(m.stream_id, m.subject ?? m.topic);
  return dmKey((m.display_recipient || []).map((u) => u.id), st.me);
}
function userName(id) {
  const u = st.users.get(id);
  return u ? u.full_name : `User ${id}`;
}
function dmName(key) {
  return key.slice(3).split(",").map((id) => userName(Number(id))).join(", ");
}

async function start() {
  const t0 = performance.now();
  window.minizulipTimings = {};
  try {
    await register();
    window.minizulipTimings.register = performance.now() - t0;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      showLogin();
      return;
    }
    throw err;
  }
  $("login").hidden = true;
  $("app").hidden = false;
  banner("");
  $("me").textContent = userName(st.me);
  renderSidebar();
  renderComposeTargets();
  await openFromHash();
  window.minizulipTimings.firstRender = performance.now() - t0;
  poll(generation);
}

// ---- sidebar ----
function unreadCount(pred) {
  let n = 0;
  for (const key of st.unread.values()) if (pred(key)) n++;
  return n;
}

function navLink(href, name, count, current) {
  const a = el("a", { href, "aria-current": current ? "page" : false }, name);
  if (count) a.append(" ", el("span", { class: "count", text: String(count) }));
  return el("li", {}, a);
}

// setList replaces a list's items unless they would be the same.
function setList(list, items) {
  const sig = items.map((li) => li.innerHTML).join("\n");
  if (list.minizulipSig === sig) return;
  list.minizulipSig = sig;
  list.replaceChildren(...items);
}

function renderSidebar() {
  if (!st) return;
  const subs = [...st.subs.values()].sort((a, b) => a.name.localeCompare(b.name));
  setList(
    $("channels"),
    [
    ...subs.map((s) => {
      const n = unreadCount((k) => k.startsWith(`s:${s.stream_id}:`));
      return navLink(`#channel/${s.stream_id}`, s.name, n, view && view.kind === "channel" && view.streamId === s.stream_id && view.topic === undefined);
    }),
  ]);
  const dms = [...st.dms.entries()].sort((a, b) => b[1] - a[1]);
  setList(
    $("dms"),
    dms.map(([key]) => {
      const n = unreadCount((k) => k === key);
      return navLink(`#dm/${key.slice(3)}`, dmName(key), n, view && view.kind === "dm" && view.key === key);
    }),
  );
  $("feed-link").setAttribute("aria-current", view && view.kind === "feed" ? "page" : "false");
  renderTopics();
}

function renderTopics() {
  const nav = $("topics-nav");
  if (!view || view.kind !== "channel") {
    nav.hidden = true;
    return;
  }
  nav.hidden = false;
  const topics = view.topics || [];
  setList(
    $("topics"),
    topics.map((t) => {
      const n = unreadCount((k) => k === topicKey(view.streamId, t.name));
      const current = view.topic !== undefined && view.topic.toLowerCase() === t.name.toLowerCase();
      return navLink(`#channel/${view.streamId}/topic/${encodeURIComponent(t.name)}`, t.name, n, current);
    }),
  );
}

async function loadTopics(streamId) {
  const r = await call("GET", `/users/me/${streamId}/topics`);
  const topics = (r.topics || []).slice().sort((a, b) => b.max_id - a.max_id);
  if (view && view.streamId === streamId) {
    view.topics = topics;
    renderTopics();
  }
}

// ---- compose targets ----
function renderComposeTargets() {
  const sel = $("compose-to");
  const channels = el("optgroup", { label: "Channels" });
  for (const s of [...st.subs.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    channels.append(el("option", { value: `s:${s.stream_id}`, text: s.name }));
  }
  const people = el("optgroup", { label: "Direct message" });
  const users = [...st.users.values()].filter((u) => u.is_active !== false).sort((a, b) => a.full_name.localeCompare(b.full_name));
  for (const u of users) people.append(el("option", { value: `dm:${u.user_id}`, text: u.full_name }));
  sel.replaceChildren(channels, people);
  syncCompose();
}

// syncCompose points the compose box at the open conversation.
function syncCompose() {
  const sel = $("compose-to");
  if (view && view.kind === "channel") sel.value = `s:${view.streamId}`;
  else if (view && view.kind === "dm") {
    const ids = view.key.slice(3);
    if (!ids.includes(",")) sel.value = `dm:${ids}`;
  }
  if (view && view.topic !== undefined) $("compose-topic").value = view.topic;
  $("topic-label").hidden = !sel.value.startsWith("s:") && !(view && view.kind === "dm" && view.key.includes(","));
  if (view && view.kind === "dm" && view.key.includes(",")) $("topic-label").hidden = true;
}

// ---- views ----
function parseHash() {
  const h = decodeURIComponent(location.hash.slice(1));
  let m;
  if ((m = /^channel\/(\d+)\/topic\/(.*)$/s.exec(h))) return { kind: "channel", streamId: Number(m[1]), topic: m[2] };
  if ((m = /^channel\/(\d+)$/.exec(h))) return { kind: "channel", streamId: Number(m[1]) };
  if ((m = /^dm\/([\d,]+)$/.exec(h))) return { kind: "dm", key: dmKey(m[1].split(",").map(Number), -1) };
  return { kind: "feed" };
}

function narrowOf(v) {
  if (v.kind === "channel") {
    const n = [{ operator: "stream", operand: v.streamId }];
    if (v.topic !== undefined) n.push({ operator: "topic", operand: v.topic });
    return n;
  }
  if (v.kind === "dm") return [{ operator: "dm", operand: v.key.slice(3).split(",").map(Number) }];
  return [];
}

function viewTitle(v) {
  if (v.kind === "channel") {
    const s = st.subs.get(v.streamId);
    const name = s ? s.name : `Channel ${v.streamId}`;
    return v.topic !== undefined ? `${name} › ${v.topic}` : name;
  }
  if (v.kind === "dm") return `Direct messages with ${dmName(v.key)}`;
  return "Combined feed";
}

// matches says whether a message belongs in view v.
function matches(v, m) {
  if (v.kind === "feed") return true;
  if (v.kind === "dm") return m.type === "private" && msgKey(m) === v.key;
  if (m.type !== "stream" || m.stream_id !== v.streamId) return false;
  return v.topic === undefined || String(m.subject).toLowerCase() === v.topic.toLowerCase();
}

async function openFromHash() {
  const v = parseHash();
  v.messages = new Map();
  v.order = [];
  v.foundOldest = false;
  v.loading = false;
  if (v.kind === "channel" && view && view.kind === "channel" && view.streamId === v.streamId) v.topics = view.topics;
  view = v;
  $("view-title").textContent = viewTitle(v);
  $("move-topic").hidden = !(v.kind === "channel" && v.topic !== undefined);
  $("move-form").hidden = true;
  $("messages").replaceChildren();
  renderTyping();
  renderSidebar();
  syncCompose();
  if (v.kind === "channel") loadTopics(v.streamId).catch((err) => report(err));
  const t0 = performance.now();
  await loadMessages(v, "newest");
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r))); // drawn
  if (view === v) {
    window.minizulipTimings = Object.assign(window.minizulipTimings || {}, { lastOpen: performance.now() - t0 });
  }
}

async function loadMessages(v, anchor) {
  if (v.loading) return;
  v.loading = true;
  try {
    const params = { anchor: String(anchor), num_before: PAGE, num_after: 0, narrow: narrowOf(v), apply_markdown: true, client_gravatar: true };
    if (anchor !== "newest") params.include_anchor = false;
    const tf = performance.now();
    const r = await call("GET", "/messages", params);
    window.minizulipTimings = Object.assign(window.minizulipTimings || {}, { lastFetch: performance.now() - tf });
    if (view !== v) return;
    v.foundOldest = !!r.found_oldest;
    const fresh = r.messages.filter((m) => !v.messages.has(m.id));
    for (const m of fresh) v.messages.set(m.id, m);
    const box = $("messages");
    if (anchor === "newest") {
      v.order = [...v.messages.keys()].sort((a, b) => a - b);
      box.replaceChildren(...v.order.map((id) => renderMessage(v.messages.get(id))));
      box.scrollTop = box.scrollHeight;
    } else {
      const before = box.scrollHeight - box.scrollTop;
      box.prepend(...fresh.sort((a, b) => a.id - b.id).map(renderMessage));
      v.order = [...fresh.map((m) => m.id), ...v.order];
      box.scrollTop = box.scrollHeight - before;
    }
    if (!v.order.length) box.append(el("p", { class: "empty", text: "No messages here yet." }));
    else box.querySelector("p.empty")?.remove();
    observeUnread();
  } finally {
    v.loading = false;
  }
}

// ---- messages ----
function formatTime(ts) {
  const d = new Date(ts * 1000);
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function emojiChar(r) {
  if (r.reaction_type !== "unicode_emoji") return `:${r.emoji_name}:`;
  try {
    return String.fromCodePoint(...r.emoji_code.split("-").map((c) => parseInt(c, 16)));
  } catch {
    return `:${r.emoji_name}:`;
  }
}

// emojiGlyph is a reaction's picture: a unicode emoji's character, a
// custom emoji's image, else its :name:.
function emojiGlyph(r) {
  const custom = r.reaction_type === "realm_emoji" && st.realmEmoji[r.emoji_code];
  if (custom && custom.source_url) {
    return el("img", { class: "emoji", src: custom.source_url, alt: "", "aria-hidden": "true" });
  }
  return el("span", { "aria-hidden": "true", text: emojiChar(r) });
}

function renderReactions(m) {
  const groups = new Map();
  for (const r of m.reactions || []) {
    const k = `${r.reaction_type}:${r.emoji_code}`;
    if (!groups.has(k)) groups.set(k, { r, users: [] });
    groups.get(k).users.push(r.user_id ?? (r.user && r.user.id));
  }
  const box = el("div", { class: "reactions" });
  for (const { r, users } of groups.values()) {
    const mine = users.includes(st.me);
    const who = users.map(userName).join(", ");
    box.append(
      el(
        "button",
        {
          type: "button",
          class: "reaction",
          "aria-pressed": mine ? "true" : "false",
          "aria-label": `${r.emoji_name} ${users.length}`,
          title: `${r.emoji_name} by ${who}`,
          onclick: guard(() => toggleReaction(m, r, mine)),
        },
        emojiGlyph(r),
        " ",
        el("span", { "aria-hidden": "true", text: String(users.length) }),
      ),
    );
  }
  return box;
}

function renderMessage(m) {
  const own = m.sender_id === st.me;
  const starred = (m.flags || []).includes("starred");
  const headId = `m${m.id}-head`;
  const err = el("p", { class: "error", role: "alert" });
  const content = el("div", { class: "content" });
  content.innerHTML = m.content; // the server-rendered message HTML
  showEmoji(content);
  const edited = m.last_edit_timestamp || (m.edit_history && m.edit_history.length);
  let where = "";
  if (view && (view.kind === "feed" || (view.kind === "channel" && view.topic === undefined))) {
    where = m.type === "stream" ? `${m.display_recipient} › ${m.subject}` : "Direct message";
  }
  const art = el(
    "article",
    { id: `m${m.id}`, class: "message", "data-id": m.id, "aria-labelledby": headId, tabindex: "-1" },
    el(
      "header",
      { id: headId },
      el("span", { class: "sender", text: m.sender_full_name || userName(m.sender_id) }),
      " ",
      el("time", { datetime: new Date(m.timestamp * 1000).toISOString(), text: formatTime(m.timestamp) }),
      edited ? el("span", { class: "edited", text: " (edited)" }) : null,
      where ? el("span", { class: "where", text: " · " + where }) : null,
    ),
    content,
    renderReactions(m),
    el(
      "div",
      { class: "actions" },
      el("button", { type: "button", onclick: guard(() => openPicker(m), err) }, "Add reaction"),
      el("button", { type: "button", "aria-pressed": starred ? "true" : "false", onclick: guard(() => toggleStar(m), err) }, "Star"),
      own ? el("button", { type: "button", onclick: guard(() => startEdit(m, art, err), err) }, "Edit") : null,
      own ? el("button", { type: "button", onclick: guard(() => deleteMessage(m), err) }, "Delete") : null,
    ),
    err,
  );
  if (!(m.flags || []).includes("read") && st.unread.has(m.id)) art.classList.add("unread");
  return art;
}

// showEmoji draws the server's emoji spans (":smile:" text, which Zulip's
// web app covers with a sprite) as the Unicode characters they name.
function showEmoji(root) {
  for (const span of root.querySelectorAll("span.emoji")) {
    const code = [...span.classList].find((c) => /^emoji-[0-9a-f-]+$/.test(c));
    if (!code) continue;
    try {
      span.textContent = String.fromCodePoint(...code.slice(6).split("-").map((c) => parseInt(c, 16)));
    } catch {
      // not a code point: keep the server's text
    }
  }
}

// Spoilers open and close from their header, as in Zulip.
function toggleSpoiler(ev) {
  const header = ev.target.closest(".spoiler-header");
  const block = header && header.closest(".spoiler-block");
  if (!block || ev.target.closest("a")) return;
  const open = block.classList.toggle("spoiler-open");
  const body = block.querySelector(".spoiler-content");
  if (body) body.setAttribute("aria-hidden", open ? "false" : "true");
}

function rerender(id) {
  const m = view && view.messages.get(id);
  const old = document.getElementById(`m${id}`);
  if (!m || !old) return;
  const fresh = renderMessage(m);
  old.replaceWith(fresh);
  if (fresh.classList.contains("unread")) readObserver?.observe(fresh);
}

function appendMessage(m) {
  const v = view;
  v.messages.set(m.id, m);
  v.order.push(m.id);
  const box = $("messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  box.querySelector("p.empty")?.remove();
  box.append(renderMessage(m));
  if (atBottom || m.sender_id === st.me) box.scrollTop = box.scrollHeight;
  observeUnread();
}

// ---- reading marks messages read ----
let readObserver = null;
let pendingRead = new Set();
let readTimer = 0;

function observeUnread() {
  if (!readObserver) {
    readObserver = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          if (!e.isIntersecting) continue;
          readObserver.unobserve(e.target);
          const id = Number(e.target.dataset.id);
          if (st && st.unread.has(id)) pendingRead.add(id);
        }
        if (pendingRead.size && !readTimer) readTimer = setTimeout(flushRead, 100);
      },
      { root: $("messages"), threshold: 0.1 },
    );
  }
  for (const a of $("messages").querySelectorAll("article.unread")) readObserver.observe(a);
}

async function flushRead() {
  readTimer = 0;
  if (document.visibilityState === "hidden" && !navigator.webdriver) return;
  const ids = [...pendingRead];
  pendingRead = new Set();
  if (!ids.length || !st) return;
  try {
    await call("POST", "/messages/flags", { messages: ids, op: "add", flag: "read" });
    markRead(ids);
  } catch (err) {
    report(err);
  }
}

function markRead(ids) {
  for (const id of ids) {
    st.unread.delete(id);
    const m = view && view.messages.get(id);
    if (m && !(m.flags || []).includes("read")) m.flags = [...(m.flags || []), "read"];
    document.getElementById(`m${id}`)?.classList.remove("unread");
  }
  renderSidebar();
}

// ---- actions ----
async function toggleStar(m) {
  const on = !(m.flags || []).includes("starred");
  await call("POST", "/messages/flags", { messages: [m.id], op: on ? "add" : "remove", flag: "starred" });
  setFlag(m.id, "starred", on);
}

function setFlag(id, flag, on) {
  const m = view && view.messages.get(id);
  if (!m) return;
  const flags = new Set(m.flags || []);
  if (on) flags.add(flag);
  else flags.delete(flag);
  m.flags = [...flags];
  rerender(id);
}

async function toggleReaction(m, r, mine) {
  const params = { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type };
  await call(mine ? "DELETE" : "POST", `/messages/${m.id}/reactions`, params);
}

async function deleteMessage(m) {
  await call("DELETE", `/messages/${m.id}`);
  removeMessages([m.id]);
}

function removeMessages(ids) {
  for (const id of ids) {
    st.unread.delete(id);
    if (view && view.messages.delete(id)) {
      view.order = view.order.filter((x) => x !== id);
      document.getElementById(`m${id}`)?.remove();
    }
  }
  renderSidebar();
}

async function startEdit(m, art, err) {
  const r = await call("GET", `/messages/${m.id}`, { apply_markdown: false });
  const raw = r.raw_content ?? (r.message && r.message.content) ?? "";
  const area = el("textarea", { "aria-label": "Edit message", rows: "4" });
  area.value = raw;
  const form = el(
    "form",
    { class: "edit" },
    area,
    el("button", { type: "submit" }, "Save"),
    el("button", { type: "button", onclick: () => rerender(m.id) }, "Cancel"),
  );
  form.addEventListener(
    "submit",
    guard(async (ev) => {
      ev.preventDefault();
      await call("PATCH", `/messages/${m.id}`, { content: area.value });
      rerender(m.id);
    }, err),
  );
  art.querySelector(".content").replaceWith(form);
  area.focus();
}

async function send() {
  const to = $("compose-to").value;
  const area = $("compose-content");
  const content = area.value;
  if (!content.trim()) return;
  const params = { content };
  if (to.startsWith("s:")) {
    Object.assign(params, { type: "stream", to: to.slice(2), topic: $("compose-topic").value });
  } else if (view && view.kind === "dm" && view.key.includes(",")) {
    Object.assign(params, { type: "private", to: view.key.slice(3).split(",").map(Number) });
  } else {
    Object.assign(params, { type: "private", to: [Number(to.slice(3))] });
  }
  const t0 = performance.now();
  await call("POST", "/messages", params);
  window.minizulipTimings = Object.assign(window.minizulipTimings || {}, { lastSend: performance.now() - t0 });
  area.value = "";
  $("preview").hidden = true;
}

async function preview() {
  const r = await call("POST", "/messages/render", { content: $("compose-content").value });
  const p = $("preview");
  p.innerHTML = r.rendered; // server-rendered message HTML
  p.prepend(el("h3", { text: "Preview" }));
  p.hidden = false;
}

async function moveTopic(ev) {
  ev.preventDefault();
  const v = view;
  const name = $("move-name").value;
  const t = (v.topics || []).find((x) => x.name.toLowerCase() === v.topic.toLowerCase());
  const id = t ? t.max_id : v.order[v.order.length - 1];
  if (!id) throw new Error("This topic has no messages to move.");
  await call("PATCH", `/messages/${id}`, { topic: name, propagate_mode: "change_all" });
  $("move-form").hidden = true;
  location.hash = `channel/${v.streamId}/topic/${encodeURIComponent(name)}`;
}

let lastTyping = 0;
function typingStart() {
  const now = Date.now();
  if (now - lastTyping < 10000 || !view || view.kind === "feed") return;
  lastTyping = now;
  const params = view.kind === "dm" ? { op: "start", type: "direct", to: view.key.slice(3).split(",").map(Number) } : view.topic !== undefined ? { op: "start", type: "stream", stream_id: view.streamId, topic: view.topic } : null;
  if (params) call("POST", "/typing", params).catch(() => {});
}

// ---- emoji picker ----
let emojiNames = null;
let pickerFor = null;

async function openPicker(m) {
  pickerFor = m;
  if (!emojiNames) {
    const r = await fetch("/static/generated/emoji/emoji_api.json").then((x) => x.json());
    emojiNames = [];
    for (const [code, names] of Object.entries(r.code_to_names || {})) for (const n of names) emojiNames.push([n, code]);
    emojiNames.sort((a, b) => a[0].localeCompare(b[0]));
  }
  const p = $("picker");
  p.hidden = false;
  $("picker-search").value = "";
  fillPicker();
  $("picker-search").focus();
}

function fillPicker() {
  const q = $("picker-search").value.trim().toLowerCase().replaceAll(" ", "_");
  const hits = emojiNames.filter(([n]) => n.includes(q)).slice(0, 80);
  $("picker-list").replaceChildren(
    ...hits.map(([name, code]) =>
      el(
        "button",
        { type: "button", "aria-label": name, title: name, onclick: guard(() => pick(name, code)) },
        emojiChar({ reaction_type: "unicode_emoji", emoji_code: code, emoji_name: name }),
      ),
    ),
  );
}

async function pick(name, code) {
  const m = pickerFor;
  closePicker();
  if (m) await call("POST", `/messages/${m.id}/reactions`, { emoji_name: name, emoji_code: code, reaction_type: "unicode_emoji" });
}

function closePicker() {
  $("picker").hidden = true;
  const m = pickerFor;
  pickerFor = null;
  if (m) document.getElementById(`m${m.id}`)?.focus();
}

// ---- typing ----
function renderTyping() {
  if (!st || !view) return;
  const names = [];
  for (const [uid, t] of st.typing) {
    if (Date.now() - t.at > 15000) continue;
    if (t.key === (view.kind === "dm" ? view.key : view.kind === "channel" && view.topic !== undefined ? topicKey(view.streamId, view.topic) : "")) names.push(userName(uid));
  }
  $("typing").textContent = names.length ? `${names.join(", ")} ${names.length > 1 ? "are" : "is"} typing…` : "";
}

// ---- events ----
function setConn(text) {
  $("conn").textContent = text;
}

async function poll(gen) {
  let failures = 0;
  while (st && gen === generation) {
    pollAbort = new AbortController();
    try {
      const r = await call("GET", "/events", { queue_id: st.queue_id, last_event_id: String(st.last_event_id), dont_block: false }, { signal: pollAbort.signal });
      if (gen !== generation) return;
      failures = 0;
      setConn("");
      for (const ev of r.events || []) {
        st.last_event_id = Math.max(st.last_event_id, ev.id);
        try {
          applyEvent(ev);
        } catch (err) {
          report(err);
        }
      }
    } catch (err) {
      if (gen !== generation || (err && err.name === "AbortError")) return;
      if (err instanceof ApiError && err.code === "BAD_EVENT_QUEUE_ID") {
        setConn("Reconnecting…");
        await reRegister();
        return;
      }
      if (err instanceof ApiError && err.status === 401) {
        st = null;
        showLogin();
        return;
      }
      failures++;
      const wait = err.retryAfter ? err.retryAfter * 1000 : Math.min(10000, 250 * 2 ** Math.min(failures, 6));
      setConn(`${err.message} Retrying in ${Math.ceil(wait / 1000)} s.`);
      await sleep(wait);
    }
  }
}

// reRegister replaces a lost queue: a fresh register, then the open view
// fetched again.
async function reRegister() {
  for (let attempt = 0; ; attempt++) {
    try {
      await register();
      break;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        showLogin();
        return;
      }
      setConn(`${err.message} Retrying.`);
      await sleep(Math.min(10000, 250 * 2 ** Math.min(attempt, 6)));
    }
  }
  setConn("");
  renderSidebar();
  renderComposeTargets();
  await openFromHash().catch((err) => report(err));
  poll(generation);
}

function applyEvent(ev) {
  switch (ev.type) {
    case "message":
      return onMessage(ev.message, ev.flags || []);
    case "update_message":
      return onUpdateMessage(ev);
    case "delete_message":
      return removeMessages(ev.message_ids || [ev.message_id]);
    case "reaction":
      return onReaction(ev);
    case "update_message_flags":
      return onFlags(ev);
    case "typing":
      return onTyping(ev);
    case "subscription":
      return onSubscription(ev);
    case "stream":
      return onStream(ev);
    case "realm_emoji":
      if (ev.op === "update") st.realmEmoji = ev.realm_emoji || {};
      return;
    case "realm_user":
      return onRealmUser(ev);
  }
}

function onMessage(m, flags) {
  m.flags = flags;
  const key = msgKey(m);
  if (!flags.includes("read")) st.unread.set(m.id, key);
  if (m.type === "private") st.dms.set(key, m.id);
  st.typing.delete(m.sender_id);
  if (view && matches(view, m) && !view.messages.has(m.id)) appendMessage(m);
  if (view && view.kind === "channel" && m.type === "stream" && m.stream_id === view.streamId) {
    const topics = (view.topics || []).filter((t) => t.name.toLowerCase() !== String(m.subject).toLowerCase());
    view.topics = [{ name: m.subject, max_id: m.id }, ...topics];
  }
  renderSidebar();
  renderTyping();
  window.minizulipTimings = Object.assign(window.minizulipTimings || {}, { [`shown${m.id}`]: performance.now() });
}

function onUpdateMessage(ev) {
  const ids = ev.message_ids || [ev.message_id];
  const moved = ev.subject !== undefined || ev.new_stream_id !== undefined;
  for (const id of ids) {
    const m = view && view.messages.get(id);
    if (m) {
      if (id === ev.message_id && ev.rendered_content !== undefined) {
        m.content = ev.rendered_content;
        m.last_edit_timestamp = ev.edit_timestamp;
      }
      if (ev.subject !== undefined) m.subject = ev.subject;
      if (ev.new_stream_id !== undefined) m.stream_id = ev.new_stream_id;
      if (moved) m.last_edit_timestamp = ev.edit_timestamp || m.last_edit_timestamp;
      if (matches(view, m)) rerender(id);
      else removeFromView(id);
    }
    if (moved && st.unread.has(id)) {
      const streamId = ev.new_stream_id ?? ev.stream_id;
      st.unread.set(id, topicKey(streamId, ev.subject ?? m?.subject ?? ev.orig_subject));
    }
  }
  if (moved && view && view.kind === "channel") loadTopics(view.streamId).catch((err) => report(err));
  renderSidebar();
}

function removeFromView(id) {
  view.messages.delete(id);
  view.order = view.order.filter((x) => x !== id);
  document.getElementById(`m${id}`)?.remove();
}

function onReaction(ev) {
  const m = view && view.messages.get(ev.message_id);
  if (!m) return;
  const uid = ev.user_id ?? (ev.user && ev.user.user_id);
  const same = (r) => r.emoji_code === ev.emoji_code && r.reaction_type === ev.reaction_type && (r.user_id ?? r.user?.id) === uid;
  if (ev.op === "add") {
    if (!(m.reactions || []).some(same)) m.reactions = [...(m.reactions || []), { emoji_name: ev.emoji_name, emoji_code: ev.emoji_code, reaction_type: ev.reaction_type, user_id: uid }];
  } else {
    m.reactions = (m.reactions || []).filter((r) => !same(r));
  }
  rerender(m.id);
}

function onFlags(ev) {
  const on = ev.op === "add";
  const ids = ev.all ? [...st.unread.keys()] : ev.messages || [];
  if (ev.flag === "read") {
    if (on) markRead(ids);
    else {
      for (const id of ids) {
        const m = view && view.messages.get(id);
        const info = ev.message_details && ev.message_details[id];
        if (m) st.unread.set(id, msgKey(m));
        else if (info && info.type === "stream") st.unread.set(id, topicKey(info.stream_id, info.topic));
        if (m) {
          m.flags = (m.flags || []).filter((f) => f !== "read");
          rerender(id);
        }
      }
      renderSidebar();
    }
  } else {
    for (const id of ids) setFlag(id, ev.flag, on);
  }
}

function onTyping(ev) {
  const uid = ev.sender && ev.sender.user_id;
  if (!uid || uid === st.me) return;
  if (ev.op === "stop") st.typing.delete(uid);
  else {
    const key = ev.message_type === "stream" ? topicKey(ev.stream_id, ev.topic) : dmKey((ev.recipients || []).map((r) => r.user_id), st.me);
    st.typing.set(uid, { key, at: Date.now() });
  }
  renderTyping();
}

function onSubscription(ev) {
  if (ev.op === "add") for (const s of ev.subscriptions || []) st.subs.set(s.stream_id, s);
  else if (ev.op === "remove") for (const s of ev.subscriptions || []) st.subs.delete(s.stream_id);
  else if (ev.op === "update" && st.subs.has(ev.stream_id)) st.subs.get(ev.stream_id)[ev.property] = ev.value;
  else return;
  renderSidebar();
  renderComposeTargets();
}

function onStream(ev) {
  if (ev.op === "update" && st.subs.has(ev.stream_id)) {
    st.subs.get(ev.stream_id)[ev.property] = ev.value;
  } else if (ev.op === "delete") {
    for (const s of ev.streams || []) st.subs.delete(s.stream_id);
  } else return;
  renderSidebar();
  renderComposeTargets();
  if (view) $("view-title").textContent = viewTitle(view);
}

function onRealmUser(ev) {
  const p = ev.person || {};
  if (ev.op === "add") st.users.set(p.user_id, p);
  else if (ev.op === "update" && st.users.has(p.user_id)) Object.assign(st.users.get(p.user_id), p);
  else return;
  renderSidebar();
}

// ---- wiring ----
function wire() {
  for (const b of document.querySelectorAll("#login button[data-email]")) {
    b.addEventListener("click", guard(() => devLogin(b.dataset.email), $("login-error")));
  }
  $("password-login")?.addEventListener(
    "submit",
    guard(async (ev) => {
      ev.preventDefault();
      await passwordLogin(ev.target);
    }, $("login-error")),
  );
  $("logout").addEventListener("click", guard(logout));
  window.addEventListener("hashchange", guard(() => (st ? openFromHash() : undefined)));
  const box = $("messages");
  box.addEventListener("click", toggleSpoiler);
  box.addEventListener(
    "scroll",
    guard(async () => {
      if (view && !view.foundOldest && !view.loading && box.scrollTop < 200 && view.order.length) await loadMessages(view, view.order[0]);
    }),
  );
  const compose = $("compose");
  const cerr = $("compose-error");
  compose.addEventListener(
    "submit",
    guard(async (ev) => {
      ev.preventDefault();
      await send();
    }, cerr),
  );
  $("compose-content").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      compose.requestSubmit();
    }
  });
  $("compose-content").addEventListener("input", typingStart);
  $("compose-to").addEventListener("change", () => {
    $("topic-label").hidden = !$("compose-to").value.startsWith("s:");
  });
  $("preview-button").addEventListener("click", guard(preview, cerr));
  $("move-topic").addEventListener("click", () => {
    $("move-form").hidden = false;
    $("move-name").value = view.topic || "";
    $("move-name").focus();
  });
  $("move-cancel").addEventListener("click", () => ($("move-form").hidden = true));
  $("move-form").addEventListener("submit", guard(moveTopic));
  $("picker-search").addEventListener("input", fillPicker);
  $("picker-close").addEventListener("click", closePicker);
  $("picker").addEventListener("keydown", (ev) => ev.key === "Escape" && closePicker());
  setInterval(renderTyping, 5000);
}

window.addEventListener("unhandledrejection", (ev) => {
  ev.preventDefault();
  report(ev.reason);
});

// The event queue in use, for tests and the curious.
window.minizulipQueueID = () => (st ? st.queue_id : null);

wire();
start().catch((err) => report(err));
