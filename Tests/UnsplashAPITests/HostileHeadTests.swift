import Foundation
import ImageFeedCore
import TestSupport
import UnsplashAPI
import UnsplashSandbox
import XCTest

/// A server on loopback that answers what libcurl has its own words for: a header line of 10 MB, and a redirect to
/// an address that is not https. The user reads what happened, not "Out of memory" or "HTTP 302".
final class HostileHeadTests: XCTestCase {
    var server: Process?
    var port = 0

    override func setUpWithError() throws {
        let script = """
            import http.server, socketserver
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    try:
                        if self.path == "/big":
                            self.send_response(200); self.send_header("X-Big", "a" * 10_000_000); self.end_headers(); self.wfile.write(b"x")
                        else:
                            self.send_response(302); self.send_header("Location", "ftp://files.example.test/photo.jpg"); self.end_headers()
                    except OSError:
                        pass
                def log_message(self, *a): pass
            class S(socketserver.ThreadingTCPServer):
                daemon_threads = True
                def handle_error(self, *a): pass
            s = S(("127.0.0.1", 0), H); print(s.server_address[1], flush=True); s.serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        server = process
        var line = Data()
        while !line.contains(0x0A), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty { line += byte }
        port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        XCTAssertGreaterThan(port, 0)
    }

    override func tearDown() {
        server?.terminate()
        server?.waitUntilExit()
    }

    func test_aHeaderOfTenMegabytes_isNamedAsSuch() async {
        do {
            _ = try await CurlHTTPClient().send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/big")!))
            XCTFail("expected a failure")
        } catch {
            XCTAssertEqual((error as? ServiceError)?.message, "127.0.0.1 sent an answer whose headers are too large to read.")
        }
    }

    func test_aRedirectThatIsNotFollowed_saysWhereItWent() async {
        do {
            _ = try await CurlHTTPClient().send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/moved")!))
            XCTFail("expected a failure")
        } catch {
            XCTAssertEqual((error as? ServiceError)?.message,
                           "127.0.0.1 redirected to ftp://files.example.test/photo.jpg, which is not https; it was not followed.")
        }
        // Without following, the answer is handed over as it is (the OAuth step reads its Location).
        let response = try? await CurlHTTPClient(followRedirects: false).send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/moved")!))
        XCTAssertEqual(response?.status, 302)
    }
}
