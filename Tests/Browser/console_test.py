"""The web console at /__accord/ui in a real headless Chromium (Debian's chromium and
chromedriver, driven by Selenium), against a real `accord serve`, with the app calls made
by the generated Swift client (the console-client command).

usage: python console_test.py ACCORD CONSOLE_CLIENT SCREENSHOT_DIR
"""

import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ACCORD, CLIENT, SCREENSHOTS = sys.argv[1:4]
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Server:
    """`accord serve` on a free loopback port, with the repository's contracts and mocks."""

    def __init__(self):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [ACCORD, "serve", "--port", "0", "--quiet", "--no-reload", "--check-flows",
             "--contracts", os.path.join(REPOSITORY, "contracts"), "--mocks", os.path.join(REPOSITORY, "mocks")],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        while time.time() < deadline:
            self.log.seek(0)
            match = re.search(r"accord serve: http://127\.0\.0\.1:(\d+)", self.log.read())
            if match:
                self.port = int(match.group(1))
                self.base = f"http://127.0.0.1:{self.port}"
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.log.seek(0)
        raise RuntimeError("accord serve did not start: " + self.log.read())

    def control(self, method, path, body=None):
        request = urllib.request.Request(self.base + "/__accord/" + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.load(response)

    def app(self, action):
        """One call of the generated client, as the app saw it."""
        out = subprocess.run([CLIENT, self.base, action], capture_output=True, text=True, timeout=30, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


def evil_page(target):
    """A page of another origin that tries to change the mock's state and read its journal."""
    return f"""<!doctype html><title>evil</title>
<iframe name="sink" hidden></iframe>
<form id="form" method="POST" enctype="text/plain" target="sink" action="{target}/__accord/reset">
<input name='{{"x":"' value='"}}'></form>
<pre id="out">running</pre>
<script>
const out = document.getElementById('out');
const results = {{}};
async function run() {{
  try {{
    await fetch('{target}/__accord/users/10086/ban', {{method: 'POST', mode: 'no-cors', headers: {{'Content-Type': 'text/plain'}},
                                                     body: JSON.stringify({{reason: 'evil'}})}});
    results.noCors = 'sent';
  }} catch (error) {{ results.noCors = 'failed: ' + error; }}
  try {{
    const response = await fetch('{target}/__accord/requests');
    results.read = 'read ' + (await response.text()).length;
  }} catch (error) {{ results.read = 'blocked'; }}
  try {{
    await fetch('{target}/__accord/rules', {{method: 'DELETE', headers: {{'Content-Type': 'application/json'}}}});
    results.preflighted = 'sent';
  }} catch (error) {{ results.preflighted = 'blocked'; }}
  document.getElementById('form').submit();
  results.form = 'submitted';
  setTimeout(() => {{ out.textContent = JSON.stringify(results); }}, 500);
}}
run();
</script>"""


def slot_thief_page(target):
    """A page of another origin that tries to hold every event stream, with requests that send no Origin."""
    tags = "".join(f'<img src="{target}/__accord/events?replay=0&n={n}"><script src="{target}/__accord/events?replay=0&s={n}"></script>'
                   for n in range(12))
    return f"""<!doctype html><title>thief</title>{tags}
<pre id="out">running</pre>
<script>
for (let n = 0; n < 12; n++) fetch('{target}/__accord/events?replay=0&f=' + n, {{mode: 'no-cors'}}).catch(() => {{}});
setTimeout(() => {{ document.getElementById('out').textContent = 'held'; }}, 1500);
</script>"""


class Site(http.server.ThreadingHTTPServer):
    """A page of another origin, served on a loopback port of its own."""

    def __init__(self, page):
        body = page.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


class ConsoleTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(SCREENSHOTS, exist_ok=True)
        cls.server = Server()
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800",
                         # The DNS-rebinding check: this name resolves to loopback, as an attacker's would.
                         "--host-resolver-rules=MAP rebind.accord.test 127.0.0.1"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
        cls.driver.set_window_size(1280, 800)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()

    def setUp(self):
        self.server.control("POST", "reset")
        self.driver.get_log("browser")  # what earlier tests left
        self.open_console()

    def open_console(self):
        self.driver.get(self.server.base + "/__accord/ui")
        self.wait_for(lambda: self.driver.find_element(By.ID, "stream-status").text == "live", "the event stream to open")
        # Pickers are filled from GET /__accord/contract.
        self.wait_for(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#rule-endpoint option")) > 60, "the contract to load")

    def wait_for(self, condition, what, timeout=5.0):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.02).until(lambda _: condition())
        except Exception as error:
            raise AssertionError(f"timed out waiting for {what}") from error

    def rows(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "#traffic tbody tr")

    def row_where(self, text):
        return [row for row in self.rows() if text in row.text]

    def shoot(self, name):
        path = os.path.join(SCREENSHOTS, name + ".png")
        self.driver.save_screenshot(path)
        print(f"screenshot: {path}", file=sys.stderr)

    def severe_console_messages(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def test_page_loads_without_console_errors_at_desktop_and_phone_sizes(self):
        self.server.app("publish")
        self.wait_for(lambda: self.row_where("signal.publish"), "the publish to appear")
        self.shoot("traffic-1280x800")
        self.driver.set_window_size(390, 844)
        self.driver.refresh()
        self.open_console()
        self.wait_for(lambda: self.row_where("signal.publish"), "the replayed publish")
        self.shoot("traffic-phone")
        self.driver.set_window_size(1280, 800)
        self.assertEqual(self.severe_console_messages(), [])

    def test_a_generated_client_request_appears_within_a_second_with_its_violations(self):
        answer = self.server.app("long-publish")
        returned = time.monotonic()
        self.assertEqual(answer["code"], "1000")
        # Login first, then the publish the contract refuses.
        self.wait_for(lambda: [row for row in self.row_where("signal.publish") if "invalid" in row.text], "the refused publish", timeout=1.0)
        latency = time.monotonic() - returned
        print(f"the refused publish appeared {latency * 1000:.0f} ms after the client's call returned", file=sys.stderr)
        self.assertLess(latency, 1.0)
        self.row_where("signal.publish")[0].click()
        detail = self.driver.find_element(By.ID, "detail")
        self.wait_for(lambda: "/body/content" in detail.text, "the violation's pointer")
        self.assertIn("expected at most 500 characters", detail.text)
        self.assertIn("Bearer <masked>", detail.text)
        self.shoot("traffic-detail-violation")
        self.assertEqual(self.severe_console_messages(), [])

    def test_a_bad_signature_shows_the_servers_sorted_params_and_string_to_sign(self):
        request = urllib.request.Request(self.server.base + "/api/v1/auth/sms/send", method="POST", data=b'{"phone":"13800138000","scene":"login"}',
                                         headers={"Content-Type": "application/json", "X-App-Key": "dev_app_key", "X-Timestamp": str(int(time.time())),
                                                  "X-Nonce": "0123456789abcdef0123", "X-Sign": "00000000000000000000000000000000",
                                                  "X-Device-Id": "D-1", "X-OS": "ios", "X-App-Version": "1.2.0"})
        urllib.request.urlopen(request, timeout=5).read()
        self.wait_for(lambda: self.row_where("bad-signature"), "the refused request")
        self.row_where("bad-signature")[0].click()
        detail = self.driver.find_element(By.ID, "detail")
        self.wait_for(lambda: "server string_to_sign" in detail.text, "the signature section")
        self.assertIn("phone=13800138000&scene=login", detail.text)
        self.assertIn("<app_secret>", detail.text)
        self.assertIn("00000000000000000000000000000000", detail.text)
        self.shoot("traffic-detail-signature")

    def test_banning_from_the_flows_view_makes_the_next_call_1008(self):
        self.driver.find_element(By.ID, "tab-flows").click()
        form = self.driver.find_element(By.ID, "flow-user")
        form.find_element(By.NAME, "uid").send_keys("10086")
        form.find_element(By.NAME, "reason").send_keys("spam from the console test")
        self.driver.find_element(By.ID, "ban-button").click()
        self.wait_for(lambda: self.driver.find_element(By.ID, "notice").text == "banned", "the ban to be confirmed")
        self.shoot("flows")
        answer = self.server.app("me")
        self.assertEqual(answer, {"code": "1008", "result": "banned"})
        self.driver.find_element(By.ID, "tab-traffic").click()
        self.wait_for(lambda: [row for row in self.rows() if re.search(r"\b1008\b", row.text)], "the 1008 in the journal")

    def test_a_rule_from_the_pickers_makes_the_next_publish_3008(self):
        self.driver.find_element(By.ID, "tab-flows").click()
        Select(self.driver.find_element(By.ID, "rule-endpoint")).select_by_value("signal.publish")
        Select(self.driver.find_element(By.ID, "rule-code")).select_by_value("3008")
        form = self.driver.find_element(By.ID, "flow-rule")
        form.find_element(By.NAME, "times").send_keys("1")
        self.driver.find_element(By.ID, "add-rule").click()
        self.wait_for(lambda: "signal.publish" in self.driver.find_element(By.CSS_SELECTOR, "#rules tbody").text, "the rule in the list")
        self.shoot("flows-rule")
        answer = self.server.app("publish")
        self.assertEqual(answer["code"], "3008")
        self.assertEqual(self.server.app("publish")["result"], "ok", "the rule fired once")
        self.driver.find_element(By.ID, "tab-traffic").click()
        self.wait_for(lambda: [row for row in self.row_where("signal.publish") if "3008" in row.text and "injected" in row.text], "the injected 3008")

    def test_the_flows_view_shows_what_the_app_did_after_each_flow_as_it_happens(self):
        self.driver.find_element(By.ID, "tab-flows").click()
        summary = self.driver.find_element(By.ID, "conformance-summary")
        self.wait_for(lambda: summary.text == "0 of 217 cells met, 0 violations", "the empty matrix")
        self.server.control("POST", "rules", {"match": {"endpoint": "signal.publish"}, "respond": {"code": 3008}, "times": 2})
        # The console client sends the publish again at once: within the alert window.
        self.assertEqual(self.server.app("publish")["code"], "3008")
        self.assertEqual(self.server.app("publish")["code"], "3008")
        table = self.driver.find_element(By.CSS_SELECTOR, "#conformance tbody")
        self.wait_for(lambda: "the same call not sent again within the alert window" in table.text, "the violation in the table")
        broken = [row.text for row in table.find_elements(By.CSS_SELECTOR, "tr.broken")]
        self.assertEqual(len(broken), 1)
        self.assertRegex(broken[0], r"^signal\.publish alert 2\s+signal\.publish: after 3008 at #\d+ the call was sent again at #\d+, \d+ ms later "
                                    r"\(alert: the same call not sent again within the alert window\) in session user:10086$")
        self.assertEqual(summary.text, "1 of 217 cells met, 1 violation")
        self.shoot("flows-conformance")
        # The journal's entry that broke the rule carries it: marked in the table, named in its detail.
        self.driver.find_element(By.ID, "tab-traffic").click()
        marked = self.driver.find_elements(By.CSS_SELECTOR, "#traffic tr.flow-broken")
        self.assertEqual([row.text.split()[0] for row in marked], [re.search(r"sent again at #(\d+)", broken[0]).group(1)])
        marked[0].click()
        detail = self.driver.find_element(By.ID, "detail")
        self.wait_for(lambda: "Flow rules broken" in detail.text, "the entry's verdict")
        self.assertIn("(alert: the same call not sent again within the alert window) in session user:10086",
                      detail.find_element(By.CSS_SELECTOR, "ul.flow-violations").text)
        self.assertEqual(self.severe_console_messages(), [])

    def test_try_it_signs_on_the_server_and_the_answer_is_journaled(self):
        self.driver.find_element(By.ID, "tab-contracts").click()
        self.driver.find_element(By.CSS_SELECTOR, '[data-endpoint="auth.sms-send"]').click()
        body = self.driver.find_element(By.CSS_SELECTOR, '#endpoint textarea[name="body"]')
        body.clear()
        body.send_keys('{"phone": "13800138000", "scene": "login"}')
        self.driver.find_element(By.ID, "try-send").click()
        result = self.driver.find_element(By.ID, "try-result")
        self.wait_for(lambda: "Answer 200" in result.text, "the answer")
        self.assertIn('"X-Sign"', result.text)
        self.assertNotIn("dev_app_secret", self.driver.page_source)
        self.shoot("contracts-try-it")
        self.driver.find_element(By.ID, "tab-traffic").click()
        self.wait_for(lambda: [row for row in self.row_where("auth.sms-send") if "console" in row.text and " ok" in row.text], "the try in the journal")

    # ---- each item at a desktop and a phone width ------------------------------------

    SIZES = [(1280, 800), (390, 844)]

    def at_each_size(self, check):
        """Runs `check(width)` at 1280 and at 390 px wide, each from a fresh server state."""
        try:
            for width, height in self.SIZES:
                with self.subTest(width=width):
                    self.driver.set_window_size(width, height)
                    self.server.control("POST", "reset")
                    self.open_console()
                    check(width)
                    self.assertEqual(self.page_overflow(), 0, "the page scrolls sideways")
        finally:
            self.driver.set_window_size(1280, 800)

    def page_overflow(self):
        return self.driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")

    def box(self, selector):
        return self.driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                          " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width};", selector)

    def login_through_try_it(self):
        """Signs in with the contract's example through "try it"; the console keeps the token."""
        self.driver.find_element(By.ID, "tab-contracts").click()
        self.driver.find_element(By.CSS_SELECTOR, '[data-endpoint="auth.login-phone"]').click()
        self.driver.find_element(By.ID, "try-send").click()
        self.wait_for(lambda: "Answer 200" in self.driver.find_element(By.ID, "try-result").text, "the login's answer")
        self.driver.find_element(By.ID, "tab-traffic").click()

    def test_the_traffic_table_fits_with_every_column_and_the_detail_beside_it(self):
        def check(width):
            self.server.app("publish")
            self.wait_for(lambda: self.row_where("signal.publish"), "the publish")
            table = self.driver.find_element(By.CSS_SELECTOR, ".table-wrap")
            self.assertLessEqual(table.get_property("scrollWidth"), table.get_property("clientWidth"), "the table scrolls sideways")
            self.assertTrue(self.driver.find_element(By.CSS_SELECTOR, "#traffic th:nth-child(8)").is_displayed(), "the user column")
            if width == 1280:
                self.assertGreater(self.box(".table-wrap")["width"], 1100, "the table takes the page before a row is picked")
            self.row_where("signal.publish")[0].click()
            self.wait_for(lambda: self.driver.find_element(By.ID, "detail").is_displayed(), "the detail pane")
            self.assertLessEqual(table.get_property("scrollWidth"), table.get_property("clientWidth"), "the table scrolls sideways beside the detail")
            detail, rows = self.box("#detail"), self.box(".table-wrap")
            if width == 1280:
                self.assertGreaterEqual(detail["left"], rows["right"], "the detail sits beside the table")
            else:
                self.assertGreaterEqual(detail["top"], rows["bottom"] - 1, "the detail follows the table on a phone")
            self.shoot(f"traffic-detail-{width}")
        self.at_each_size(check)

    def test_every_view_fits_a_phone(self):
        def check(width):
            for view in ["flows", "contracts", "traffic"]:
                self.driver.find_element(By.ID, "tab-" + view).click()
                self.assertEqual(self.page_overflow(), 0, f"the {view} view scrolls sideways at {width} px")
                self.shoot(f"{view}-{width}")
        self.at_each_size(check)

    def test_the_session_picker_puts_the_logged_in_user_first_and_its_scenario_reaches_the_app(self):
        def check(width):
            # An anonymous request: app.start-config is exempt from signing.
            urllib.request.urlopen(urllib.request.Request(self.server.base + "/api/v1/app/start-config", headers={
                "X-Device-Id": "D-2", "X-OS": "ios", "X-App-Version": "1.2.0"}), timeout=5).read()
            self.server.app("me")
            self.wait_for(lambda: self.row_where("user.me"), "the app's call")
            self.driver.find_element(By.ID, "tab-flows").click()
            picker = Select(self.driver.find_element(By.ID, "scenario-session"))
            names = [option.text for option in picker.options]
            self.assertTrue(names[0].endswith("(user 10086)"), names)
            self.assertIn("anonymous", names)
            self.assertEqual(picker.first_selected_option.text, names[0])
            Select(self.driver.find_element(By.CSS_SELECTOR, '#flow-scenario select[name="name"]')).select_by_value("banned")
            self.driver.find_element(By.CSS_SELECTOR, '#flow-scenario [data-action="start"]').click()
            self.wait_for(lambda: self.driver.find_element(By.ID, "notice").text == "scenario started", "the scenario to start")
            self.shoot(f"flows-session-{width}")
            self.assertEqual(self.server.app("me"), {"code": "1008", "result": "banned"}, "the app's session follows the scenario")
        self.at_each_size(check)

    def test_types_open_to_their_fields(self):
        def check(width):
            self.driver.find_element(By.ID, "tab-contracts").click()
            self.driver.find_element(By.CSS_SELECTOR, '[data-endpoint="signal.publish"]').click()
            answer = self.driver.find_element(By.CSS_SELECTOR, '#endpoint details.type[data-type="Signal"]')
            answer.find_element(By.TAG_NAME, "summary").click()
            self.wait_for(lambda: "content" in answer.text and "is_flash" in answer.text, "Signal's members")
            status = answer.find_element(By.CSS_SELECTOR, 'details.type[data-type="SignalStatus"]')
            status.find_element(By.TAG_NAME, "summary").click()
            self.wait_for(lambda: "one of active, expired, deleted" in status.text, "SignalStatus's values")
            self.shoot(f"contracts-types-{width}")
        self.at_each_size(check)

    def test_try_it_starts_from_the_contracts_header_values(self):
        def check(width):
            self.driver.find_element(By.ID, "tab-contracts").click()
            self.driver.find_element(By.CSS_SELECTOR, '[data-endpoint="auth.sms-send"]').click()
            headers = self.driver.find_element(By.CSS_SELECTOR, '#endpoint textarea[name="headers"]')
            values = json.loads(headers.get_property("value"))
            self.assertEqual(values["X-Language"], "zh", "the contract's default")
            self.assertEqual(values["X-OS"], "ios", "the enum's first value")
            values["X-Device-Id"] = "device-from-the-console"
            headers.clear()
            headers.send_keys(json.dumps(values))
            body = self.driver.find_element(By.CSS_SELECTOR, '#endpoint textarea[name="body"]')
            body.clear()
            body.send_keys('{"phone": "13800138000", "scene": "login"}')
            self.driver.find_element(By.ID, "try-send").click()
            self.wait_for(lambda: "Answer 200" in self.driver.find_element(By.ID, "try-result").text, "the answer")
            journal = self.server.control("GET", "requests?endpoint=auth.sms-send")
            self.assertEqual(journal["requests"][-1]["headers"]["x-device-id"], "device-from-the-console")
            self.shoot(f"contracts-try-headers-{width}")
        self.at_each_size(check)

    def test_a_journal_entry_is_copied_as_a_signed_curl_and_replayed(self):
        def check(width):
            self.login_through_try_it()
            self.server.app("publish")
            self.wait_for(lambda: self.row_where("signal.publish"), "the publish")
            self.row_where("signal.publish")[0].click()
            self.wait_for(lambda: self.driver.find_element(By.ID, "copy-curl").is_displayed(), "the detail's buttons")
            self.driver.find_element(By.ID, "copy-curl").click()
            line = self.driver.find_element(By.ID, "curl-line")
            self.wait_for(lambda: line.text.startswith("curl "), "the curl line")
            self.assertIn(f"{self.server.base}/api/v1/signals", line.text)
            self.assertIn("-H 'X-Sign: ", line.text)
            self.shoot(f"traffic-curl-{width}")
            published = len(self.row_where("signal.publish"))
            answer = json.loads(subprocess.run(["bash", "-c", line.text], capture_output=True, text=True, timeout=10, check=True).stdout)
            self.assertEqual(answer["code"], 0, answer)
            self.wait_for(lambda: len(self.row_where("signal.publish")) == published + 1, "the curl's request in the journal")
            self.driver.find_element(By.ID, "replay").click()
            self.wait_for(lambda: self.driver.find_element(By.ID, "notice").text.endswith(": 200 code 0"), "the replay's answer")
            self.wait_for(lambda: len(self.row_where("signal.publish")) == published + 2, "the replayed request in the journal")
        self.at_each_size(check)

    def test_clear_asks_first_and_then_clears_the_servers_journal(self):
        def check(width):
            self.server.app("me")
            self.wait_for(lambda: self.row_where("user.me"), "the app's call")
            self.driver.find_element(By.ID, "clear-traffic").click()
            self.driver.switch_to.alert.dismiss()
            self.assertTrue(self.row_where("user.me"), "dismissed: nothing cleared")
            self.assertTrue(self.server.control("GET", "requests")["requests"])
            self.driver.find_element(By.ID, "clear-traffic").click()
            self.driver.switch_to.alert.accept()
            self.wait_for(lambda: not self.rows(), "the table to empty")
            self.wait_for(lambda: not self.server.control("GET", "requests")["requests"], "the server's journal to empty")
            self.shoot(f"traffic-cleared-{width}")
        self.at_each_size(check)

    def test_a_page_of_another_origin_cannot_change_state_or_read_the_journal(self):
        self.server.control("POST", "rules", {"match": {"endpoint": "signal.quota"}, "respond": {"code": 3008}})
        evil = Site(evil_page(self.server.base))
        try:
            self.driver.get(f"http://127.0.0.1:{evil.server_address[1]}/")
            self.wait_for(lambda: self.driver.find_element(By.ID, "out").text.startswith("{"), "the evil page to finish")
            results = json.loads(self.driver.find_element(By.ID, "out").text)
        finally:
            evil.shutdown()
            evil.server_close()
        self.assertEqual(results["read"], "blocked")
        self.assertEqual(results["preflighted"], "blocked")
        # The no-cors fetch and the form were sent; the server refused both.
        self.assertEqual(self.server.app("me")["result"], "ok", "the user is not banned")
        self.assertEqual(len(self.server.control("GET", "rules")["rules"]), 1, "the form's reset did not run")
        # A DNS-rebinding page reaches this server under its own name, and is refused.
        self.driver.get(f"http://rebind.accord.test:{self.server.port}/__accord/requests")
        self.assertIn("foreign_host", self.driver.page_source)

    def test_a_page_of_another_origin_cannot_take_the_event_streams(self):
        thief = Site(slot_thief_page(self.server.base))
        try:
            self.driver.get(f"http://127.0.0.1:{thief.server_address[1]}/")
            self.wait_for(lambda: self.driver.find_element(By.ID, "out").text == "held", "the thief page to send its 36 requests")
            # With that page still open, the console opens its stream and sees live traffic.
            self.driver.switch_to.new_window("tab")
            try:
                self.open_console()
                self.server.app("me")
                self.wait_for(lambda: self.row_where("user.me"), "a live row while the thief page is open")
            finally:
                self.driver.close()
                self.driver.switch_to.window(self.driver.window_handles[0])
            with urllib.request.urlopen(self.server.base + "/__accord/events?replay=0", timeout=5) as stream:
                self.assertEqual(stream.status, 200, "a stream slot is free")
        finally:
            thief.shutdown()
            thief.server_close()


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
