import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot HTTP listener on 127.0.0.1 that catches the browser's OAuth redirect
/// (`GET /callback?code=…&state=…`), answers with a short page, and stops.
///
/// It binds to the loopback address only, answers other paths with 404 and keeps waiting, takes one
/// callback, and closes. A callback whose `state` is not the login's (any local process can call the
/// address) is answered with an error page and the listener keeps waiting for the right one until its
/// deadline; each connection has two seconds and 8 KiB for its request line. Everything runs on its own
/// thread; the outcome comes back through `finished`.
public final class LoopbackRedirectListener: @unchecked Sendable {
    public enum Outcome: Equatable, Sendable {
        /// The whole address the browser was sent to.
        case redirect(String)
        case timedOut
        case stopped
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public let port: UInt16
    public let path: String
    /// The login's `state`: a callback with another is not the login's answer. nil takes any.
    public let expectedState: String?
    private let socketDescriptor: Int32
    private var stopPipe: [Int32] = [-1, -1]
    private let lock = NSLock()
    private var done = false

    /// Binds now (so a taken port is reported at once); call `start` to begin waiting.
    public init(redirectURI: String, expectedState: String? = nil) throws(Failure) {
        self.expectedState = expectedState
        guard let components = URLComponents(string: redirectURI), let host = components.host,
              components.scheme == "http", host == "127.0.0.1" || host == "localhost" else {
            throw Failure(description: "The redirect address \(redirectURI) is not a loopback http address, so no listener can catch it.")
        }
        port = UInt16(components.port ?? 80)
        path = components.path.isEmpty ? "/" : components.path
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "Cannot open a socket: \(String(cString: strerror(errno))).") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian // 127.0.0.1, never all interfaces
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 4) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "Cannot listen on 127.0.0.1:\(port) (\(reason)); paste the code instead.")
        }
        socketDescriptor = descriptor
        _ = pipe(&stopPipe)
    }

    deinit {
        stop()
        closeSocket()
        for descriptor in stopPipe where descriptor >= 0 { close(descriptor) }
    }

    private var socketClosed = false

    /// Stops listening at once: nothing more can connect.
    private func closeSocket() {
        lock.withLock {
            guard !socketClosed else { return }
            socketClosed = true
            close(socketDescriptor)
        }
    }

    /// Waits on a thread of its own for the callback, at most `timeout` seconds.
    public func start(timeout: TimeInterval, finished: @escaping @Sendable (Outcome) -> Void) {
        let thread = Thread { [self] in finished(self.serve(until: Date().addingTimeInterval(timeout))) }
        thread.name = "oauth-listener"
        thread.start()
    }

    /// Stops waiting (the outcome is `.stopped`, unless the callback already came).
    public func stop() {
        lock.withLock {
            guard !done else { return }
            done = true
            var byte: UInt8 = 1
            _ = write(stopPipe[1], &byte, 1)
        }
    }

    private func serve(until deadline: Date) -> Outcome {
        defer {
            lock.withLock { done = true }
            closeSocket()
        }
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return .timedOut }
            var descriptors = [pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, Int32(min(remaining, 3_600) * 1_000))
            if ready < 0, errno == EINTR { continue }
            if descriptors[1].revents != 0 { return .stopped }
            guard descriptors[0].revents != 0 else { continue }
            let connection = accept(socketDescriptor, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            defer { close(connection) }
            guard let target = Self.readRequestTarget(connection) else {
                Self.respond(connection, status: "400 Bad Request", title: "Bad request", text: "This address only takes the login's answer.")
                continue
            }
            let requestPath = String(target.prefix { $0 != "?" })
            guard requestPath == path else {
                Self.respond(connection, status: "404 Not Found", title: "Not found", text: "This address only takes the login's answer.")
                continue
            }
            if let expectedState {
                let state = URLComponents(string: "http://127.0.0.1\(target)")?.queryItems?.first { $0.name == "state" }?.value
                guard state == expectedState else {
                    Self.respond(connection, status: "400 Bad Request", title: "Not this login",
                                 text: "This answer does not belong to the login ImageFeed is waiting for. Start the login again from ImageFeed.")
                    continue
                }
            }
            Self.respond(connection, status: "200 OK", title: "ImageFeed",
                         text: "The login's answer reached ImageFeed. You can close this tab and go back to the terminal.")
            return .redirect("http://127.0.0.1:\(port)\(target)")
        }
    }

    /// The request line's target (`/callback?code=…`), read within two seconds in all and 8 KiB: a caller
    /// that sends a byte now and then is cut off as one that sends nothing.
    private static func readRequestTarget(_ connection: Int32) -> String? {
        let deadline = Date().addingTimeInterval(2)
        var timeout = timeval(tv_sec: 0, tv_usec: 250_000)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sendTimeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2_048)
        while received.count < 8_192, Date() < deadline {
            let count = recv(connection, &chunk, chunk.count, 0)
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            guard count > 0 else { break }
            received += chunk[0..<count]
            if received.firstRange(of: Array("\r\n".utf8)) != nil { break }
        }
        guard let lineEnd = received.firstRange(of: Array("\r\n".utf8)) else { return nil }
        let line = String(decoding: received[..<lineEnd.lowerBound], as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/"), parts[2].hasPrefix("HTTP/1.") else { return nil }
        return String(parts[1])
    }

    private static func respond(_ connection: Int32, status: String, title: String, text: String) {
        let body = """
            <!doctype html><html><head><meta charset="utf-8"><title>\(title)</title></head>
            <body style="font-family: sans-serif; margin: 3em"><h1>\(title)</h1><p>\(text)</p></body></html>
            """
        let response = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n" + body
        let bytes = Array(response.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBufferPointer { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
