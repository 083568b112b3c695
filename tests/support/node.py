"""One Node process a test process keeps for a script's questions: a start of Node and of
the page's modules costs ~0.15 s of CPU, and the tests that ask the page's code about
every real and public program (test_columns.py, test_engine_check_real_code.py) ask it
hundreds of times.

`NodeScript(script).ask(question)` writes the question as a line of JSON to the script's
Node (started at the first question, ended when the process exits) and returns the line
of JSON it answers. The script gets `serve(answer)` to call once it has what it needs:
`answer(question)` is called for each question in turn, and what it returns (or
`{"error": stack}` where it threw, raised here as an AssertionError) is the answer:

    NodeScript('serve((question) => question.a + 1);').ask({"a": 1})  ->  2
"""

from __future__ import annotations

import atexit
import contextlib
import select
import shutil
import subprocess
import tempfile
from typing import IO, Any

import orjson

# Reads the questions, a line each (a line may come in many chunks, a chunk hold many).
SERVE = """
const serve = (answer) => {
  let pending = [];
  process.stdin.on("data", (chunk) => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, end));
      const line = Buffer.concat(pending).toString("utf8");
      pending = [];
      start = end + 1;
      let out;
      try {
        out = { answer: answer(JSON.parse(line)) };
      } catch (error) {
        out = { error: String(error?.stack ?? error) };
      }
      process.stdout.write(`${JSON.stringify(out)}\\n`);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
};
"""


class NodeScript:
    """A script (an ES module's text) run by one Node for every question of this
    process; `timeout`: seconds an answer may take."""

    def __init__(self, script: str, timeout: float = 120) -> None:
        self.script = script
        self.timeout = timeout
        self._running: tuple[subprocess.Popen[bytes], IO[bytes]] | None = None
        atexit.register(self.stop)

    def ask(self, question: Any) -> Any:
        """The script's answer to `question` (JSON both)."""
        process, stderr = self._start()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(orjson.dumps(question) + b"\n")
            process.stdin.flush()
        except BrokenPipeError:
            pass  # it stopped: said below
        ready, _, _ = select.select([process.stdout], [], [], self.timeout)
        if not ready:
            self.stop(wait=0)  # no answer to this question left for the next
            raise AssertionError(f"Node gave no answer in {self.timeout} s")
        line = process.stdout.readline()
        if not line:
            stderr.seek(0)
            said = stderr.read().decode()
            self.stop()
            raise AssertionError(f"Node stopped: {said}")
        out = orjson.loads(line)
        assert "error" not in out, out["error"]
        return out["answer"]

    def _start(self) -> tuple[subprocess.Popen[bytes], IO[bytes]]:
        if self._running is not None:
            if self._running[0].poll() is None:
                return self._running
            self.stop(wait=0)  # it ended: its pipes closed before another starts
        node = shutil.which("node")
        assert node, "the test command installs Node.js"
        stderr = tempfile.TemporaryFile()  # noqa: SIM115 (closed by `stop`)
        process = subprocess.Popen(
            [node, "--input-type=module", "-e", SERVE + self.script],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
        self._running = (process, stderr)
        return self._running

    def stop(self, wait: float = 10) -> None:
        """End of input: Node ends once it has answered (killed after `wait` seconds)."""
        if self._running is None:
            return
        process, stderr = self._running
        self._running = None
        assert process.stdin is not None and process.stdout is not None
        with contextlib.suppress(OSError):
            process.stdin.close()
        try:
            process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
        stderr.close()
