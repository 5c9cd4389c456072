import Foundation
import TestSupport
import XCTest

/// Runs the program in a pseudo-terminal driven by a small Python script (the pty module), for what tmux hides:
/// the terminal's other end closing, the terminal's own answers to the start-up questions, a stop and continue.
///
/// Steps, in order: `wait:TEXT` (until the output, with escape sequences taken out, holds TEXT), `send:TEXT` (typed,
/// with `\e` for Esc and `^Z` for Ctrl-Z), `sleep:SECONDS`, `signal:NAME` (to the program), `mark` (forgets the
/// output so far), `close` (the terminal's other end goes away). Each step waits at most its deadline; the program
/// is killed at the end if it has not ended, and the result says so.
struct PtyDriver {
    struct Result: Decodable {
        /// "exit N", "signal N" or "running" (killed at the end).
        var ending: String
        /// Seconds from the last step to the program's end.
        var secondsToEnd: Double?
        /// The output after the last `mark`, escape sequences taken out.
        var text: String
        /// A step that timed out, if one did.
        var failedStep: String?
        /// The program's standard error (to a file, not the terminal).
        var stderr: String
        /// The output after the last `mark` as it came (bytes as Latin-1), escape sequences and all.
        var raw: String
    }

    static let script = #"""
    import json, os, pty, re, select, signal, sys, time
    spec = json.loads(sys.stdin.read())
    deadline = spec.get("deadline", 20)
    errfile = spec["stderr"]
    pid, fd = pty.fork()
    if pid == 0:
        e = os.open(errfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(e, 2)
        import fcntl, struct, termios
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", spec.get("rows", 24), spec.get("cols", 80), 0, 0))
        os.execve(spec["argv"][0], spec["argv"], spec["env"])
    out = b""
    closed = False
    def strip(b):
        t = b.decode("utf-8", "replace")
        t = re.sub(r"\x1b\][^\x07\x1b]*(\x07|\x1b\\)", "", t)
        t = re.sub(r"\x1b[P_^][^\x1b]*\x1b\\", "", t)
        t = re.sub(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]", "", t)
        return re.sub(r"\x1b.", "", t)
    def pump(timeout):
        global out
        if closed: time.sleep(timeout); return
        r, _, _ = select.select([fd], [], [], timeout)
        if r:
            try:
                data = os.read(fd, 65536)
                out += data
                for q in spec.get("answers", []):
                    if q["when"].encode() in data and not q.get("done"):
                        q["done"] = True
                        os.write(fd, q["answer"].encode("latin-1"))
            except OSError:
                time.sleep(timeout)
    failed = None
    last = time.time()
    for step in spec["steps"]:
        kind, _, arg = step.partition(":")
        start = time.time()
        if kind == "wait":
            while arg not in strip(out):
                if time.time() - start > deadline:
                    failed = step; break
                pump(0.05)
        elif kind == "send":
            os.write(fd, arg.replace("\\e", "\x1b").replace("^Z", "\x1a").encode())
        elif kind == "sleep":
            end = time.time() + float(arg)
            while time.time() < end: pump(0.02)
        elif kind == "signal":
            os.kill(pid, getattr(signal, arg))
        elif kind == "mark":
            out = b""
        elif kind == "close":
            os.close(fd); closed = True
        last = time.time()
        if failed: break
    ending = "running"; seconds = None
    while time.time() - last < spec.get("exitWait", 5):
        p, status = os.waitpid(pid, os.WNOHANG)
        if p:
            seconds = time.time() - last
            ending = ("signal %d" % os.WTERMSIG(status)) if os.WIFSIGNALED(status) else ("exit %d" % os.WEXITSTATUS(status))
            break
        pump(0.02)
    if ending == "running":
        os.kill(pid, signal.SIGKILL); os.waitpid(pid, 0)
    print(json.dumps({"ending": ending, "secondsToEnd": seconds, "text": strip(out)[-20000:], "raw": out[-20000:].decode("latin-1"), "failedStep": failed,
                      "stderr": open(errfile, errors="replace").read()[-4000:]}))
    """#

    /// Runs `arguments` with `environment` through `steps`; `answers`: what the terminal says when it sees a question.
    static func run(_ arguments: [String], environment: [String: String], steps: [String], answers: [(when: String, answer: String)] = [],
                    columns: Int = 80, rows: Int = 24, deadline: Double = 20, exitWait: Double = 5, folder: URL) throws -> Result {
        var environment = environment
        environment["PATH"] = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment["LANG"] = environment["LANG"] ?? "C.UTF-8"
        environment["TERM"] = environment["TERM"] ?? "xterm-256color"
        let spec: [String: Any] = [
            "argv": [CommandLineTests.executable.path] + arguments, "env": environment, "steps": steps,
            "answers": answers.map { ["when": $0.when, "answer": $0.answer] }, "cols": columns, "rows": rows,
            "deadline": deadline, "exitWait": exitWait, "stderr": folder.appendingPathComponent("pty-stderr.txt").path,
        ]
        let data = try Tool.execute(["python3", "-c", script], input: JSONSerialization.data(withJSONObject: spec),
                                    timeout: deadline + exitWait + 60).output
        return try JSONDecoder().decode(Result.self, from: data)
    }
}
