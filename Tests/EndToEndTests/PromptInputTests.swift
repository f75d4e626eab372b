// PromptInputTests.swift — the prompt's key reader (PromptInput): a Ctrl-C pressed before or during the wait ends it, characters arrive whole, the end of input is the end.
import Foundation
import Synchronization
import Testing

@testable import usage_shell

#if canImport(Glibc)
    import Glibc
#endif

/// A pipe standing for the terminal; the write end is closed when it is dropped. Unchecked: a
/// second thread only writes to it, while the test holds it.
private final class KeyPipe: @unchecked Sendable {
    let read: Int32
    private(set) var write: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        read = fds[0]
        write = fds[1]
    }

    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
    }

    func closeWrite() {
        close(write)
        write = -1
    }

    deinit {
        close(read)
        if write >= 0 { close(write) }
    }
}

/// What nextCharacter gave: its result, the character, and errno.
private func nextKey(_ keys: KeyPipe) -> (result: Int32, character: Character?, errno: Int32) {
    var character: wchar_t = 0
    errno = 0
    let result = PromptInput.nextCharacter(fd: keys.read, into: &character) { _ in }
    let error = errno
    return (result, result == 1 ? Character(Unicode.Scalar(UInt32(character))!) : nil, error)
}

/// Blocks or unblocks SIGINT in the calling thread.
private func signalMask(_ how: Int32) {
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(how, &interrupt, nil)
}

// The interrupt flag is the process's: these tests take turns.
@Suite(.serialized)
struct PromptInputTests {
    init() {
        _ = setlocale(LC_CTYPE, "C.UTF-8")
        _ = Interrupt.take()
    }

    /// The shell's question stayed up after Ctrl-C when the SIGINT landed between the prompt being
    /// printed and libedit's read(2): the flag was set, and the read waited for a key already pressed.
    @Test func bugACtrlCPressedAsThePromptAppearedWasLost() {
        let keys = KeyPipe()
        interruptFlag.store(true, ordering: .relaxed)
        defer { _ = Interrupt.take() }
        // Were the flag not looked at before the wait, this key would end it (and not Ctrl-C).
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { keys.type(Array("y".utf8)) }
        let key = nextKey(keys)
        #expect(key.result == -1)
        #expect(key.errno == EINTR)
        #expect(key.character == nil)
    }

    /// Which thread runs the SIGINT handler while a thread waits for a key.
    enum Handler { case theWaitingThread, anotherThread }

    /// A thread waits for a key with the shell's SIGINT handler installed (and the wake pipe
    /// open), SIGINT is sent to `handler`'s thread, and this says whether the wait ended (within
    /// 5 s; else a key ends it) and with what (result, errno).
    func sigintDuringAWait(handledBy handler: Handler) async -> (ended: Bool, key: [Int32]?) {
        let keys = KeyPipe()
        var previous = sigaction()
        sigaction(SIGINT, nil, &previous)
        Interrupt.install()
        PromptInput.openWakePipe()
        defer { sigaction(SIGINT, &previous, nil) }
        let result = Mutex<[Int32]?>(nil)
        let waiter = Atomic<UInt>(0)
        let done = DispatchSemaphore(value: 0)
        let waiting = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // The test runner's threads block signals; the shell's main thread does not.
            signalMask(handler == .theWaitingThread ? SIG_UNBLOCK : SIG_BLOCK)
            waiter.store(UInt(pthread_self()), ordering: .relaxed)
            waiting.signal()
            let key = nextKey(keys)
            result.withLock { $0 = [key.result, key.errno] }
            done.signal()
        }
        waiting.wait()
        try? await Task.sleep(for: .milliseconds(300))
        switch handler {
        case .theWaitingThread:
            pthread_kill(pthread_t(waiter.load(ordering: .relaxed)), SIGINT)
        case .anotherThread:
            Thread {
                signalMask(SIG_UNBLOCK)
                pthread_kill(pthread_self(), SIGINT)
            }.start()
        }
        let ended = done.wait(timeout: .now() + 5) == .success
        if !ended { keys.type(Array("x".utf8)); done.wait() }
        return (ended, result.withLock { $0 })
    }

    @Test func aCtrlCDuringTheWaitEndsIt() async {
        defer { _ = Interrupt.take() }
        let (ended, key) = await sigintDuringAWait(handledBy: .theWaitingThread)
        #expect(ended, "the wait did not end at SIGINT")
        #expect(key == [-1, EINTR])
        let flagged = interruptFlag.load(ordering: .relaxed)
        #expect(flagged, "the shell's handler sets the flag the prompt reads")
    }

    /// SIGINT goes to any thread of the process that does not block it: run by another thread,
    /// the handler only set the flag, and a wait on the terminal alone went on.
    @Test func bugACtrlCHandledByAnotherThreadDidNotEndTheWait() async {
        defer { _ = Interrupt.take() }
        let (ended, key) = await sigintDuringAWait(handledBy: .anotherThread)
        #expect(ended, "the wait did not end when another thread ran the SIGINT handler")
        #expect(key == [-1, EINTR])
    }

    @Test func charactersArriveWholeAndABrokenByteIsDropped() {
        let keys = KeyPipe()
        // é (2 bytes), a byte that starts nothing, 🙂 (4 bytes), an é cut short by an a.
        keys.type([0xC3, 0xA9, 0xFF, 0xF0, 0x9F, 0x99, 0x82, 0xC3, 0x61])
        keys.closeWrite()
        var typed: [Character] = []
        while true {
            let key = nextKey(keys)
            guard key.result == 1, let character = key.character else {
                #expect(key.result == 0, "the end of input is 0, not an error")
                break
            }
            typed.append(character)
        }
        #expect(typed == ["é", "🙂", "a"])
    }

    @Test func aResizeDuringTheWaitIsPassedOnAndTheWaitGoesOn() {
        let keys = KeyPipe()
        promptResized.store(true, ordering: .relaxed)
        keys.type(Array("k".utf8))
        var character: wchar_t = 0
        var events: [PromptInput.Event] = []
        let result = PromptInput.nextCharacter(fd: keys.read, into: &character) { events.append($0) }
        #expect(result == 1)
        #expect(character == wchar_t(UInt8(ascii: "k")))
        #expect(events == [.resized])
    }

    /// Back from Ctrl-Z and `fg` the line was not redrawn: libedit's reader did it after SIGCONT, this one must too.
    @Test func bugBackFromCtrlZTheLineWasNotRedrawn() {
        let keys = KeyPipe()
        promptContinued.store(true, ordering: .relaxed)
        keys.type(Array("k".utf8))
        var character: wchar_t = 0
        var events: [PromptInput.Event] = []
        let result = PromptInput.nextCharacter(fd: keys.read, into: &character) { events.append($0) }
        #expect(result == 1)
        #expect(events == [.continued])
    }
}
