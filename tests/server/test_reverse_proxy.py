"""The nginx example of ``docs/host.md`` (``docs/examples/nginx-espadas.conf``),
run as written: Debian's nginx in front of ``espadas serve`` with a self-signed
certificate for localhost, only the ports, the host name and the paths changed.
Through it: the start page over HTTPS, plain HTTP sent to HTTPS (but Let's
Encrypt's challenges, answered from the web root),
a sign-in whose cookies are ``Secure`` (the scheme reached the server), the table
socket and the lobby socket, and each client counted at its own address (the
address reached the server) while a forged ``X-Forwarded-For`` is not believed."""

from __future__ import annotations

import datetime
import json
import os
import re
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from host_club import ROOT, need, serving
from server_helpers import Client, free_port

EXAMPLE = ROOT / "docs" / "examples" / "nginx-espadas.conf"
PAGE = ROOT / "docs" / "host.md"
NAME = "espadas.example.org"


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for ``localhost`` and ``127.0.0.1`` and its key (PEM files)."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


def replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"the example has changed: {old!r}"
    return text.replace(old, new)


def site(backend: int, https: int, http: int, folder: Path, cert: Path, key: Path) -> str:
    """The example with this machine's ports, host name, web root and certificate."""
    text = EXAMPLE.read_text(encoding="utf-8")
    text = replace_once(text, "root /var/www/html;", f"root {folder / 'www'};")
    text = replace_once(text, "server 127.0.0.1:8000;", f"server 127.0.0.1:{backend};")
    text = replace_once(text, "listen 80;", f"listen 127.0.0.1:{http};")
    text = replace_once(text, "listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;")
    text = replace_once(text, f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(cert))
    text = replace_once(text, f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(key))
    return text.replace(NAME, "localhost")


def nginx_conf(folder: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf gives a site, in ``folder``: the
    site's file included in ``http``, every file nginx writes kept in ``folder``."""
    user = "user root root;\n" if os.geteuid() == 0 else ""  # workers write the temp files
    temp = "".join(
        f"    {kind}_temp_path {folder / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\n"
        "events { worker_connections 256; }\n"
        f"http {{\n    access_log {folder / 'access.log'};\n{temp}"
        f"    include {folder / 'espadas.conf'};\n}}\n"
    )


def wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    import socket

    deadline = time.monotonic() + 90  # nginx starts slowly on a loaded machine
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else b""
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """nginx with the example on two free ports in front of ``espadas serve``
    started as the page says (one socket per address, to see addresses)."""
    nginx = need("nginx")
    folder = tmp_path_factory.mktemp("nginx")
    cert, key = self_signed(folder)
    backend, https, http = free_port(), free_port(), free_port()
    public = f"https://localhost:{https}"
    challenge = folder / "www" / ".well-known" / "acme-challenge" / "t0ken"
    challenge.parent.mkdir(parents=True)
    challenge.write_text("t0ken.proof", encoding="utf-8")
    (folder / "espadas.conf").write_text(
        site(backend, https, http, folder, cert, key), encoding="utf-8"
    )
    (folder / "nginx.conf").write_text(nginx_conf(folder), encoding="utf-8")
    data = tmp_path_factory.mktemp("data")
    options = ("--public-url", public, "--sockets-per-address", "1")
    with serving(data, *options, port=backend) as backend_url:
        command = [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf")]
        command += ["-e", str(folder / "error.log"), "-g", "daemon off;"]
        check = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
        assert check.returncode == 0, check.stderr + (folder / "error.log").read_text()
        process = subprocess.Popen(command, stderr=subprocess.PIPE)
        try:
            wait_for_port(https, process)
            yield {
                "public": public,
                "http": http,
                "cert": cert,
                "folder": folder,
                "backend": backend_url,
            }
        finally:
            process.terminate()
            process.wait(30)


def trusting(proxied: dict[str, Any]) -> ssl.SSLContext:
    """TLS that trusts the test certificate alone."""
    return ssl.create_default_context(cafile=str(proxied["cert"]))


def person(proxied: dict[str, Any], name: str) -> Client:
    """Someone new in a browser at the public address (TLS checked against the
    test certificate), signed in as ``name``."""
    client = Client(proxied["public"])
    client.http = httpx.Client(
        base_url=proxied["public"], timeout=60, verify=trusting(proxied), trust_env=False
    )
    client.sign_in(name)
    return client


def live(
    proxied: dict[str, Any], path: str, cookie: str, source: str = "127.0.0.1", **headers: str
) -> Any:
    """A WebSocket over TLS through nginx, opened from the address ``source``."""
    from websockets.sync.client import connect
    from websockets.typing import Origin

    url = proxied["public"].replace("https://", "wss://") + path
    try:
        return connect(
            url,
            ssl=trusting(proxied),
            origin=Origin(proxied["public"]),
            additional_headers={"Cookie": cookie, **headers},
            proxy=None,
            source_address=(source, 0),
            open_timeout=60,  # a loaded machine: TLS and the upgrade through nginx
        )
    except TimeoutError as exc:  # what nginx and the server said, to see which one hung
        folder: Path = proxied["folder"]
        logs = {n: (folder / n).read_text()[-3000:] for n in ("error.log", "access.log")}
        health = httpx.get(proxied["backend"] + "/health", timeout=10).status_code
        raise AssertionError(f"{exc} from {source}; backend /health {health}; {logs}") from exc


def frame(socket: Any, kind: str, timeout: float = 30) -> dict[str, Any]:
    """The next frame of type ``kind``."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(socket.recv(max(0.1, deadline - time.monotonic())))
        if message.get("type") == kind:
            return dict(message)


def test_the_page_shows_the_example_as_it_is() -> None:
    page = PAGE.read_text(encoding="utf-8")
    shown = re.search(r"```nginx\n(# Espadas behind Debian's nginx.*?)```", page, re.DOTALL)
    assert shown is not None, "docs/host.md shows docs/examples/nginx-espadas.conf"
    assert shown.group(1) == EXAMPLE.read_text(encoding="utf-8")


def test_pages_over_https_and_http_sent_to_https(proxied: dict[str, Any]) -> None:
    with httpx.Client(verify=trusting(proxied), trust_env=False) as browser:
        home = browser.get(proxied["public"] + "/")
        assert home.status_code == 200 and "Espadas" in home.text
        plain = browser.get(f"http://localhost:{proxied['http']}/mesa/abc?x=1")
        assert plain.status_code == 301
        assert plain.headers["location"] == "https://localhost/mesa/abc?x=1"
        acme = browser.get(f"http://localhost:{proxied['http']}/.well-known/acme-challenge/t0ken")
        assert (acme.status_code, acme.text) == (200, "t0ken.proof")
    with pytest.raises(httpx.ConnectError):  # not the test certificate: refused
        httpx.get(proxied["public"] + "/", trust_env=False)


def test_the_server_sees_https_cookies_are_secure(proxied: dict[str, Any]) -> None:
    ana = person(proxied, "Ana Secure")
    try:
        cookies = ana.http.cookies.jar
        assert {c.name for c in cookies} and all(c.secure for c in cookies)
    finally:
        ana.close()


def test_the_table_socket_through_the_proxy(proxied: dict[str, Any]) -> None:
    ana, bea = person(proxied, "Ana Table"), person(proxied, "Bea Table")
    try:
        tid = ana.ok("POST", "/api/tables", {"preset": "estandar"})["id"]
        with live(proxied, f"/api/tables/{tid}/live", ana.cookie_header()) as socket:
            first = frame(socket, "view")
            assert first["view"]["you"] == 0
            bea.ok("POST", f"/api/tables/{tid}/join")  # pushed to Ana through nginx
            assert frame(socket, "view")["version"] > first["version"]
            ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
            socket.send(json.dumps({"type": "act", "id": 1, "action": {"type": "bid", "value": 3}}))
            assert frame(socket, "refused")["id"] == 1  # not started yet: asked and answered
            socket.send(json.dumps({"type": "sync"}))
            assert frame(socket, "view")["view"]["seats"][3] is not None
    finally:
        ana.close()
        bea.close()


def test_the_lobby_socket_through_the_proxy(proxied: dict[str, Any]) -> None:
    ana = person(proxied, "Ana Lobby")
    try:
        with live(proxied, "/api/lobby/live", ana.cookie_header(), source="127.0.0.4") as socket:
            assert "open" in frame(socket, "lobby")
    finally:
        ana.close()


def test_each_client_is_counted_at_its_own_address(proxied: dict[str, Any]) -> None:
    """One socket per address: two addresses may each open one; a second from the
    same address is closed (4429), forged ``X-Forwarded-For`` or not."""
    from websockets.exceptions import ConnectionClosed

    ana = person(proxied, "Ana Addresses")
    try:
        tid = ana.ok("POST", "/api/tables", {"preset": "estandar"})["id"]
        path, cookie = f"/api/tables/{tid}/live", ana.cookie_header()
        with (
            live(proxied, path, cookie, source="127.0.0.2") as one,
            live(proxied, path, cookie, source="127.0.0.3") as two,
        ):
            assert frame(one, "view")["version"] == frame(two, "view")["version"]
            for forged in ({}, {"X-Forwarded-For": "203.0.113.7"}):
                with (
                    pytest.raises(ConnectionClosed) as refused,
                    live(proxied, path, cookie, source="127.0.0.2", **forged) as third,
                ):
                    frame(third, "view", timeout=10)
                assert refused.value.rcvd is not None and refused.value.rcvd.code == 4429
    finally:
        ana.close()
