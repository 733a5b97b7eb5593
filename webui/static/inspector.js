// The inspector: the fake's own state drawn from its test-control API
// (/minizulip/...). Every server text goes in as text.
import { call, ApiError, sleep } from "./api.js";

const $ = (id) => document.getElementById(id);
const ctl = (method, path, params) => call(method, path, params, { prefix: "/minizulip" });

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}
const cell = (...c) => el("td", {}, ...c.map((x) => (typeof x === "string" || typeof x === "number" ? String(x) : x)));
const when = (unix) => (unix ? new Date(unix * 1000).toISOString().replace(".000Z", "Z") : "never");

function showError(err) {
  $("error").textContent = err instanceof ApiError ? err.message : String((err && err.message) || err);
}
const guard = (fn) => async (ev) => {
  try {
    $("error").textContent = "";
    await fn(ev);
  } catch (err) {
    showError(err);
  }
};

// A table is redrawn only when its rows would change, so that a control
// the reader is about to press stays in place.
function setRows(body, rows) {
  const sig = rows.map((r) => r.outerHTML).join("");
  if (body.minizulipSig === sig) return;
  body.minizulipSig = sig;
  body.replaceChildren(...rows);
}

async function loadClock() {
  const r = await ctl("GET", "/clock");
  const t = $("clock-now");
  const iso = new Date(r.now * 1000).toISOString();
  t.dateTime = iso;
  t.textContent = iso;
}

async function loadSnapshots() {
  const r = await ctl("GET", "/snapshots");
  setRows(
    $("snapshots"),
    (r.snapshots || []).map((s) =>
      el(
        "tr",
        {},
        cell(String(s.snapshot_id)),
        cell(when(s.created)),
        cell(
          el("button", { type: "button", "data-act": "restore", "data-id": s.snapshot_id, text: `Restore snapshot ${s.snapshot_id}` }),
          " ",
          el("button", { type: "button", "data-act": "delete-snapshot", "data-id": s.snapshot_id, text: `Delete snapshot ${s.snapshot_id}` }),
        ),
      ),
    ),
  );
}

async function loadFaults() {
  const r = await ctl("GET", "/faults");
  setRows(
    $("faults"),
    (r.faults || []).map((f) =>
      el(
        "tr",
        {},
        cell(String(f.fault_id)),
        cell(`${f.method || "any"} ${f.path}${f.user ? " as " + f.user : ""}`),
        cell(f.drop ? "connection dropped" : `${f.status || ""} ${f.code || ""} ${f.msg || ""}`.trim()),
        cell(f.hits_left ? String(f.hits_left) : "every time"),
        cell(el("button", { type: "button", "data-act": "delete-fault", "data-id": f.fault_id, text: `Remove fault ${f.fault_id}` })),
      ),
    ),
  );
}

async function loadQueues() {
  let r;
  try {
    r = await ctl("GET", "/queues");
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return; // an older server
    throw err;
  }
  setRows(
    $("queues"),
    (r.queues || []).map((q) =>
      el(
        "tr",
        {},
        cell(el("code", { text: q.queue_id })),
        cell(q.user || String(q.user_id)),
        cell(q.event_types ? q.event_types.join(", ") : "all"),
        cell(String(q.pending)),
        cell(when(q.last_poll)),
        cell(el("button", { type: "button", "data-act": "expire", "data-id": q.queue_id, "aria-label": `Expire queue of ${q.user || q.user_id} ${q.queue_id}`, text: "Expire" })),
      ),
    ),
  );
}

async function loadUnsupported() {
  const r = await ctl("GET", "/unsupported");
  setRows(
    $("unsupported"),
    (r.unsupported || []).map((u) => el("tr", {}, cell(u.kind), cell(`${u.method} ${u.path}`), cell((u.params || []).join(", ")), cell(String(u.count)))),
  );
}

// ---- the request log ----
let lastRequest = 0;
const requests = [];
const KEEP = 300;

function requestEntry(r) {
  const d = el(
    "details",
    { class: "req", "data-user": r.user || "", "data-path": r.path || "" },
    el("summary", { text: `#${r.id} ${r.method} ${r.path} → ${r.status}${r.user ? " · " + r.user : ""}${r.duration_ms !== undefined ? ` · ${r.duration_ms} ms` : ""}` }),
    el("pre", { text: JSON.stringify({ params: r.params || {}, client: r.client, user_agent: r.user_agent, queue_id: r.queue_id }, null, 2) }),
  );
  return d;
}

function applyFilter() {
  const user = $("req-user").value.trim().toLowerCase();
  const path = $("req-path").value.trim().toLowerCase();
  for (const d of $("requests").children) {
    d.hidden = (user && !d.dataset.user.toLowerCase().includes(user)) || (path && !d.dataset.path.toLowerCase().includes(path));
  }
}

async function loadRequests() {
  const r = await ctl("GET", "/requests", lastRequest ? { since_id: String(lastRequest) } : {});
  const fresh = (r.requests || []).filter((x) => x.id > lastRequest);
  if (!fresh.length) return;
  lastRequest = Math.max(lastRequest, ...fresh.map((x) => x.id));
  const box = $("requests");
  const atTop = box.scrollTop < 40;
  for (const x of fresh) box.prepend(requestEntry(x));
  while (box.children.length > KEEP) box.lastElementChild.remove();
  applyFilter();
  if (atTop) box.scrollTop = 0;
}

// ---- actions ----
async function act(ev) {
  const b = ev.target.closest("button[data-act]");
  if (!b) return;
  const id = b.dataset.id;
  switch (b.dataset.act) {
    case "restore":
      await ctl("POST", `/snapshots/${id}/restore`);
      break;
    case "delete-snapshot":
      await ctl("DELETE", `/snapshots/${id}`);
      break;
    case "delete-fault":
      await ctl("DELETE", `/faults/${id}`);
      break;
    case "expire":
      await ctl("POST", `/queues/${encodeURIComponent(id)}/expire`);
      break;
  }
  await refresh();
}

async function refresh() {
  const results = await Promise.allSettled([loadClock(), loadSnapshots(), loadFaults(), loadQueues(), loadUnsupported(), loadRequests()]);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}

function wire() {
  document.body.addEventListener("click", guard(act));
  $("clock-form").addEventListener(
    "submit",
    guard(async (ev) => {
      ev.preventDefault();
      await ctl("POST", "/clock", { advance: $("clock-seconds").value });
      await loadClock();
    }),
  );
  $("snap-form").addEventListener(
    "submit",
    guard(async (ev) => {
      ev.preventDefault();
      await ctl("POST", "/snapshots");
      await loadSnapshots();
    }),
  );
  $("reset").addEventListener("click", guard(async () => { await ctl("POST", "/reset"); await refresh(); }));
  $("fault-form").addEventListener(
    "submit",
    guard(async (ev) => {
      ev.preventDefault();
      const params = {};
      for (const [k, v] of new FormData(ev.target)) if (String(v).trim() !== "") params[k] = String(v);
      await ctl("POST", "/faults", params);
      await loadFaults();
    }),
  );
  $("faults-clear").addEventListener("click", guard(async () => { await ctl("DELETE", "/faults"); await loadFaults(); }));
  $("unsupported-clear").addEventListener("click", guard(async () => { await ctl("DELETE", "/unsupported"); await loadUnsupported(); }));
  $("req-clear").addEventListener("click", guard(async () => { await ctl("DELETE", "/requests"); $("requests").replaceChildren(); }));
  $("req-user").addEventListener("input", applyFilter);
  $("req-path").addEventListener("input", applyFilter);
}

async function loop() {
  for (;;) {
    try {
      await refresh();
      $("error").textContent = "";
    } catch (err) {
      showError(err);
    }
    await sleep(1000);
  }
}

window.addEventListener("unhandledrejection", (ev) => {
  ev.preventDefault();
  showError(ev.reason);
});
wire();
loop();
