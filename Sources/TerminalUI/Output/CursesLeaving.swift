import CNcursesw
import Foundation
import TerminalImage
#if canImport(Glibc)
import Glibc
#endif

/// Giving the terminal back: on the way out (`restore`), for a while (Ctrl-Z, `suspend`), and the last bytes written
/// before either.
extension NcursesBackend {
    /// Writes everything that waits, waiting for the terminal at most `seconds` in all (on the way out);
    /// `preparing`: pictures still being made ready are waited for, and sent.
    func flushAll(within seconds: Double, preparing: Bool = false) {
        let deadline = OutputQueue.clock() + seconds
        while output.hasPending || (preparing && pictures?.isPreparing == true), OutputQueue.clock() < deadline {
            if preparing, let pictures, let frame = lastFrame, !restored, pictures.wantsFrame(link: linkState(frame)) {
                draw(frame)
            }
            output.pump()
            guard output.hasPending || (preparing && pictures?.isPreparing == true) else { break }
            if output.hasPending { output.waitWritable(milliseconds: 100) } else { usleep(2_000) }
        }
    }

    // MARK: Restoring

    public func restore() {
        guard !restored else { return }
        output.takePicturesAway()
        output.queue("\u{1B}[?1006l" + reportsOff)
        if clearsOnExit {
            // Sent through the queue like every frame (curses' own output goes to a memory file while it draws):
            // the default colours, then the screen erased, before curses leaves the alternate screen if there is one.
            output.queue("\u{1B}[0m\u{1B}[H\u{1B}[2J")
        }
        restored = true
        flushAll(within: 5)
        // Answers to questions still on their way would reach the shell as text: they are read here.
        let deadline = OutputQueue.clock() + 1
        while output.asksTerminal, !output.terminalGone, !inputGone, !output.probes.isEmpty, OutputQueue.clock() < deadline {
            var value: wint_t = 0
            let status = wget_wch(window, &value)
            if status == ERR {
                _ = waitForInput(milliseconds: 50)
                continue
            }
            guard status != KEY_CODE_YES, let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            _ = decoder.feed(scalar)
            output.noteAnswers(decoder.deviceAttributesAnswers)
        }
        signal(SIGWINCH, SIG_DFL)
        if let flags = sharedFlags { _ = fcntl(writeDescriptor, F_SETFL, flags) }
        mousemask(0, nil)
        curs_set(1)
        endwin()
        delscreen(screen)
        fclose(outputFile)
        fclose(inputFile)
    }

    /// Gives the terminal back as the shell had it (as `restore` does, but curses stays), stops, and on `fg` takes
    /// it again: the next frame paints every cell, and the pictures, which the terminal was told to drop, go again.
    @discardableResult
    public func suspend() -> Bool {
        guard !restored else { return true }
        SignalTrap.suspendRequested = 0
        output.takePicturesAway()
        output.queue("\u{1B}[?1006l" + reportsOff + "\u{1B}[0m\u{1B}[H\u{1B}[2J")
        flushAll(within: 2)
        if let flags = sharedFlags { _ = fcntl(writeDescriptor, F_SETFL, flags) }
        mousemask(0, nil)
        curs_set(1)
        endwin()
        let stopped = SignalTrap.stopUntilContinued()
        // Continued: the terminal is the program's again, in the modes curses keeps for it.
        if let flags = sharedFlags { _ = fcntl(writeDescriptor, F_SETFL, flags | O_NONBLOCK) }
        doupdate()
        raw()
        noecho()
        nonl()
        curs_set(0)
        if mouseReported { mousemask(Self.button1Pressed | Self.button4Pressed | Self.button5Pressed, nil) }
        output.queue("\u{1B}[?1006h" + reportsOn)
        output.pump()
        // The window may have changed size while stopped.
        Self.resizeSignalled = 1
        invalidate()
        return stopped
    }

}
