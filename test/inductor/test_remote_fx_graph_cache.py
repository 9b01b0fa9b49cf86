# Owner(s): ["module: inductor"]
"""A fleet sharing Inductor's remote FX graph cache through a real Redis server.

Processes compile the same graph on the fake PrivateUse1 device with
``fx_graph_remote_cache`` on (``TORCHINDUCTOR_FX_GRAPH_REMOTE_CACHE=1``), each
with an empty local cache, against one Redis server on the loopback interface
(``TORCHINDUCTOR_REDIS_HOST``/``TORCHINDUCTOR_REDIS_PORT``, read by
``torch._inductor.remote_cache.RedisRemoteCacheBackend``).  Processes whose
device cache system info (``DeviceInterface.get_cache_system_info``) or
operator policy differ never share an artifact; identical ones hit the remote
cache.

The server is ``redis-server`` from the distribution's packages (``tools/dev.py test``
installs it) and the client is the ``redis`` package (``tools/requirements.txt``);
the test starts and stops its own server on a free port, and is skipped, saying
why, only where either is missing or the server does not start.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
if str(TEST_DIR) not in sys.path:
    sys.path.insert(0, str(TEST_DIR))

from torch.testing._internal.common_utils import run_tests, TestCase

from extension_backends.testing import DEVICE, run_python

try:
    import redis
except ImportError:
    redis = None


# One compile in a fresh process.  argv: cache system info version, policy
# version ("" for none).  Prints the FX graph cache counters as JSON.
CHILD = """
import json, sys
import torch
from torch._dynamo.utils import counters
from extension_backends.extension_device import register
from extension_backends.cpp.extension_codegen_backend import (
    ExtensionDeviceInterface,
    register_compile_backend,
)
from extension_backends import operator_policy
from torch._inductor.device_operator_policy import register_device_operator_policy

DEVICE = {device!r}
INFO, POLICY = {info!r}, {policy!r}
register(DEVICE)


class Versioned(ExtensionDeviceInterface):
    @classmethod
    def get_cache_system_info(cls):
        return {{"runtime": INFO}}


register_compile_backend(DEVICE, Versioned)
if POLICY:
    register_device_operator_policy(operator_policy.excluding_policy(DEVICE, POLICY))


def fn(x):
    return torch.nn.functional.hardswish(x).sum(0) + 1


x = torch.arange(12.0, device=DEVICE).reshape(3, 4)
out = torch.compile(fn)(x)
torch.testing.assert_close(out.cpu(), fn(x.cpu()))
print("COUNTERS " + json.dumps({{
    k: counters["inductor"][k]
    for k in ("fxgraph_cache_hit", "fxgraph_cache_miss", "fxgraph_cache_bypass")
}}))
"""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RemoteFxGraphCacheTest(TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = None
        cls.skip_reason = None
        server_bin = shutil.which("redis-server")
        if server_bin is None:
            cls.skip_reason = (
                "no redis-server on PATH (install the distribution's redis-server "
                "package, as python3 tools/dev.py test does)"
            )
            return
        if redis is None:
            cls.skip_reason = (
                "the redis client package is not installed (tools/requirements.txt)"
            )
            return
        cls.workdir = tempfile.mkdtemp(prefix="remote-fx-cache-")
        cls.port = _free_port()
        cls.server = subprocess.Popen(
            [
                server_bin,
                "--bind", "127.0.0.1",
                "--port", str(cls.port),
                "--save", "",
                "--appendonly", "no",
                "--dir", cls.workdir,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(host="127.0.0.1", port=cls.port)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.exceptions.ConnectionError:
                if cls.server.poll() is not None or time.monotonic() > deadline:
                    cls.skip_reason = (
                        f"redis-server did not start on 127.0.0.1:{cls.port} "
                        f"(exit code {cls.server.poll()})"
                    )
                    cls._stop_server()
                    return
                time.sleep(0.1)
        cls.client = client

    @classmethod
    def _stop_server(cls):
        if cls.server is not None:
            cls.server.terminate()
            try:
                cls.server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                cls.server.kill()
                cls.server.wait()
            cls.server = None
        shutil.rmtree(getattr(cls, "workdir", ""), ignore_errors=True)

    @classmethod
    def tearDownClass(cls):
        cls._stop_server()
        super().tearDownClass()

    def setUp(self):
        super().setUp()
        if self.skip_reason is not None:
            self.skipTest(self.skip_reason)
        self.client.flushall()

    def compile_in_process(self, info: str, policy: str = "") -> dict[str, int]:
        # Each process has an empty local cache: anything it finds comes from
        # the remote one.
        with tempfile.TemporaryDirectory(prefix="inductor-local-") as local:
            proc = run_python(
                CHILD.format(device=DEVICE, info=info, policy=policy),
                timeout=300,
                TORCHINDUCTOR_CACHE_DIR=local,
                TORCHINDUCTOR_FX_GRAPH_CACHE="1",
                TORCHINDUCTOR_FX_GRAPH_REMOTE_CACHE="1",
                TORCHINDUCTOR_AUTOGRAD_CACHE="0",
                TORCHINDUCTOR_REDIS_HOST="127.0.0.1",
                TORCHINDUCTOR_REDIS_PORT=str(self.port),
            )
        line = next(
            l for l in proc.stdout.splitlines() if l.startswith("COUNTERS ")
        )
        return json.loads(line[len("COUNTERS "):])

    def fx_graph_keys(self) -> set[bytes]:
        return {
            key
            for key in self.client.scan_iter("pt2:fx-graph*")
        }

    def test_processes_share_only_identical_artifacts(self):
        first = self.compile_in_process("1.0")
        self.assertEqual(first["fxgraph_cache_miss"], 1, first)
        self.assertEqual(first["fxgraph_cache_hit"], 0, first)
        keys = self.fx_graph_keys()
        self.assertEqual(len(keys), 1, keys)

        # An identical process (same system info, no policy) hits.
        same = self.compile_in_process("1.0")
        self.assertEqual(same["fxgraph_cache_hit"], 1, same)
        self.assertEqual(same["fxgraph_cache_miss"], 0, same)
        self.assertEqual(self.fx_graph_keys(), keys)

        # Another runtime version: a miss, and an artifact of its own.
        other_info = self.compile_in_process("2.0")
        self.assertEqual(other_info["fxgraph_cache_miss"], 1, other_info)
        self.assertEqual(other_info["fxgraph_cache_hit"], 0, other_info)
        keys_after_info = self.fx_graph_keys()
        self.assertEqual(len(keys_after_info), 2, keys_after_info)

        # Same system info, but an operator policy: a miss too.
        with_policy = self.compile_in_process("1.0", policy="1")
        self.assertEqual(with_policy["fxgraph_cache_miss"], 1, with_policy)
        self.assertEqual(with_policy["fxgraph_cache_hit"], 0, with_policy)
        self.assertEqual(len(self.fx_graph_keys()), 3)


if __name__ == "__main__":
    run_tests()
