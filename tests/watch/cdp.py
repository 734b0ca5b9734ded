"""Drives headless Chromium over its DevTools pipe (no websocket library):
opens the page, then prints one JSON line every 100 ms with what each board
shows (its diagram's label, its open alerts) and the stream's status; reads
commands on stdin: `seen ID` clicks the board's "Mark seen" button, `shot
PATH` saves a screenshot, `quit` prints the console errors and ends.

Usage: python3 cdp.py URL PROFILE_DIR"""
import base64, json, os, select, subprocess, sys

url, profile = sys.argv[1], sys.argv[2]
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()
# Chromium reads commands on fd 3 and writes answers on fd 4.
def fds():
    os.dup2(to_chrome_r, 3)
    os.dup2(from_chrome_w, 4)
chrome = subprocess.Popen(
    ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
     "--disable-background-networking", "--disable-component-update",
     "--disable-sync", "--no-first-run", "--remote-debugging-pipe",
     "--window-size=1300,1000", "--user-data-dir=" + profile, "about:blank"],
    pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(to_chrome_r); os.close(from_chrome_w)
buf = b""; ident = 0; errors = []; events = []

def read_message():
    global buf
    while b"\0" not in buf:
        chunk = os.read(from_chrome_r, 1 << 16)
        if not chunk:
            raise SystemExit("chromium ended")
        buf += chunk
    raw, buf = buf.split(b"\0", 1)
    return json.loads(raw)

def note(m):
    method = m.get("method", "")
    if method == "Runtime.exceptionThrown":
        errors.append(m["params"]["exceptionDetails"].get("text", "exception"))
    elif method == "Runtime.consoleAPICalled" and m["params"]["type"] in ("error", "assert"):
        errors.append(json.dumps(m["params"]["args"]))
    elif method == "Log.entryAdded" and m["params"]["entry"]["level"] == "error":
        errors.append(m["params"]["entry"]["text"])

def call(method, params=None, session=None):
    global ident
    ident += 1
    msg = {"id": ident, "method": method, "params": params or {}}
    if session:
        msg["sessionId"] = session
    os.write(to_chrome_w, json.dumps(msg).encode() + b"\0")
    while True:
        m = read_message()
        if m.get("id") == ident:
            if "error" in m:
                raise SystemExit(f"{method}: {m['error']}")
            return m.get("result", {})
        note(m)

target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
    call(domain, session=session)
call("Page.navigate", {"url": url}, session=session)

LOOK = """JSON.stringify({status: (document.getElementById('status')||{}).textContent,
 boards: Object.fromEntries([...document.querySelectorAll('article.board')].map(a =>
   [a.dataset.id, {label: (a.querySelector('svg[aria-label]')||{getAttribute(){return ''}}).getAttribute('aria-label'),
    open: [...a.querySelectorAll('.ev.alert.new')].map(e => e.dataset.kind),
    count: (a.querySelector('.meta.count')||{}).textContent,
    alert: a.classList.contains('alert')}]))})"""

def evaluate(expr):
    r = call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=session)
    return r.get("result", {}).get("value")

pending = b""
commands = []
while True:
    ready, _, _ = select.select([0], [], [], 0.1)
    if ready:
        chunk = os.read(0, 4096)
        pending += chunk if chunk else b"quit\n"
        *lines, pending = pending.split(b"\n")
        commands += [l.decode().strip() for l in lines]
    while commands:
        line = commands.pop(0)
        if line.startswith("seen "):
            board = json.dumps(line[5:])
            evaluate(f"[...document.querySelectorAll('article.board')].find(a => a.dataset.id === {board}).querySelector('button.seen').click()")
        elif line.startswith("shot "):
            data = call("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
            with open(line[5:], "wb") as f:
                f.write(base64.b64decode(data))
        elif line == "quit":
            print(json.dumps({"errors": errors}), flush=True)
            chrome.terminate()
            chrome.wait(timeout=10)
            raise SystemExit(0)
    view = evaluate(LOOK)
    if view:
        print(view, flush=True)
