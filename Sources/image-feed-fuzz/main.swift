// image-feed-fuzz <target> [libFuzzer options and corpus folders]
//
// Built by scripts/fuzz.sh with coverage and AddressSanitizer (IMAGE_FEED_FUZZ defined), this runs
// libFuzzer on one target. An ordinary build replays files or folders of inputs through the target
// and prints each outcome, which is how a crash input is looked at after the fact.
import Foundation
import FuzzTargets
#if IMAGE_FEED_FUZZ
import CFuzzDriver
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    try? FileHandle.standardError.write(contentsOf: Data("usage: image-feed-fuzz <target> [inputs or libFuzzer options]\ntargets: \(names)\n".utf8))
    exit(2)
}

#if IMAGE_FEED_FUZZ
// The target is global so the C callback (which cannot capture) can reach it.
nonisolated(unsafe) var fuzzedTarget = target
// libFuzzer sees the program name and what follows the target's name.
var driverArguments = [arguments[0]] + arguments.dropFirst(2)
var cArguments: [UnsafeMutablePointer<CChar>?] = driverArguments.map { strdup($0) } + [nil]
var argc = CInt(driverArguments.count)
let status = cArguments.withUnsafeMutableBufferPointer { buffer -> CInt in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
        let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
        fuzzedTarget.run(data)
        return 0
    }
}
exit(status)
#else
var files: [URL] = []
for path in arguments.dropFirst(2) {
    let url = URL(fileURLWithPath: path)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        try? FileHandle.standardError.write(contentsOf: Data("\(path): no such file\n".utf8))
        exit(1)
    }
    if isFolder.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        files += names.sorted().map { url.appendingPathComponent($0) }
    } else {
        files.append(url)
    }
}
for file in files {
    guard let data = FileManager.default.contents(atPath: file.path) else { continue }
    print("\(file.lastPathComponent): \(target.run(data))")
}
#endif
